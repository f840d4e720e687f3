import re
from datetime import datetime

import pytest

from tests.conftest import MemoryFiles, make_world
from tools import drive
from tools.drive import DriveState
from tools.fixtures import NOW, USER
from tools.fixtures.files import build
from tools.fixtures.people import people_records
from tools.fixtures.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import extract_text, make_xlsx, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def ctx(files=None):
    world = make_world({"drive": DriveState.model_validate(build(people_records(), NOW, USER))})
    world.blobs = BlobStore(BLOBS)
    return Context(world, "drive", files)


def call(c, action, /, **args):
    return drive.app.actions[action].invoke(c, args)


def names(results):
    return [r["name"] for r in results]


def content(c, file_id):
    return c.blobs.get(c.state.files[file_id].blob)


# ---- fixture ----------------------------------------------------------------------------------


def test_fixture_counts_and_shape():
    state = DriveState.model_validate(build(people_records(), NOW, USER))
    files = state.files
    assert len(files) == 113
    assert sum(f.kind == "folder" for f in files.values()) == 28
    assert sum(f.owner == USER for f in files.values()) == 15
    assert sum(bool(f.drive_id) for f in files.values()) == 15
    assert {f.name for f in files.values() if f.trashed} == {"Q4 2025 budget draft.csv", "Untitled document.txt"}
    assert set(state.shared_drives) == {"sd_company_policies", "sd_atlas_program", "sd_sales_enablement"}
    assert len(state.comments) == 7
    for f in files.values():
        assert f.parent_id == "root" or f.parent_id in state.shared_drives or files[f.parent_id].kind == "folder"
        if f.parent_id in files:
            assert files[f.parent_id].drive_id == f.drive_id
        if not f.drive_id:
            assert f.permissions[0].email == f.owner and f.permissions[0].role == "owner"
        assert f.created <= f.modified < NOW
        assert (f.kind == "file") == bool(f.blob)
        if f.blob:
            assert f.size == len(BLOBS[f.blob]) > 0
        for n, v in enumerate(f.versions, start=1):
            assert v.number == n and v.modified <= f.modified and len(BLOBS[v.blob]) == v.size


def test_fixture_holds_real_documents():
    state = DriveState.model_validate(build(people_records(), NOW, USER))
    kinds = {f.name.rsplit(".", 1)[-1] for f in state.files.values() if f.kind == "file"}
    assert {"docx", "xlsx", "pdf", "png", "csv", "md", "txt"} <= kinds
    q1 = BLOBS[state.files["file_q1_budget"].blob]
    assert state.files["file_q1_budget"].name == "Q1 budget.xlsx" and state.files["file_q1_budget"].mime_type == XLSX
    assert read_cell(q1, "Engineering", "B2") == 186000
    assert read_cell(q1, "Marketing", "D2") == -13250
    assert read_cell(q1, "Summary", "A9") == "Total"
    contract = extract_text(BLOBS[state.files["file_lakeside_lodge_contract_signed"].blob])
    assert "NWT-4471" in contract and "Free cancellation until Monday March 23, 2026" in contract
    assert BLOBS[state.files["file_leadership_offsite_2025_team_photo"].blob].startswith(b"\x89PNG")
    pricing = state.files["file_contoso_renewal_pricing"]
    assert [read_cell(BLOBS[v.blob], "Pricing", "C2") for v in pricing.versions] == [453600, 444960]
    assert read_cell(BLOBS[pricing.blob], "Pricing", "C2") == 432000
    assert pricing.modified_by == "benjamin.clark@northwind.example"


def test_fixture_comment_quotes_appear_in_their_files():
    state = DriveState.model_validate(build(people_records(), NOW, USER))
    for cmt in state.comments.values():
        text = " ".join(extract_text(BLOBS[state.files[cmt.file_id].blob], state.files[cmt.file_id].name).split())
        assert cmt.quote.lower() in text.lower(), cmt.id
        assert all(r.created >= cmt.created for r in cmt.replies)


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_fixture_and_app_avoid_internal_words():
    data = build(people_records(), NOW, USER)
    blob = repr(data).lower()
    blob += " ".join(extract_text(BLOBS[f["blob"]], f["name"]) for f in data["files"].values() if f["blob"]).lower()
    blob += " ".join(a.description + str(a.input_schema) for a in drive.app.actions.values()).lower()
    blob += drive.app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, blob) == []
    assert re.findall(r"\brl\b", blob) == []


# ---- search_files -----------------------------------------------------------------------------


def test_search_files_by_name_type_and_folder():
    out = call(ctx(), "search_files", query="budget", mime_type="csv", folder_id="fld_finance")
    assert names(out["results"]) == ["Q2 budget draft.csv"]
    assert out["results"][0]["owner"] == "grace.kim@northwind.example"
    assert out["results"][0]["parent_id"] == "fld_budgets"
    books = call(ctx(), "search_files", query="budget", mime_type="spreadsheet")
    assert names(books["results"]) == ["Q1 budget.xlsx"]


def test_search_files_matches_content_words_in_any_order():
    out = call(ctx(), "search_files", query="fabrikam INV-20417")
    assert names(out["results"]) == ["Vendor invoices - February.csv"]


def test_search_files_reads_inside_documents():
    c = ctx()
    assert names(call(c, "search_files", query="Claire Donovan")["results"]) == ["Lakeside Lodge contract (signed).pdf"]
    assert names(call(c, "search_files", query="453600")["results"]) == []  # only in an earlier version
    assert names(call(c, "search_files", query="lender call")["results"]) == []  # comments are not file text
    hits = names(call(c, "search_files", query="leadership offsite", mime_type="sheet")["results"])
    assert hits == ["Q1 budget.xlsx"]
    assert names(call(c, "search_files", query="15 days of paid time off")["results"]) == [
        "Employee handbook 2026.docx"
    ]


