import base64
import copy
import re
from datetime import date, datetime

import pytest

from tests.conftest import MemoryFiles
from tools import onedrive
from tools.fixtures import NOW, TIMEZONE, USER, build_default
from tools.fixtures.onedrive import build
from tools.fixtures.people import people_records
from tools.fixtures.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import extract_text, make_docx, make_xlsx, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, World
from tools.kits.people import DirectoryState
from tools.onedrive import OneDriveState

PRIYA = "priya.shah@northwind.example"
RUBY = "ruby.walker@northwind.example"
AMELIA = "amelia.ward@northwind.example"


_BASE = build_default()


def ctx(files=None, directory=True):
    states = {"onedrive": OneDriveState.model_validate(copy.deepcopy(_BASE["onedrive"]))}
    if directory:
        states["directory"] = DirectoryState.model_validate(_BASE["directory"])
    return Context(World(NOW, TIMEZONE, USER, states, BlobStore(BLOBS)), "onedrive", files)


def call(c, action, /, **args):
    return onedrive.app.actions[action].invoke(c, args)


def names(rows):
    return [r["name"] for r in rows]


def text_of(c, item_id):
    it = c.state.items[item_id]
    return extract_text(c.blobs.get(it.blob), it.name)


# ---- starting data ----------------------------------------------------------------------------


def test_fixture_counts_and_shape():
    state = OneDriveState.model_validate(build_default()["onedrive"])
    items = state.items
    assert len(items) == 49
    assert sum(i.kind == "folder" for i in items.values()) == 12
    assert sorted(i.name for i in items.values() if i.parent_id == "") == [
        "Atlas cutover checklist.docx",
        "Contoso negotiation notes.docx",
        "Exec staff agenda template.docx",
        "Offsite seating.xlsx",
        "Q1 forecast.xlsx",
        "REQ-1045 interview scorecards.xlsx",
    ]
    assert sorted(i.id for i in items.values() if i.deleted is not None) == [
        "itm_old_shot_1",
        "itm_old_shot_2",
        "itm_q1_budget_old",
        "itm_screenshots_2025",
        "itm_untitled",
    ]
    for i in items.values():
        assert i.parent_id in ("root", "") or items[i.parent_id].kind == "folder"
        assert i.permissions[0].email == i.owner and i.permissions[0].role == "owner"
        assert i.created <= i.modified < NOW
        assert (i.parent_id == "") == (i.owner != USER)
        if i.kind == "file":
            data = BLOBS[i.blob]
            assert i.size == len(data) and i.versions[-1].blob == i.blob and i.versions[-1].size == i.size
            assert [v.number for v in i.versions] == list(range(1, len(i.versions) + 1))
        else:
            assert i.blob == "" and i.size == 0 and i.versions == []
    assert len(state.links) == 6
    assert [lnk.id for lnk in state.links.values() if lnk.expires and lnk.expires < NOW.date()] == [
        "lnk_lodge_contract_public"
    ]
    assert all(lnk.item_id in items for lnk in state.links.values())


def test_fixture_files_are_real_documents():
    items = build_default()["onedrive"]["items"]
    magic = {".docx": b"PK", ".xlsx": b"PK", ".pdf": b"%PDF", ".png": b"\x89PNG"}
    kinds = set()
    for it in items.values():
        if it["kind"] == "file":
            suffix = "." + it["name"].rsplit(".", 1)[-1]
            kinds.add(suffix)
            if suffix in magic:
                assert BLOBS[it["blob"]].startswith(magic[suffix]), it["name"]
    assert kinds == {".docx", ".xlsx", ".pdf", ".csv", ".md", ".txt", ".png"}
    forecast = BLOBS[items["itm_shared_q1_forecast"]["blob"]]
    assert read_cell(forecast, "Summary", "A3") == "Q2 2026"
    assert read_cell(forecast, "Summary", "B3") == 3400000
    assert "NWT-4471" in extract_text(BLOBS[items["itm_lodge_contract"]["blob"]], "x.pdf")
    assert "$12,480.00" in extract_text(BLOBS[items["itm_inv_20417"]["blob"]], "x.pdf")