def test_search_files_newest_first_and_pages():
    c = ctx()
    everything = call(c, "search_files", page_size=100)["results"]
    stamps = [datetime.fromisoformat(r["modified"]) for r in everything]
    assert stamps == sorted(stamps, reverse=True)
    assert everything[0]["name"] == "Chief of staff weekly priorities.md"
    second = call(c, "search_files", page=2, page_size=10)
    assert second["results"] == everything[10:20]
    assert second["total"] == 111 and second["next_page"] == 3


def test_search_files_leaves_out_trash_unless_asked():
    c = ctx()
    assert call(c, "search_files", query="Q4 2025 budget draft")["total"] == 0
    out = call(c, "search_files", query="Q4 2025 budget draft", include_trashed=True)
    assert names(out["results"]) == ["Q4 2025 budget draft.csv"]
    assert out["results"][0]["trashed"] is True


def test_search_files_by_owner_kind_and_shared_drive():
    c = ctx()
    mine = call(c, "search_files", owner="me", kind="folder")
    assert sorted(names(mine["results"])) == ["Archive", "Offsite 2026", "Shared"]
    theirs = call(c, "search_files", owner="maya.young", kind="file")
    assert sorted(names(theirs["results"])) == [
        "Contoso renewal notes.md",
        "Vendor list.csv",
        "Vendor onboarding form.txt",
    ]
    atlas = call(c, "search_files", folder_id="sd_atlas_program", kind="file")
    assert sorted(names(atlas["results"])) == [
        "Atlas cost tracker.xlsx",
        "Atlas cutover runbook v1.2.pdf",
        "Atlas program charter.docx",
        "Load test checklist - March 20.md",
    ]
    assert {r["shared_drive_id"] for r in atlas["results"]} == {"sd_atlas_program"}


def test_search_files_bad_folder():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "search_files", folder_id="fld_nope")
    assert err.value.parameter == "folder_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_files", folder_id="file_q1_budget")
    assert err.value.parameter == "folder_id" and "not a folder" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_files", kind="document")
    assert err.value.parameter == "kind"


# ---- list_folder / get_file / read_file / download_file / list_permissions --------------------


def test_list_folder_root_folders_first_then_files_without_trash():
    out = call(ctx(), "list_folder")
    assert out["folder"] == {"id": "root", "name": "My Drive", "path": "/", "shared_drive_id": None}
    assert names(out["results"]) == [
        "Archive",
        "Engineering",
        "Finance",
        "Marketing",
        "Operations",
        "People",
        "Shared",
        "1-1 notes - Dana.md",
        "Chief of staff weekly priorities.md",
        "Contoso renewal proposal.docx",
        "Customer health scores.csv",
        "NDA template.docx",
        "Reading list.txt",
        "Sales pipeline Q1.csv",
    ]


def test_list_folder_subfolder_and_paging():
    out = call(ctx(), "list_folder", folder_id="fld_finance", page_size=4)
    assert out["folder"]["path"] == "/Finance"
    assert names(out["results"]) == ["Budgets", "Forecasts", "Invoices", "Audit prep checklist.md"]
    assert out["total"] == 5 and out["next_page"] == 2


def test_list_folder_shared_drive_top_and_subfolder():
    c = ctx()
    top = call(c, "list_folder", folder_id="sd_company_policies")
    assert top["folder"] == {
        "id": "sd_company_policies",
        "name": "Company Policies",
        "path": "/Shared drives/Company Policies",
        "shared_drive_id": "sd_company_policies",
    }
    assert names(top["results"]) == [
        "Retired policies",
        "Employee handbook 2026.docx",
        "Holiday calendar 2026.csv",
        "Information security policy (signed).pdf",
        "Travel and expense policy 2026.pdf",
    ]
    inner = call(c, "list_folder", folder_id="fld_retired_policies")
    assert inner["folder"]["path"] == "/Shared drives/Company Policies/Retired policies"
    assert names(inner["results"]) == ["Remote work policy 2023.pdf"]


def test_list_folder_errors():
    c = ctx()
    with pytest.raises(NotFound):
        call(c, "list_folder", folder_id="fld_missing")
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_folder", folder_id="file_vendor_list")
    assert err.value.parameter == "folder_id"
    c.state.shared_drives["sd_atlas_program"].members = c.state.shared_drives["sd_atlas_program"].members[:2]
    with pytest.raises(NotFound) as err:
        call(c, "list_folder", folder_id="sd_atlas_program")
    assert "list-shared-drives" in err.value.message
    with pytest.raises(NotFound):
        call(c, "get_file", file_id="file_atlas_cost_tracker")


def test_get_file_shows_path_version_and_inherited_access():
    out = call(ctx(), "get_file", file_id="file_q1_budget")
    assert out["path"] == "/Finance/Budgets/Q1 budget.xlsx"
    assert out["owner"] == "priya.shah@northwind.example"
    assert out["mime_type"] == XLSX
    assert out["permissions"] == [{"email": "priya.shah@northwind.example", "role": "owner"}]
    assert {"email": USER, "role": "writer", "from_folder_id": "fld_finance"} in out["inherited_permissions"]
    assert out["your_access"] == "writer"
    assert out["modified"].endswith("-05:00")
    assert out["version"] == 1 and out["shared_drive"] is None
    assert "blob" not in out and "content" not in out


def test_get_file_in_shared_drive():
    out = call(ctx(), "get_file", file_id="file_atlas_cutover_runbook_v1_2")
    assert out["path"] == "/Shared drives/Atlas Program/Atlas cutover runbook v1.2.pdf"
    assert out["shared_drive"] == {"id": "sd_atlas_program", "name": "Atlas Program"}
    assert out["permissions"] == []
    assert {"email": USER, "role": "writer", "from_shared_drive_id": "sd_atlas_program"} in out["inherited_permissions"]
    assert out["open_comments"] == 1


def test_get_file_access_levels():
    c = ctx()
    assert call(c, "get_file", file_id="file_engineering_leads_notes_2026_03_05")["your_access"] == "commenter"
    assert call(c, "get_file", file_id="file_atlas_migration_plan")["your_access"] == "writer"
    assert call(c, "get_file", file_id="file_nda_template")["your_access"] == "reader"
    assert call(c, "get_file", file_id="file_reading_list")["your_access"] == "owner"
    assert call(c, "get_file", file_id="file_board_deck_outline_q1_2026")["your_access"] == "writer"
    assert call(c, "get_file", file_id="file_employee_handbook_2026")["your_access"] == "commenter"
    assert call(c, "get_file", file_id="file_price_list_2026")["your_access"] == "writer"


def test_get_file_unknown_id():
    with pytest.raises(NotFound) as err:
        call(ctx(), "get_file", file_id="file_nope")
    assert err.value.parameter == "file_id" and "search-files" in err.value.message


def test_read_file_inline_without_workspace():
    out = call(ctx(), "read_file", file_id="file_vendor_list")
    assert out["name"] == "Vendor list.csv" and out["converted"] is False
    assert out["content"].startswith("Vendor,Category,Contact")
    assert "Contoso Ltd,Warehouse software partner" in out["content"]
    assert out["size"] == len(out["content"].encode())


def test_read_file_converts_documents_to_text():
    c = ctx()
    book = call(c, "read_file", file_id="file_q1_budget")
    assert book["converted"] is True
    assert "## Sheet: Engineering\nCategory\tQ1 budget (USD)" in book["content"]
    assert "Cloud hosting\t186000\t131400\t54600" in book["content"]
    doc = call(c, "read_file", file_id="file_contoso_renewal_proposal")
    assert "Annual fee: $444,960" in doc["content"]
    pdf = call(c, "read_file", file_id="file_lakeside_lodge_contract_signed")
    assert "From Tuesday March 24, 2026: 50% of the total price ($19,250) is due." in pdf["content"]
    with pytest.raises(InvalidArgument) as err:
        call(c, "read_file", file_id="file_leadership_offsite_2025_team_photo")
    assert err.value.parameter == "file_id" and "download-file" in err.value.message


def test_read_file_saves_into_workspace():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "read_file", file_id="file_remote_work_policy")
    assert out["saved_to"] == "downloads/Remote work policy.md"
    assert "content" not in out
    assert b"$600 per calendar year" in files.files["downloads/Remote work policy.md"]
    again = call(c, "read_file", file_id="file_q2_budget_draft", save_as="work/q2.csv")
    assert again["saved_to"] == "work/q2.csv"
    assert files.files["work/q2.csv"].startswith(b"Department,Category")
    text = call(c, "read_file", file_id="file_q1_budget")
    assert text["saved_to"] == "downloads/Q1 budget.txt"
    assert files.files["downloads/Q1 budget.txt"].startswith(b"## Sheet: Summary")


def test_read_file_refuses_folders():
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "read_file", file_id="fld_budgets")
    assert err.value.parameter == "file_id" and "list-folder" in err.value.message


def test_download_file_saves_exact_bytes():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "download_file", file_id="file_q1_budget", save_as="finance/q1.xlsx")
    assert out == {
        "id": "file_q1_budget",
        "name": "Q1 budget.xlsx",
        "mime_type": XLSX,
        "version": 1,
        "saved_to": "finance/q1.xlsx",
        "size": len(content(c, "file_q1_budget")),
    }
    assert files.files["finance/q1.xlsx"] == content(c, "file_q1_budget")
    assert read_cell(files.files["finance/q1.xlsx"], "Engineering", "C2") == 131400
    photo = call(c, "download_file", file_id="file_leadership_offsite_2025_team_photo")
    assert photo["saved_to"] == "downloads/Leadership offsite 2025 - team photo.png"
    assert files.files[photo["saved_to"]].startswith(b"\x89PNG")


def test_download_file_without_workspace():
    c = ctx()
    assert call(c, "download_file", file_id="file_reading_list")["content"].startswith("Reading list")
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", file_id="file_q1_budget")
    assert err.value.parameter == "file_id" and "read-file" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "download_file", file_id="fld_finance")


def test_list_permissions_direct_and_inherited():
    out = call(ctx(), "list_permissions", file_id="file_contoso_renewal_notes")
    assert out["owner"] == "maya.young@northwind.example"
    assert [p["email"] for p in out["permissions"]] == [
        "maya.young@northwind.example",
        "isaac.king@northwind.example",
        "marcus.reed@northwind.example",
    ]
    inherited = {(p["email"], p["from_folder_id"]) for p in out["inherited_permissions"]}
    assert ("tomas.rivera@northwind.example", "fld_vendors") in inherited
    assert (USER, "fld_operations") in inherited
    assert ("victor.alvarez@northwind.example", "fld_operations") in inherited


def test_list_shared_drives():
    out = call(ctx(), "list_shared_drives")
    assert [(d["id"], d["your_role"], d["items"]) for d in out["results"]] == [
        ("sd_atlas_program", "content_manager", 5),
        ("sd_company_policies", "commenter", 6),
        ("sd_sales_enablement", "contributor", 4),
    ]
    assert {"email": "james.okafor@northwind.example", "role": "manager"} in out["results"][2]["members"]
    assert names(call(ctx(), "list_shared_drives", query="sales")["results"]) == ["Sales Enablement"]


# ---- create / upload / update / copy ----------------------------------------------------------