def test_fixture_agrees_with_company_facts():
    items = build_default()["onedrive"]["items"]
    q1 = BLOBS[items["itm_q1_budget"]["blob"]]
    assert read_cell(q1, "Q1 2026", "B5") == "Events" and read_cell(q1, "Q1 2026", "E5") == -13250
    pricing = BLOBS[items["itm_contoso_pricing"]["blob"]]
    assert read_cell(pricing, "Pricing", "C2") == 432000 and read_cell(pricing, "Pricing", "C3") == 444960
    assert "Saturday April 18, 06:00-10:00 ET" in extract_text(
        BLOBS[items["itm_shared_cutover_checklist"]["blob"]], "x.docx"
    )
    assert read_cell(BLOBS[items["itm_offsite_budget"]["blob"]], "Budget", "C2") == 38500


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_app_and_data_avoid_internal_words():
    data = build_default()["onedrive"]
    text = repr(data).lower()
    text += " ".join(extract_text(BLOBS[i["blob"]], i["name"]) for i in data["items"].values() if i.get("blob")).lower()
    text += " ".join(a.description + str(a.input_schema) for a in onedrive.app.actions.values()).lower()
    text += onedrive.app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, text) == []
    assert re.findall(r"\brl\b", text) == []


def test_tool_names_fit_clients_and_reads_are_marked():
    acts = onedrive.app.actions
    assert len(acts) == 22
    assert all(len(a.tool_name) <= 48 for a in acts.values())
    assert sorted(n for n, a in acts.items() if a.read_only) == [
        "download_file",
        "get_item",
        "list_children",
        "list_permissions",
        "list_recent",
        "list_recycle_bin",
        "list_shared_with_me",
        "list_sharing_links",
        "list_versions",
        "search_items",
    ]


def test_docstring_examples_name_real_ids_and_paths():
    data = build_default()["onedrive"]
    ids = set(data["items"]) | set(data["links"])
    text = " ".join(a.description for a in onedrive.app.actions.values())
    mentioned = set(re.findall(r"\"((?:itm|lnk)_[a-z0-9_]+)\"", text))
    assert len(mentioned) >= 8 and mentioned <= ids
    c = ctx()
    paths = set(re.findall(r"\"(/(?:Documents|Desktop|Pictures)[^\"]*)\"", text)) - {"/Documents/Travel"}
    assert len(paths) >= 5
    for path in paths:
        assert call(c, "get_item", item=path)["path"] == path


# ---- browsing ---------------------------------------------------------------------------------


def test_list_children_top_and_by_path():
    c = ctx()
    top = call(c, "list_children")
    assert top["folder"] == {"id": "root", "name": "My files", "path": "/"}
    assert names(top["results"]) == ["Desktop", "Documents", "Pictures"]
    docs = call(c, "list_children", folder="/documents")
    assert names(docs["results"]) == [
        "Atlas",
        "Budgets",
        "Contoso",
        "Hiring",
        "Invoices",
        "Offsite 2026",
        "Board meeting April 29 - prep notes.docx",
        "Chief of staff OKRs 2026.docx",
    ]
    budgets = call(c, "list_children", folder="itm_budgets")
    assert names(budgets["results"]) == [
        "Budget review notes 2026-02-24.docx",
        "Q1 budget.xlsx",
        "Q2 budget draft.xlsx",
    ]
    assert budgets["folder"]["path"] == "/Documents/Budgets"


def test_list_children_folder_size_and_count_skip_recycle_bin():
    pics = {r["name"]: r for r in call(ctx(), "list_children", folder="/Pictures")["results"]}
    assert set(pics) == {"Offsite 2025", "Screenshots", "Headshot.png"}
    photos = call(ctx(), "list_children", folder="itm_offsite_2025_photos")["results"]
    assert pics["Offsite 2025"]["child_count"] == 2
    assert pics["Offsite 2025"]["size"] == sum(r["size"] for r in photos)


def test_list_children_orders_and_pages():
    c = ctx()
    newest = call(c, "list_children", folder="/Documents/Offsite 2026", order_by="modified")
    assert names(newest["results"])[0] == "Attendees.csv"
    stamps = [datetime.fromisoformat(r["modified"]) for r in newest["results"]]
    assert stamps == sorted(stamps, reverse=True)
    largest = call(c, "list_children", folder="/Documents/Offsite 2026", order_by="size")["results"]
    assert largest[0]["name"] == "Offsite agenda.docx"
    page = call(c, "list_children", folder="/Documents", page=2, page_size=3)
    assert names(page["results"]) == ["Hiring", "Invoices", "Offsite 2026"] and page["next_page"] == 3


def test_list_children_errors():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "list_children", folder="/Documents/Travel")
    assert err.value.parameter == "folder" and "'Travel'" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_children", folder="itm_q1_budget")
    assert "not a folder" in err.value.message
    with pytest.raises(NotFound):
        call(c, "list_children", folder="itm_screenshots_2025")
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_children", order_by="date")
    assert err.value.parameter == "order_by"