def test_create_folder_in_root_folder_and_shared_drive():
    c = ctx()
    top = call(c, "create_folder", name="Planning")
    assert top["id"] == "fld_n1" and top["path"] == "/Planning" and top["owner"] == USER
    assert top["kind"] == "folder"
    inner = call(c, "create_folder", name="Vendor quotes", parent_id="fld_operations")
    assert inner["path"] == "/Operations/Vendor quotes"
    assert c.state.files[inner["id"]].created == NOW
    assert "Vendor quotes" in names(call(c, "list_folder", folder_id="fld_operations")["results"])
    sd = call(c, "create_folder", name="Cutover day", parent_id="sd_atlas_program")
    assert sd["path"] == "/Shared drives/Atlas Program/Cutover day" and sd["permissions"] == []
    assert c.state.files[sd["id"]].drive_id == "sd_atlas_program"


def test_create_folder_duplicate_name_conflicts():
    with pytest.raises(Conflict) as err:
        call(ctx(), "create_folder", name="  finance ")
    assert err.value.parameter == "name" and "fld_finance" in err.value.message


def test_create_folder_bad_parent_and_name():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="a/b")
    assert err.value.parameter == "name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="  ")
    assert err.value.parameter == "name"
    with pytest.raises(NotFound) as err:
        call(c, "create_folder", name="X", parent_id="fld_nope")
    assert err.value.parameter == "parent_id"
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="X", parent_id="fld_engineering")
    assert "commenter access" in err.value.message and "elena.petrova" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="X", parent_id="sd_company_policies")
    assert "commenter of shared drive 'Company Policies'" in err.value.message
    assert "nora.patel@northwind.example" in err.value.message


def test_create_file_from_text():
    c = ctx()
    out = call(
        c, "create_file", name="Offsite packing list.md", parent_id="fld_offsite_2026", content="# Pack\n- boots\n"
    )
    assert out["mime_type"] == "text/markdown"
    assert out["path"] == "/Shared/Offsite 2026/Offsite packing list.md"
    assert out["size"] == 15 and out["version"] == 1
    rec = c.state.files[out["id"]]
    assert rec.blob.startswith("sha256:") and c.blobs.get(rec.blob) == b"# Pack\n- boots\n"
    assert call(c, "read_file", file_id=out["id"])["content"] == "# Pack\n- boots\n"
    plain = call(c, "create_file", name="notes", content="hello")
    assert plain["mime_type"] == "text/plain" and plain["parent_id"] == "root"


def test_create_file_from_workspace_any_type():
    book = make_xlsx({"Q2": [["Line", "USD"], ["Travel", 40000]]})
    files = MemoryFiles({"out/summary.csv": b"a,b\n1,2\n", "out/q2.xlsx": book})
    c = ctx(files)
    out = call(c, "create_file", name="Summary.csv", parent_id="fld_budgets", path="out/summary.csv")
    assert out["mime_type"] == "text/csv" and out["size"] == 8
    assert content(c, out["id"]) == b"a,b\n1,2\n"
    wb = call(c, "create_file", name="Q2 lines.xlsx", parent_id="fld_budgets", path="out/q2.xlsx")
    assert wb["mime_type"] == XLSX and read_cell(content(c, wb["id"]), "Q2", "B2") == 40000


def test_create_file_input_errors():
    c = ctx(MemoryFiles({"bin.dat": b"\xff\xfe\x00"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt", content="x", path="bin.dat")
    assert err.value.parameter == "content"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt")
    assert err.value.parameter == "content"
    with pytest.raises(NotFound):
        call(c, "create_file", name="a.txt", path="missing.txt")
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "create_file", name="a.txt", path="x.txt")
    assert err.value.parameter == "path" and "no workspace" in err.value.message
    with pytest.raises(Conflict):
        call(c, "create_file", name="Vendor list.csv", parent_id="fld_vendors", content="x")
    with pytest.raises(Conflict) as err:
        call(c, "create_file", name="a.txt", parent_id="fld_architecture", content="x")
    assert err.value.parameter == "parent_id" and "commenter access" in err.value.message


@pytest.mark.parametrize(
    "pasted",
    [
        "data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K",
        "UEsDBBQABgAIAAAAIQBi7p1oXgEAAJAEAAATAAgCW0NvbnRlbnRfVHlwZXNdLnhtbCCiBAIooAACAAAAAAAAAAAAAAAA\n"
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ],
)
def test_pasted_base64_is_refused(pasted):
    c = ctx()
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="Q1.xlsx", content=pasted)
    assert err.value.parameter == "content" and "path=" in err.value.message and "workspace" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_file", file_id="file_reading_list", content=pasted)
    assert err.value.parameter == "content" and "drive update-file" in err.value.message
    assert c.world.snapshot() == before
    # ordinary text that happens to be long is fine
    assert call(c, "create_file", name="ok.txt", content="word " * 40)["size"] == 200


def test_upload_file_new_and_into_shared_drive():
    files = MemoryFiles({"downloads/INV-20417.txt": b"Invoice INV-20417\nTotal: $12,480.00\n"})
    c = ctx(files)
    out = call(c, "upload_file", path="downloads/INV-20417.txt", parent_id="fld_invoices")
    assert out["result"] == "created" and out["name"] == "INV-20417.txt"
    assert out["path"] == "/Finance/Invoices/INV-20417.txt" and out["mime_type"] == "text/plain"
    assert content(c, out["id"]) == files.files["downloads/INV-20417.txt"]
    sd = call(c, "upload_file", path="downloads/INV-20417.txt", parent_id="sd_atlas_program", name="Invoice copy.txt")
    assert sd["shared_drive"] == {"id": "sd_atlas_program", "name": "Atlas Program"}
    assert c.state.files[sd["id"]].permissions == []


def test_upload_file_conflict_modes():
    files = MemoryFiles({"q2.csv": b"Department,Category,Q2 proposed (USD)\nEngineering,Contractors,45000\n"})
    c = ctx(files)
    before = c.world.snapshot()
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv")
    assert err.value.parameter == "conflict" and "conflict=replace" in err.value.message
    assert c.world.snapshot() == before
    old_blob = c.state.files["file_q2_budget_draft"].blob
    out = call(c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv", conflict="replace")
    assert out["result"] == "replaced" and out["id"] == "file_q2_budget_draft" and out["version"] == 3
    f = c.state.files["file_q2_budget_draft"]
    assert content(c, f.id) == files.files["q2.csv"] and f.modified == NOW and f.modified_by == USER
    assert [v.number for v in f.versions] == [1, 2] and f.versions[-1].blob == old_blob
    both = call(
        c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv", conflict="keep_both"
    )
    assert both["result"] == "kept_both" and both["name"] == "Q2 budget draft (1).csv"
    again = call(
        c, "upload_file", path="q2.csv", parent_id="fld_budgets", name="Q2 budget draft.csv", conflict="keep_both"
    )
    assert again["name"] == "Q2 budget draft (2).csv"


def test_upload_file_errors():
    c = ctx(MemoryFiles({"a.txt": b"x"}))
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "upload_file", path="a.txt")
    assert err.value.parameter == "path" and "create-file" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "upload_file", path="missing.txt")
    assert err.value.parameter == "path"
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", path="a.txt", conflict="overwrite")
    assert err.value.parameter == "conflict"
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="a.txt", parent_id="sd_company_policies")
    assert err.value.parameter == "parent_id"
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="a.txt", parent_id="fld_shared", name="Board", conflict="replace")
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="a.txt", parent_id="root", name="NDA template.docx", conflict="replace")
    assert "reader access" in err.value.message