def test_get_item_by_path_and_id():
    c = ctx()
    out = call(c, "get_item", item="/Documents/Budgets/q1 BUDGET.xlsx")
    assert out["id"] == "itm_q1_budget" and out["version"] == 3
    assert out["created_by"] == USER and out["modified_by"] == PRIYA
    assert out["modified"] == "2026-03-05T17:10:00-05:00"
    assert out["your_access"] == "owner" and out["shared"] is True and out["active_links"] == 1
    shared = call(c, "get_item", item="itm_shared_offsite_seating")
    assert shared["path"] is None and shared["shared_with_me"] is True
    assert shared["owner"] == RUBY and shared["your_access"] == "write"
    assert call(c, "get_item", item="itm_shared_q1_forecast")["your_access"] == "read"
    assert call(c, "get_item", item="itm_offsite_agenda")["your_access"] == "owner"


def test_get_item_errors():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item="itm_nope")
    assert err.value.parameter == "item" and "search-items" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item="itm_q1_budget_old")
    assert "recycle bin" in err.value.message and "restore-item" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "get_item", item="/")
    with pytest.raises(InvalidArgument):
        call(c, "get_item", item="  ")


# ---- search and recent ------------------------------------------------------------------------


def test_search_finds_words_inside_documents():
    out = call(ctx(), "search_items", query="NWT-4471")
    assert names(out["results"])[0] == "Lakeside Lodge contract NWT-4471.pdf"
    assert "Offsite agenda.docx" in names(out["results"])
    agenda = next(r for r in out["results"] if r["name"] == "Offsite agenda.docx")
    assert agenda["matched_in"] == ["text"] and "NWT-4471" in agenda["snippet"]


def test_search_includes_shared_files_unless_told():
    c = ctx()
    out = call(c, "search_items", query="3400000")
    assert [(r["id"], r["shared_with_me"]) for r in out["results"]] == [("itm_shared_q1_forecast", True)]
    assert call(c, "search_items", query="3400000", include_shared=False)["total"] == 0


def test_search_filters_by_type_and_folder():
    c = ctx()
    pdfs = call(c, "search_items", query="lakeside", file_type="pdf")
    assert sorted(names(pdfs["results"])) == [
        "Expense receipts February.pdf",
        "INV-20441 Lakeside Lodge deposit.pdf",
        "Lakeside Lodge contract NWT-4471.pdf",
    ]
    inside = call(c, "search_items", query="contoso", folder="/Documents/Contoso")
    assert sorted(names(inside["results"])) == [
        "Contoso renewal pricing.xlsx",
        "Contoso sign-off tracker.csv",
        "Contoso term sheet CT-2291.pdf",
    ]
    folders = call(c, "search_items", query="offsite", file_type="folder")
    assert names(folders["results"]) == ["Offsite 2026", "Offsite 2025"]


def test_search_skips_recycle_bin_and_needs_words():
    c = ctx()
    assert call(c, "search_items", query="Q1 budget draft (old)")["total"] == 0
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_items", query="  ")
    assert err.value.parameter == "query"


def test_list_recent_newest_first_across_own_and_shared():
    out = call(ctx(), "list_recent", days=3)
    assert names(out["results"]) == [
        "To do this week.md",
        "Offsite seating.xlsx",
        "Scratch notes.txt",
        "Q1 forecast.xlsx",
        "Board meeting April 29 - prep notes.docx",
        "Contoso sign-off tracker.csv",
        "REQ-1045 interview scorecards.xlsx",
    ]
    assert [r["shared_with_me"] for r in out["results"]] == [False, True, False, True, False, False, True]
    month = call(ctx(), "list_recent")["results"]
    assert all(r["kind"] == "file" for r in month)
    assert "Q1 budget draft (old).xlsx" not in names(month) and "Headshot.png" not in names(month)


# ---- downloading ------------------------------------------------------------------------------


def test_download_text_inline_without_workspace():
    out = call(ctx(), "download_file", item="/Documents/Contoso/Contoso sign-off tracker.csv")
    assert out["content"].startswith("Approver,Role,Status")
    assert out["size"] == len(out["content"].encode()) and out["mime_type"] == "text/csv"


def test_download_binary_needs_workspace_or_as_text():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="itm_shared_q1_forecast")
    assert err.value.parameter == "item" and "as_text=true" in err.value.message
    out = call(c, "download_file", item="itm_shared_cutover_checklist", as_text=True)
    assert "DNS switch for orders.internal\tMia Thompson\tSat April 18, 09:15" in out["text"]
    assert out["truncated"] is False


def test_download_saves_into_workspace():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "download_file", item="itm_shared_q1_forecast")
    assert out == {
        "id": "itm_shared_q1_forecast",
        "name": "Q1 forecast.xlsx",
        "mime_type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "saved_to": "downloads/Q1 forecast.xlsx",
        "size": c.state.items["itm_shared_q1_forecast"].size,
    }
    assert read_cell(files.files["downloads/Q1 forecast.xlsx"], "Summary", "B3") == 3400000
    call(c, "download_file", item="/Pictures/Headshot.png", save_as="me.png")
    assert files.files["me.png"].startswith(b"\x89PNG")


def test_download_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="/Documents")
    assert "list-children" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="itm_headshot", as_text=True)
    assert err.value.parameter == "as_text"
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="itm_offsite_agenda", as_text=True, save_as="a.txt")
    assert err.value.parameter == "save_as"


def test_list_versions_newest_first():
    out = call(ctx(), "list_versions", item="itm_q1_budget")
    assert [(v["number"], v["modified_by"], v["current"]) for v in out["versions"]] == [
        (3, PRIYA, True),
        (2, USER, False),
        (1, USER, False),
    ]
    with pytest.raises(InvalidArgument):
        call(ctx(), "list_versions", item="itm_budgets")


# ---- folders and uploads ----------------------------------------------------------------------


def test_create_folder_by_parent_path():
    c = ctx()
    out = call(c, "create_folder", name="Travel", parent="/Documents")
    assert out["id"] == "itm_n1" and out["path"] == "/Documents/Travel" and out["parent_id"] == "itm_documents"
    rec = c.state.items["itm_n1"]
    assert rec.kind == "folder" and rec.owner == USER and rec.created == NOW
    assert [(p.email, p.role) for p in rec.permissions] == [(USER, "owner")]
    top = call(c, "create_folder", name="Scans")
    assert top["path"] == "/Scans" and top["parent_id"] == "root"


def test_create_folder_conflicts_and_rename():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="budgets", parent="itm_documents")
    assert err.value.parameter == "name" and "itm_budgets" in err.value.message
    out = call(c, "create_folder", name="Budgets", parent="itm_documents", conflict_behavior="rename")
    assert out["name"] == "Budgets 1"
    again = call(c, "create_folder", name="Budgets", parent="itm_documents", conflict_behavior="rename")
    assert again["name"] == "Budgets 2"


def test_create_folder_bad_input():
    c = ctx()
    for bad in ("a/b", "what?", "  ", "notes."):
        with pytest.raises(InvalidArgument) as err:
            call(c, "create_folder", name=bad)
        assert err.value.parameter == "name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="X", parent="/Desktop/Scratch notes.txt")
    assert err.value.parameter == "parent"


def test_upload_text_file():
    c = ctx()
    out = call(c, "upload_file", name="Venue call notes.md", folder="/Documents/Offsite 2026", content="# Call\n- ok\n")
    assert out["path"] == "/Documents/Offsite 2026/Venue call notes.md"
    assert out["mime_type"] == "text/markdown" and out["size"] == 12 and out["version"] == 1
    rec = c.state.items[out["id"]]
    assert c.blobs.get(rec.blob) == b"# Call\n- ok\n"
    assert rec.versions[0].blob == rec.blob


def test_upload_from_workspace_keeps_bytes_and_name():
    book = make_xlsx({"Sheet": [["a", "b"], [1, 2]]})
    files = MemoryFiles({"out/Forecast copy.xlsx": book})
    c = ctx(files)
    out = call(c, "upload_file", path="out/Forecast copy.xlsx", folder="itm_budgets")
    assert out["name"] == "Forecast copy.xlsx" and out["size"] == len(book)
    assert out["mime_type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert c.blobs.get(c.state.items[out["id"]].blob) == book


def test_upload_conflict_fail_replace_rename():
    files = MemoryFiles({"new.csv": b"Approver,Status\nAlex Morgan,Approved\n"})
    c = ctx(files)
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="new.csv", name="Contoso sign-off tracker.csv", folder="/Documents/Contoso")
    assert err.value.parameter == "name" and "replace" in err.value.message
    out = call(
        c,
        "upload_file",
        path="new.csv",
        name="Contoso sign-off tracker.csv",
        folder="/Documents/Contoso",
        conflict_behavior="replace",
    )
    assert out["id"] == "itm_contoso_signoff" and out["version"] == 2 and out["modified"] == NOW.isoformat()
    rec = c.state.items["itm_contoso_signoff"]
    assert c.blobs.get(rec.blob).startswith(b"Approver,Status") and len(rec.versions) == 2
    assert c.blobs.get(rec.versions[0].blob).startswith(b"Approver,Role,Status")
    kept = call(
        c,
        "upload_file",
        path="new.csv",
        name="Contoso sign-off tracker.csv",
        folder="/Documents/Contoso",
        conflict_behavior="rename",
    )
    assert kept["name"] == "Contoso sign-off tracker 1.csv" and kept["id"] != "itm_contoso_signoff"