def test_update_file_keeps_a_version():
    c = ctx()
    out = call(c, "update_file", file_id="file_reading_list", content="Reading list\n- Range - David Epstein\n")
    assert out["version"] == 2 and out["size"] == 37
    assert content(c, "file_reading_list") == b"Reading list\n- Range - David Epstein\n"
    history = call(c, "list_versions", file_id="file_reading_list")
    assert [v["version"] for v in history["versions"]] == [2, 1]
    assert history["versions"][1]["modified_by"] == USER and history["versions"][0]["current"] is True


def test_update_file_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_file", file_id="file_q1_budget", content="a,b")
    assert err.value.parameter == "content" and "path=" in err.value.message
    with pytest.raises(Conflict):
        call(c, "update_file", file_id="file_nda_template", content="x")
    with pytest.raises(Conflict) as err:
        call(c, "update_file", file_id="file_untitled_document", content="x")
    assert "restore-file" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "update_file", file_id="fld_finance", content="x")


def test_copy_file_same_folder_and_into_shared_drive():
    c = ctx()
    same = call(c, "copy_file", file_id="file_nda_template")
    assert same["name"] == "Copy of NDA template.docx" and same["parent_id"] == "root"
    assert same["owner"] == USER and same["version"] == 1 and same["open_comments"] == 0
    assert c.state.files[same["id"]].blob == c.state.files["file_nda_template"].blob
    sd = call(c, "copy_file", file_id="file_q1_budget", parent_id="sd_atlas_program", name="Q1 budget (Eng).xlsx")
    assert sd["path"] == "/Shared drives/Atlas Program/Q1 budget (Eng).xlsx" and sd["mime_type"] == XLSX
    assert read_cell(content(c, sd["id"]), "Engineering", "B2") == 186000
    assert c.state.files["file_q1_budget"].parent_id == "fld_budgets"


def test_copy_file_errors():
    c = ctx()
    with pytest.raises(InvalidArgument):
        call(c, "copy_file", file_id="fld_finance")
    with pytest.raises(Conflict) as err:
        call(c, "copy_file", file_id="file_untitled_document")
    assert "restore-file" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "copy_file", file_id="file_q1_budget", parent_id="sd_company_policies")
    assert err.value.parameter == "parent_id"
    with pytest.raises(Conflict) as err:
        call(c, "copy_file", file_id="file_q1_budget", name="Q2 budget draft.csv")
    assert err.value.parameter == "name"


# ---- move / rename ----------------------------------------------------------------------------


def test_move_file_into_another_folder():
    c = ctx()
    out = call(c, "move_file", file_id="file_offsite_venue_options", new_parent_id="fld_archive")
    assert out["path"] == "/Archive/Offsite venue options.csv"
    assert c.state.files["file_offsite_venue_options"].modified == NOW
    assert "Offsite venue options.csv" not in names(call(c, "list_folder", folder_id="fld_offsite_2026")["results"])
    back = call(c, "move_file", file_id="file_offsite_venue_options", new_parent_id="root")
    assert back["path"] == "/Offsite venue options.csv" and back["parent_id"] == "root"


def test_move_folder_carries_contents():
    c = ctx()
    call(c, "move_file", file_id="fld_offsite_2026", new_parent_id="fld_archive")
    assert (
        call(c, "get_file", file_id="file_offsite_agenda_draft")["path"]
        == "/Archive/Offsite 2026/Offsite agenda draft.md"
    )


def test_move_within_a_shared_drive():
    c = ctx()
    out = call(c, "move_file", file_id="file_atlas_cost_tracker", new_parent_id="fld_load_test")
    assert out["path"] == "/Shared drives/Atlas Program/Load test/Atlas cost tracker.xlsx"
    top = call(c, "move_file", file_id="file_atlas_cost_tracker", new_parent_id="sd_atlas_program")
    assert top["parent_id"] == "sd_atlas_program"


def test_move_folder_into_itself_or_descendant_is_refused():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="fld_shared", new_parent_id="fld_offsite_2026")
    assert err.value.parameter == "new_parent_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="fld_shared", new_parent_id="fld_shared")
    assert err.value.parameter == "new_parent_id"