def test_upload_new_version_of_shared_file_by_id():
    doc = make_docx("Atlas cutover checklist", ["Customer notice: Alex Morgan, 10:05"])
    c = ctx(MemoryFiles({"checklist.docx": doc}))
    out = call(c, "upload_file", item_id="itm_shared_cutover_checklist", path="checklist.docx")
    assert out["version"] == 2 and out["modified_by"] == USER and out["owner"] == "liam.chen@northwind.example"
    assert "10:05" in text_of(c, "itm_shared_cutover_checklist")
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", item_id="itm_shared_q1_forecast", path="checklist.docx")
    assert err.value.parameter == "item_id" and "read-only" in err.value.message


def test_upload_refuses_base64_and_data_uris():
    c = ctx()
    encoded = base64.b64encode(make_docx("x", ["y"])).decode()
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="notes.txt", content=encoded)
    assert err.value.parameter == "content" and "path=" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="a.png", content="data:image/png;base64,iVBORw0KGgo=")
    assert "data: URI" in err.value.message
    prose = "word " * 100
    assert call(c, "upload_file", name="prose.txt", content=prose)["size"] == len(prose)


def test_upload_input_errors():
    c = ctx(MemoryFiles({"a.csv": b"x\n"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="Plan.docx", content="Plan for the week")
    assert err.value.parameter == "content" and "path=" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="a.csv", content="x", path="a.csv")
    assert err.value.parameter == "content"
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="a.csv")
    assert err.value.parameter == "content"
    with pytest.raises(NotFound):
        call(c, "upload_file", path="missing.csv")
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "upload_file", path="a.csv")
    assert err.value.parameter == "path" and "no workspace" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", item_id="itm_contoso_signoff", name="x.csv", content="x")
    assert err.value.parameter == "item_id"
    with pytest.raises(Conflict):
        call(c, "upload_file", name="Budgets", folder="/Documents", content="x", conflict_behavior="replace")


# ---- copy, move, rename -----------------------------------------------------------------------


def test_copy_shared_read_only_file_into_own_folder():
    c = ctx()
    out = call(c, "copy_item", item="itm_shared_q1_forecast", destination="/Documents/Budgets")
    assert out["path"] == "/Documents/Budgets/Q1 forecast.xlsx" and out["copied"] == 1
    assert out["owner"] == USER and out["shared"] is False
    rec = c.state.items[out["id"]]
    assert rec.blob == c.state.items["itm_shared_q1_forecast"].blob and [v.number for v in rec.versions] == [1]


def test_copy_folder_with_contents():
    c = ctx()
    out = call(c, "copy_item", item="/Documents/Offsite 2026", destination="/Desktop", new_name="Offsite copy")
    assert out["copied"] == 5 and out["path"] == "/Desktop/Offsite copy"
    inside = call(c, "list_children", folder="/Desktop/Offsite copy")
    assert names(inside["results"]) == names(call(c, "list_children", folder="itm_offsite")["results"])
    copy = c.state.items[out["id"]]
    assert [p.email for p in copy.permissions] == [USER]


def test_copy_errors_and_rename_on_conflict():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "copy_item", item="itm_q1_budget", destination="itm_budgets")
    assert err.value.parameter == "new_name"
    out = call(c, "copy_item", item="itm_q1_budget", destination="itm_budgets", conflict_behavior="rename")
    assert out["name"] == "Q1 budget 1.xlsx"
    with pytest.raises(InvalidArgument) as err:
        call(c, "copy_item", item="itm_documents", destination="itm_budgets")
    assert err.value.parameter == "destination"


def test_move_item():
    c = ctx()
    out = call(c, "move_item", item="/Pictures/Screenshots/INC-3021 checkout error.png", destination="/Documents")
    assert out["path"] == "/Documents/INC-3021 checkout error.png" and out["parent_id"] == "itm_documents"
    assert c.state.items["itm_inc_3021_screenshot"].modified < NOW
    same = call(c, "move_item", item="itm_inc_3021_screenshot", destination="itm_documents")
    assert same["path"] == out["path"]


def test_move_item_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item="itm_shared_offsite_seating", destination="/Documents")
    assert "copy-item" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "move_item", item="itm_documents", destination="/Documents/Budgets")
    call(c, "upload_file", name="Attendees.csv", folder="/Desktop", content="a\n")
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item="itm_offsite_attendees", destination="/Desktop")
    assert err.value.parameter == "destination"