def test_move_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "move_file", file_id="file_nda_template", new_parent_id="fld_archive")
    assert err.value.parameter == "file_id" and "reader access" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "move_file", file_id="file_reading_list", new_parent_id="fld_architecture")
    assert err.value.parameter == "new_parent_id"
    call(c, "create_file", name="Reading list.txt", parent_id="fld_archive", content="dup")
    with pytest.raises(Conflict) as err:
        call(c, "move_file", file_id="file_reading_list", new_parent_id="fld_archive")
    assert err.value.parameter == "new_parent_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="file_reading_list", new_parent_id="file_nda_template")
    assert err.value.parameter == "new_parent_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="file_reading_list", new_parent_id="sd_atlas_program")
    assert "copy-file" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "move_file", file_id="file_price_list_2026", new_parent_id="sd_sales_enablement")
    assert "content managers" in err.value.message and "contributor" in err.value.message


def test_rename_file():
    c = ctx()
    out = call(c, "rename_file", file_id="file_q2_budget_draft", new_name="Q2 budget.csv")
    assert out["name"] == "Q2 budget.csv" and out["path"] == "/Finance/Budgets/Q2 budget.csv"
    assert c.state.files["file_q2_budget_draft"].modified == NOW


def test_rename_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "rename_file", file_id="file_q2_budget_draft", new_name="q1 BUDGET.xlsx")
    assert err.value.parameter == "new_name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "rename_file", file_id="file_q2_budget_draft", new_name="")
    assert err.value.parameter == "new_name"
    with pytest.raises(Conflict):
        call(c, "rename_file", file_id="file_customer_health_scores", new_name="Health.csv")


# ---- trash / restore --------------------------------------------------------------------------


def test_trash_folder_trashes_descendants():
    c = ctx()
    out = call(c, "trash_file", file_id="fld_offsite_2026")
    assert sorted(out["trashed"]) == [
        "file_lakeside_lodge_contract_signed",
        "file_offsite_agenda_draft",
        "file_offsite_attendee_list",
        "file_offsite_venue_options",
        "fld_offsite_2026",
    ]
    assert out["count"] == 5
    assert all(c.state.files[i].trashed and c.state.files[i].trashed_with == "fld_offsite_2026" for i in out["trashed"])
    assert call(c, "search_files", query="Offsite attendee list")["total"] == 0
    assert "Offsite 2026" not in names(call(c, "list_folder", folder_id="fld_shared")["results"])


def test_trash_skips_items_already_in_trash():
    out = call(ctx(), "trash_file", file_id="fld_archive")
    assert sorted(out["trashed"]) == [
        "file_leadership_offsite_2025_agenda",
        "file_leadership_offsite_2025_team_photo",
        "fld_archive",
    ]


def test_trash_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "trash_file", file_id="file_untitled_document")
    assert "trash" in err.value.message
    with pytest.raises(Conflict):
        call(c, "trash_file", file_id="file_sales_pipeline_q1")
    with pytest.raises(NotFound):
        call(c, "trash_file", file_id="nope")
    with pytest.raises(Conflict) as err:
        call(c, "trash_file", file_id="file_price_list_2026")
    assert "james.okafor@northwind.example" in err.value.message


def test_restore_file_brings_back_what_was_trashed_with_it():
    c = ctx()
    call(c, "trash_file", file_id="file_offsite_attendee_list")
    call(c, "trash_file", file_id="fld_offsite_2026")
    out = call(c, "restore_file", file_id="fld_offsite_2026")
    assert sorted(out["restored"]) == [
        "file_lakeside_lodge_contract_signed",
        "file_offsite_agenda_draft",
        "file_offsite_venue_options",
        "fld_offsite_2026",
    ]
    assert out["path"] == "/Shared/Offsite 2026"
    assert c.state.files["file_offsite_attendee_list"].trashed is True
    one = call(c, "restore_file", file_id="file_offsite_attendee_list")
    assert one == {
        "restored": ["file_offsite_attendee_list"],
        "count": 1,
        "path": "/Shared/Offsite 2026/Offsite attendee list.csv",
    }
    assert not c.state.files["file_offsite_attendee_list"].trashed_with


def test_restore_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "restore_file", file_id="file_reading_list")
    assert "not in the trash" in err.value.message
    call(c, "trash_file", file_id="fld_archive")
    with pytest.raises(Conflict) as err:
        call(c, "restore_file", file_id="file_q4_2025_budget_draft")
    assert "fld_archive" in err.value.message
    call(c, "restore_file", file_id="fld_archive")
    assert c.state.files["file_q4_2025_budget_draft"].trashed is True  # was trashed before the folder
    call(c, "create_file", name="Untitled document.txt", content="new")
    with pytest.raises(Conflict) as err:
        call(c, "restore_file", file_id="file_untitled_document")
    assert "Untitled document.txt" in err.value.message


# ---- sharing ----------------------------------------------------------------------------------


def test_share_file_adds_then_updates_role():
    c = ctx()
    out = call(c, "share_file", file_id="file_q1_budget", email="Grace.Kim@northwind.example", role="commenter")
    assert out["previous_role"] is None and out["role"] == "commenter"
    assert {"email": "grace.kim@northwind.example", "role": "commenter"} in out["permissions"]
    again = call(c, "share_file", file_id="file_q1_budget", email="grace.kim@northwind.example", role="writer")
    assert again["previous_role"] == "commenter"
    perms = [p for p in c.state.files["file_q1_budget"].permissions if p.email == "grace.kim@northwind.example"]
    assert [p.role for p in perms] == ["writer"]


def test_share_file_default_reader_and_external_address():
    c = ctx()
    out = call(c, "share_file", file_id="file_offsite_agenda_draft", email="events@lakesidelodge.example")
    assert out["role"] == "reader"
    assert c.state.files["file_offsite_agenda_draft"].permissions[-1].email == "events@lakesidelodge.example"
    sd = call(c, "share_file", file_id="file_atlas_cost_tracker", email="marcus.reed@northwind.example")
    assert sd["permissions"] == [{"email": "marcus.reed@northwind.example", "role": "reader"}]