def test_rename_item():
    c = ctx()
    out = call(c, "rename_item", item="itm_q2_budget_draft", new_name="Q2 budget.xlsx")
    assert out["path"] == "/Documents/Budgets/Q2 budget.xlsx" and out["modified"] == NOW.isoformat()
    md = call(c, "rename_item", item="itm_scratch_notes", new_name="Scratch notes.md")
    assert md["mime_type"] == "text/markdown"
    shared = call(c, "rename_item", item="itm_shared_offsite_seating", new_name="Offsite seating v2.xlsx")
    assert shared["name"] == "Offsite seating v2.xlsx"


def test_rename_item_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "rename_item", item="itm_q2_budget_draft", new_name="q1 budget.xlsx")
    assert err.value.parameter == "new_name"
    with pytest.raises(Conflict) as err:
        call(c, "rename_item", item="itm_shared_contoso_negotiation", new_name="x.docx")
    assert "isabella.rossi" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "rename_item", item="itm_todo", new_name="a:b.md")


# ---- recycle bin and versions -----------------------------------------------------------------


def test_delete_folder_then_restore_it():
    c = ctx()
    out = call(c, "delete_item", item="/Documents/Hiring")
    assert out["count"] == 4 and out["deleted"][0] == "itm_hiring"
    assert c.state.items["itm_notes_marco_bianchi"].deleted_with == "itm_hiring"
    assert "Hiring" not in names(call(c, "list_children", folder="/Documents")["results"])
    assert call(c, "search_items", query="Marco Bianchi", include_shared=False)["total"] == 0
    bin_rows = call(c, "list_recycle_bin")["results"]
    assert (bin_rows[0]["id"], bin_rows[0]["items"], bin_rows[0]["original_path"]) == (
        "itm_hiring",
        4,
        "/Documents/Hiring",
    )
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="itm_notes_marco_bianchi")
    assert "itm_hiring" in err.value.message
    back = call(c, "restore_item", item_id="itm_hiring")
    assert back["restored"] == 4 and back["path"] == "/Documents/Hiring"
    assert all(c.state.items[i].deleted is None for i in out["deleted"])


def test_restore_keeps_items_deleted_earlier_in_the_bin():
    c = ctx()
    call(c, "delete_item", item="itm_budgets")
    call(c, "restore_item", item_id="itm_budgets")
    assert c.state.items["itm_q1_budget_old"].deleted is not None
    out = call(c, "restore_item", item_id="itm_q1_budget_old")
    assert out["path"] == "/Documents/Budgets/Q1 budget draft (old).xlsx" and out["restored"] == 1


def test_restore_item_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="itm_q1_budget")
    assert "not in the recycle bin" in err.value.message
    with pytest.raises(Conflict):
        call(c, "restore_item", item_id="itm_old_shot_1")
    call(c, "create_folder", name="Untitled document.docx", parent="/Desktop")
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="itm_untitled")
    assert "now holds that name" in err.value.message
    with pytest.raises(NotFound):
        call(c, "restore_item", item_id="itm_missing")


def test_delete_refuses_shared_files():
    with pytest.raises(Conflict) as err:
        call(ctx(), "delete_item", item="itm_shared_q1_forecast")
    assert "remove-permission" in err.value.message


def test_restore_version_adds_a_new_version():
    c = ctx()
    out = call(c, "restore_version", item="itm_q1_budget", version=2)
    rec = c.state.items["itm_q1_budget"]
    assert out["version"] == 4 and rec.blob == rec.versions[1].blob and rec.modified_by == USER
    assert read_cell(c.blobs.get(rec.blob), "Q1 2026", "D5") == 58900
    with pytest.raises(Conflict):
        call(c, "restore_version", item="itm_q1_budget", version=4)
    with pytest.raises(InvalidArgument) as err:
        call(c, "restore_version", item="itm_q1_budget", version=9)
    assert err.value.parameter == "version" and "1, 2, 3, 4" in err.value.message
    with pytest.raises(Conflict):
        call(c, "restore_version", item="itm_shared_q1_forecast", version=1)


# ---- sharing ----------------------------------------------------------------------------------


def test_list_shared_with_me():
    out = call(ctx(), "list_shared_with_me")
    assert [(r["name"], r["your_access"]) for r in out["results"]] == [
        ("Offsite seating.xlsx", "write"),
        ("Q1 forecast.xlsx", "read"),
        ("REQ-1045 interview scorecards.xlsx", "read"),
        ("Atlas cutover checklist.docx", "write"),
        ("Contoso negotiation notes.docx", "read"),
        ("Exec staff agenda template.docx", "write"),
    ]
    assert out["results"][0]["owner"] == RUBY and "path" not in out["results"][0]