def test_share_file_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "share_file", file_id="file_q1_budget", email="priya.shah@northwind.example", role="reader")
    assert err.value.parameter == "email" and "owns" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "share_file", file_id="file_q1_budget", email="pria.shah@northwind.example")
    assert err.value.parameter == "email" and "search-people" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "share_file", file_id="file_q1_budget", email="grace kim")
    assert err.value.parameter == "email"
    with pytest.raises(InvalidArgument) as err:
        call(c, "share_file", file_id="file_q1_budget", email="grace.kim@northwind.example", role="owner")
    assert err.value.parameter == "role"
    with pytest.raises(Conflict) as err:
        call(c, "share_file", file_id="file_nda_template", email="grace.kim@northwind.example")
    assert err.value.parameter == "file_id"


def test_share_internal_address_without_directory_is_allowed():
    c = ctx()
    del c.world.states["directory"]
    out = call(c, "share_file", file_id="file_reading_list", email="new.hire@northwind.example")
    assert out["email"] == "new.hire@northwind.example"


def test_remove_permission():
    c = ctx()
    out = call(c, "remove_permission", file_id="file_offsite_attendee_list", email="Events@LakesideLodge.example")
    assert out["removed"] == "events@lakesidelodge.example"
    assert out["permissions"] == [{"email": USER, "role": "owner"}]
    assert c.state.files["file_offsite_attendee_list"].permissions[0].role == "owner"
    assert len(c.state.files["file_offsite_attendee_list"].permissions) == 1


def test_remove_own_access_hides_the_file():
    c = ctx()
    call(c, "remove_permission", file_id="file_sales_pipeline_q1", email=USER)
    with pytest.raises(NotFound):
        call(c, "get_file", file_id="file_sales_pipeline_q1")
    assert call(c, "search_files", query="Woodgrove")["total"] == 0


def test_remove_permission_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_reading_list", email=USER)
    assert "owner" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_q1_budget", email="owen.bell@northwind.example")
    assert "fld_finance" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "remove_permission", file_id="file_q1_budget", email="zoe.adams@northwind.example")
    assert err.value.parameter == "email"
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_sales_pipeline_q1", email="marcus.reed@northwind.example")
    assert err.value.parameter == "file_id" and "reader access" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_atlas_cost_tracker", email="olivia.baker@northwind.example")
    assert "member of shared drive 'Atlas Program'" in err.value.message


# ---- versions ---------------------------------------------------------------------------------


def test_list_versions_newest_first():
    out = call(ctx(), "list_versions", file_id="file_contoso_renewal_proposal")
    assert out["current_version"] == 3
    assert [(v["version"], v["modified_by"], v["current"]) for v in out["versions"]] == [
        (3, "james.okafor@northwind.example", True),
        (2, "isabella.rossi@northwind.example", False),
        (1, "james.okafor@northwind.example", False),
    ]
    assert out["versions"][1]["modified"] == "2026-03-02T17:45:00-05:00"
    with pytest.raises(InvalidArgument):
        call(ctx(), "list_versions", file_id="fld_finance")


def test_restore_version_makes_a_new_current_version():
    c = ctx()
    out = call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=2)
    assert out["restored_from"] == 2 and out["version"] == 4 and out["last_modified_by"] == USER
    f = c.state.files["file_contoso_renewal_pricing"]
    assert read_cell(content(c, f.id), "Pricing", "C2") == 444960
    assert read_cell(c.blobs.get(f.versions[2].blob), "Pricing", "C2") == 432000  # Benjamin's kept as v3
    assert f.versions[2].modified_by == "benjamin.clark@northwind.example"


def test_restore_version_errors():
    c = ctx()
    before = c.world.snapshot()
    with pytest.raises(NotFound) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=7)
    assert err.value.parameter == "version" and "1 to 3" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=3)
    assert err.value.parameter == "version"
    with pytest.raises(Conflict) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_proposal", version=1)
    assert "commenter access" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=0)
    assert err.value.parameter == "version"
    assert c.world.snapshot() == before


# ---- comments ---------------------------------------------------------------------------------


def test_list_comments_open_and_resolved():
    c = ctx()
    out = call(c, "list_comments", file_id="file_offsite_agenda_draft")
    assert [x["id"] for x in out["results"]] == ["cmt_0001", "cmt_0002"]
    assert out["results"][1]["replies"][0]["author"] == USER
    assert call(c, "list_comments", file_id="file_q2_budget_draft")["total"] == 0
    resolved = call(c, "list_comments", file_id="file_q2_budget_draft", include_resolved=True)["results"]
    assert resolved[0]["resolved_by"] == "priya.shah@northwind.example"
    assert resolved[0]["replies"][0]["body"].startswith("Confirmed")


def test_add_comment_with_and_without_quote():
    c = ctx()
    out = call(
        c,
        "add_comment",
        file_id="file_employee_handbook_2026",
        text="Leadership approved 20 days from April 1; please update.",
        quote="15 days of paid time off a year",
    )
    assert out["id"] == "cmt_n1" and out["author"] == USER and out["resolved"] is False
    assert c.state.comments["cmt_n1"].file_id == "file_employee_handbook_2026"
    assert c.state.comments["cmt_n1"].created == NOW
    plain = call(c, "add_comment", file_id="file_q1_budget", text="Looks right.")
    assert plain["quote"] == ""
    assert call(c, "get_file", file_id="file_employee_handbook_2026")["open_comments"] == 1