def test_list_permissions_direct_inherited_and_links():
    out = call(ctx(), "list_permissions", item="/Documents/Offsite 2026/Lakeside Lodge contract NWT-4471.pdf")
    assert [p["email"] for p in out["permissions"]] == [USER]
    assert out["inherited"] == [
        {"email": AMELIA, "role": "write", "from_folder_id": "itm_offsite", "from_folder": "Offsite 2026"}
    ]
    assert [(lnk["id"], lnk["status"]) for lnk in out["links"]] == [
        ("lnk_lodge_contract_public", "expired"),
        ("lnk_lodge_contract_org", "active"),
    ]


def test_grant_access_adds_and_changes_roles():
    c = ctx()
    out = call(
        c,
        "grant_access",
        item="itm_contoso_pricing",
        recipients=["Isaac King", "maya.young@northwind.example"],
        role="write",
    )
    assert out["added"] == ["isaac.king@northwind.example"] and out["changed"] == ["maya.young@northwind.example"]
    roles = {p.email: p.role for p in c.state.items["itm_contoso_pricing"].permissions}
    assert roles == {
        USER: "owner",
        "isabella.rossi@northwind.example": "write",
        "maya.young@northwind.example": "write",
        "isaac.king@northwind.example": "write",
    }
    again = call(
        c, "grant_access", item="itm_contoso_pricing", recipients=["isaac.king@northwind.example"], role="write"
    )
    assert again["unchanged"] == ["isaac.king@northwind.example"] and again["added"] == []
    ext = call(c, "grant_access", item="itm_contoso_term_sheet", recipients=["legal@contoso.example"])
    assert ext["added"] == ["legal@contoso.example"] and ext["role"] == "read"


def test_grant_access_errors():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=["nobody@northwind.example"])
    assert err.value.parameter == "recipients"
    with pytest.raises(Conflict) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=[USER])
    assert "owns" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "grant_access", item="itm_shared_q1_forecast", recipients=[RUBY])
    assert err.value.parameter == "item"
    with pytest.raises(InvalidArgument) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=[" "])
    assert err.value.parameter == "recipients"
    with pytest.raises(InvalidArgument) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=[RUBY], role="owner")
    assert err.value.parameter == "role"


def test_grant_access_without_directory_needs_addresses():
    c = ctx(directory=False)
    out = call(c, "grant_access", item="itm_todo", recipients=["new.hire@northwind.example"])
    assert out["added"] == ["new.hire@northwind.example"]
    with pytest.raises(InvalidArgument):
        call(c, "grant_access", item="itm_todo", recipients=["Isaac King"])


def test_remove_permission():
    c = ctx()
    out = call(c, "remove_permission", item="itm_contoso_pricing", email="Maya.Young@northwind.example")
    assert out["removed"] == "maya.young@northwind.example"
    assert [p["email"] for p in out["permissions"]] == [USER, "isabella.rossi@northwind.example"]


def test_remove_own_access_leaves_shared_list():
    c = ctx()
    call(c, "remove_permission", item="itm_shared_q1_forecast", email=USER)
    assert "Q1 forecast.xlsx" not in names(call(c, "list_shared_with_me")["results"])
    with pytest.raises(NotFound):
        call(c, "get_item", item="itm_shared_q1_forecast")


def test_remove_permission_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", item="itm_offsite_agenda", email=AMELIA)
    assert "itm_offsite" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", item="itm_todo", email=USER)
    assert "owner" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "remove_permission", item="itm_todo", email=RUBY)
    assert err.value.parameter == "email"
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", item="itm_shared_q1_forecast", email="grace.kim@northwind.example")
    assert err.value.parameter == "item"


def test_create_sharing_link_with_expiry_and_reuse():
    c = ctx()
    out = call(c, "create_sharing_link", item="/Documents/Offsite 2026/Offsite budget.xlsx", expires="2026-03-31")
    assert (out["type"], out["scope"], out["expires"], out["status"]) == (
        "view",
        "organization",
        "2026-03-31",
        "active",
    )
    assert out["url"] == "https://onedrive.northwind.example/s/lnk_n1" and out["already_existed"] is False
    rec = c.state.links["lnk_n1"]
    assert rec.item_id == "itm_offsite_budget" and rec.expires == date(2026, 3, 31) and rec.created_by == USER
    same = call(c, "create_sharing_link", item="itm_offsite_budget", expires="2026-03-31")
    assert same["id"] == "lnk_n1" and same["already_existed"] is True and len(c.state.links) == 7