def test_add_comment_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", file_id="file_employee_handbook_2026", text="x", quote="25 days of holiday")
    assert err.value.parameter == "quote"
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", file_id="file_q1_budget", text="  ")
    assert err.value.parameter == "text"
    with pytest.raises(Conflict) as err:
        call(c, "add_comment", file_id="file_nda_template", text="hi")
    assert "reader access" in err.value.message
    with pytest.raises(Conflict):
        call(c, "add_comment", file_id="file_untitled_document", text="hi")
    with pytest.raises(InvalidArgument):
        call(c, "add_comment", file_id="fld_finance", text="hi")


def test_reply_and_resolve_comment():
    c = ctx()
    reply = call(c, "reply_to_comment", comment_id="cmt_0001", text="Moved to Thursday 14:00.")
    assert reply["reopened"] is False and reply["replies"][-1] == {
        "id": "rpl_n1",
        "author": USER,
        "body": "Moved to Thursday 14:00.",
        "created": "2026-03-09T09:00:00-04:00",
    }
    done = call(c, "resolve_comment", comment_id="cmt_0001")
    assert done["resolved"] is True and done["resolved_by"] == USER
    assert [x["id"] for x in call(c, "list_comments", file_id="file_offsite_agenda_draft")["results"]] == ["cmt_0002"]
    again = call(c, "reply_to_comment", comment_id="cmt_0001", text="One more thing.")
    assert again["reopened"] is True and c.state.comments["cmt_0001"].resolved is False


def test_comment_errors():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "reply_to_comment", comment_id="cmt_9999", text="hi")
    assert err.value.parameter == "comment_id"
    with pytest.raises(Conflict) as err:
        call(c, "resolve_comment", comment_id="cmt_0003")
    assert "already resolved" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "resolve_comment", comment_id="cmt_0004")  # on a file where Alex only comments
    assert "edit access" in err.value.message
    own = call(c, "add_comment", file_id="file_contoso_renewal_proposal", text="Agree on Net 45?")
    assert call(c, "resolve_comment", comment_id=own["id"])["resolved"] is True


# ---- failed writes change nothing --------------------------------------------------------------

FAILING_WRITES = [
    ("create_folder", {"name": "Finance"}),
    ("create_folder", {"name": "x", "parent_id": "fld_engineering"}),
    ("create_folder", {"name": "x", "parent_id": "sd_company_policies"}),
    ("create_file", {"name": "a.txt", "parent_id": "fld_nope", "content": "x"}),
    ("create_file", {"name": "a.txt", "content": "x", "path": "y"}),
    ("upload_file", {"path": "a.txt", "parent_id": "fld_budgets", "name": "Q2 budget draft.csv"}),
    ("upload_file", {"path": "missing.txt", "parent_id": "fld_budgets", "conflict": "replace"}),
    ("upload_file", {"path": "a.txt", "name": "NDA template.docx", "conflict": "replace"}),
    ("update_file", {"file_id": "file_q1_budget", "content": "x"}),
    ("update_file", {"file_id": "file_reading_list", "path": "missing.txt"}),
    ("copy_file", {"file_id": "file_q1_budget", "parent_id": "sd_company_policies"}),
    ("move_file", {"file_id": "fld_shared", "new_parent_id": "fld_board"}),
    ("move_file", {"file_id": "file_nda_template", "new_parent_id": "root"}),
    ("move_file", {"file_id": "file_reading_list", "new_parent_id": "sd_atlas_program"}),
    ("rename_file", {"file_id": "file_q1_budget", "new_name": "Q2 budget draft.csv"}),
    ("trash_file", {"file_id": "file_customer_health_scores"}),
    ("trash_file", {"file_id": "file_untitled_document"}),
    ("trash_file", {"file_id": "file_price_list_2026"}),
    ("restore_file", {"file_id": "file_reading_list"}),
    ("share_file", {"file_id": "file_q1_budget", "email": "nobody@northwind.example"}),
    ("share_file", {"file_id": "file_engineering_hiring_plan_2026", "email": "grace.kim@northwind.example"}),
    ("share_file", {"file_id": "file_q1_budget", "email": "priya.shah@northwind.example"}),
    ("remove_permission", {"file_id": "file_q1_budget", "email": "priya.shah@northwind.example"}),
    ("remove_permission", {"file_id": "file_nda_template", "email": "hannah.wood@northwind.example"}),
    ("restore_version", {"file_id": "file_contoso_renewal_proposal", "version": 2}),
    ("add_comment", {"file_id": "file_nda_template", "text": "x"}),
    ("add_comment", {"file_id": "file_q1_budget", "text": "x", "quote": "not in the file"}),
    ("reply_to_comment", {"comment_id": "cmt_0001", "text": " "}),
    ("resolve_comment", {"comment_id": "cmt_0004"}),
]


@pytest.mark.parametrize(("action", "args"), FAILING_WRITES)
def test_failed_write_leaves_world_unchanged(action, args):
    c = ctx(MemoryFiles({"a.txt": b"hello"}))
    before = c.world.snapshot()
    with pytest.raises((InvalidArgument, Conflict, NotFound)):
        call(c, action, **args)
    assert c.world.snapshot() == before


def test_read_actions_are_marked_read_only():
    flags = {name: a.read_only for name, a in drive.app.actions.items()}
    assert [n for n, ro in flags.items() if ro] == [
        "search_files",
        "list_folder",
        "get_file",
        "read_file",
        "download_file",
        "list_permissions",
        "list_shared_drives",
        "list_versions",
        "list_comments",
    ]
    assert len(flags) == 24
    assert all(len(a.tool_name) <= 48 for a in drive.app.actions.values())


def test_docstring_examples_name_real_ids():
    data = build(people_records(), NOW, USER)
    ids = set(data["files"]) | set(data["shared_drives"]) | set(data["comments"])
    text = " ".join(a.description for a in drive.app.actions.values())
    mentioned = set(re.findall(r"\"((?:file|fld|sd|cmt)_[a-z0-9_]+)\"", text)) - {"file_id"}
    assert len(mentioned) >= 14
    assert mentioned <= ids