def test_create_sharing_link_for_specific_people():
    c = ctx()
    out = call(
        c, "create_sharing_link", item="itm_lodge_contract", scope="specific_people", recipients=["Victor Alvarez"]
    )
    assert out["recipients"] == ["victor.alvarez@northwind.example"] and out["expires"] is None
    edit = call(c, "create_sharing_link", item="itm_shared_offsite_seating", type="edit")
    assert edit["type"] == "edit" and c.state.links[edit["id"]].item_id == "itm_shared_offsite_seating"


def test_create_sharing_link_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", scope="specific_people")
    assert err.value.parameter == "recipients"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", scope="anyone", recipients=[RUBY])
    assert err.value.parameter == "recipients"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", expires="2026-03-08")
    assert err.value.parameter == "expires" and "past" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", expires="next friday")
    assert err.value.parameter == "expires"
    with pytest.raises(Conflict):
        call(c, "create_sharing_link", item="itm_shared_q1_forecast")
    with pytest.raises(Conflict) as err:
        call(c, "create_sharing_link", item="itm_shared_offsite_seating", type="edit", scope="anyone")
    assert err.value.parameter == "scope"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", scope="public")
    assert err.value.parameter == "scope"


def test_list_sharing_links_shows_expired():
    out = call(ctx(), "list_sharing_links", item="itm_contoso_term_sheet")
    assert [(lnk["recipients"], lnk["expires"], lnk["status"]) for lnk in out["links"]] == [
        (["procurement@contoso.example"], "2026-03-31", "active")
    ]


def test_revoke_sharing_link_by_id_or_url():
    c = ctx()
    out = call(c, "revoke_sharing_link", link="lnk_lodge_contract_public")
    assert out["revoked"] == "lnk_lodge_contract_public"
    assert [lnk["id"] for lnk in out["remaining"]] == ["lnk_lodge_contract_org"]
    assert "lnk_lodge_contract_public" not in c.state.links
    call(c, "revoke_sharing_link", link="https://onedrive.northwind.example/s/lnk_q1_budget_org")
    assert "lnk_q1_budget_org" not in c.state.links
    with pytest.raises(NotFound) as err:
        call(c, "revoke_sharing_link", link="lnk_q1_budget_org")
    assert err.value.parameter == "link"


# ---- failed writes change nothing --------------------------------------------------------------

FAILING_WRITES = [
    ("create_folder", {"name": "Budgets", "parent": "/Documents"}),
    ("create_folder", {"name": "x", "parent": "/Nope"}),
    ("upload_file", {"name": "a.csv", "folder": "/Documents", "content": "x", "path": "y"}),
    ("upload_file", {"name": "Attendees.csv", "folder": "itm_offsite", "content": "x"}),
    ("upload_file", {"name": "a.docx", "content": "x"}),
    ("upload_file", {"item_id": "itm_shared_q1_forecast", "content": "x"}),
    ("upload_file", {"name": "a.txt", "content": "data:text/plain;base64,aGVsbG8="}),
    ("copy_item", {"item": "itm_documents", "destination": "itm_atlas"}),
    ("copy_item", {"item": "itm_q1_budget", "destination": "itm_budgets"}),
    ("move_item", {"item": "itm_shared_offsite_seating", "destination": "/"}),
    ("move_item", {"item": "itm_documents", "destination": "itm_hiring"}),
    ("rename_item", {"item": "itm_q1_budget", "new_name": "Q2 budget draft.xlsx"}),
    ("rename_item", {"item": "itm_shared_q1_forecast", "new_name": "x.xlsx"}),
    ("delete_item", {"item": "itm_shared_exec_agenda"}),
    ("restore_item", {"item_id": "itm_old_shot_2"}),
    ("restore_version", {"item": "itm_q1_budget", "version": 3}),
    ("grant_access", {"item": "itm_todo", "recipients": [RUBY, "ghost@northwind.example"]}),
    ("grant_access", {"item": "itm_shared_q1_forecast", "recipients": [RUBY]}),
    ("remove_permission", {"item": "itm_offsite_budget", "email": AMELIA}),
    ("create_sharing_link", {"item": "itm_todo", "expires": "2026-01-01"}),
    ("create_sharing_link", {"item": "itm_todo", "scope": "specific_people", "recipients": ["Nobody Here"]}),
    ("revoke_sharing_link", {"link": "lnk_missing"}),
]


@pytest.mark.parametrize(("action", "args"), FAILING_WRITES)
def test_failed_write_leaves_world_unchanged(action, args):
    c = ctx(MemoryFiles({"y": b"z"}))
    before = c.world.snapshot()
    with pytest.raises((InvalidArgument, Conflict)):
        call(c, action, **args)
    assert c.world.snapshot() == before
