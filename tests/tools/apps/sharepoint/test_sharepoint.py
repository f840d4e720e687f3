import base64
import re

import pytest

from tests.conftest import MemoryFiles
from tools.apps import sharepoint
from tools.apps.sharepoint import SharePointState
from tools.apps.sharepoint.fixture import build
from tools.fixtures import NOW, TIMEZONE, USER, build_default
from tools.fixtures.people import people_records
from tools.fixtures.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import extract_text, make_docx, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, World
from tools.kits.people import DirectoryState


def ctx(files=None, with_directory=True):
    company = build_default()
    states = {"sharepoint": SharePointState.model_validate(company["sharepoint"])}
    if with_directory:
        states["directory"] = DirectoryState.model_validate(company["directory"])
    return Context(World(NOW, TIMEZONE, USER, states, BlobStore(BLOBS)), "sharepoint", files)


def call(c, action, /, **args):
    return sharepoint.app.actions[action].invoke(c, args)


def names(results):
    return [r["name"] for r in results]


def fails_cleanly(c, exc, action, /, **args):
    """The call raises ``exc`` and leaves the world exactly as it was; returns the error."""
    before = c.world.snapshot()
    with pytest.raises(exc) as err:
        call(c, action, **args)
    assert c.world.snapshot() == before
    return err.value


def set_role(c, site_id, role):
    site = c.state.sites[site_id]
    site.members = [m.model_copy(update={"role": role}) if m.email == USER else m for m in site.members]


# ---- fixture ----------------------------------------------------------------------------------


def test_fixture_counts_and_shape():
    data = build(people_records(), NOW, USER)
    state = SharePointState.model_validate(data)
    assert len(state.sites) == 4 and len(state.libraries) == 5 and len(state.lists) == 5
    assert sum(f.kind == "file" for f in state.files.values()) == 23
    assert sum(f.kind == "folder" for f in state.files.values()) == 11
    assert len(state.items) == 47
    assert {s.name for s in state.sites.values()} == {"Operations", "People & Culture", "Atlas Program", "Finance"}
    for site in state.sites.values():
        assert any(lib.site_id == site.id and lib.name == "Documents" for lib in state.libraries.values())
        assert sum(m.role == "full_control" for m in site.members) >= 2
        assert any(m.email == USER for m in site.members)
    for f in state.files.values():
        assert f.parent_id == "" or state.files[f.parent_id].kind == "folder"
        assert f.modified < NOW and f.created <= f.modified
        if f.kind == "file":
            assert f.blob in BLOBS and len(BLOBS[f.blob]) == f.size
    for item in state.items.values():
        columns = {c.name for c in state.lists[item.list_id].columns}
        assert set(item.values) <= columns
    assert [f.name for f in state.files.values() if f.deleted] == ["Vendor list 2024.xlsx"]


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_fixture_documents_are_real_and_agree_with_company_facts():
    state = SharePointState.model_validate(build(people_records(), NOW, USER))
    files = state.files
    runbook = extract_text(BLOBS[files["doc_atlas_cutover_runbook"].blob], "x.pdf")
    assert "Saturday April 18" in runbook and "Mia Thompson" in runbook
    plan = BLOBS[files["doc_headcount_plan_2026"].blob]
    assert read_cell(plan, "Plan", "B11") == 40 and read_cell(plan, "Plan", "D11") == 51
    checklist = extract_text(BLOBS[files["doc_vendor_onboarding_checklist"].blob], "x.docx")
    assert "$2,000,000" in checklist and "Victor Alvarez" in checklist
    first = extract_text(BLOBS[files["doc_vendor_onboarding_checklist"].versions[0].blob], "x.docx")
    assert "$2,000,000" not in first
    pricing = BLOBS[files["doc_contoso_renewal_pricing"].blob]
    assert read_cell(pricing, "Renewal", "C3") == 444960
    req = state.items["req_01"].values
    assert req["Req ID"] == "REQ-1042" and req["Hiring manager"] == "liam.chen@northwind.example"
    assert state.items["inv_03"].values["PO"] == "PO-7781"


def test_fixture_and_app_avoid_internal_words():
    text = repr(build(people_records(), NOW, USER)).lower()
    text += " ".join(a.description + str(a.input_schema) for a in sharepoint.app.actions.values()).lower()
    text += sharepoint.app.description.lower()
    state = SharePointState.model_validate(build(people_records(), NOW, USER))
    text += " ".join(extract_text(BLOBS[f.blob], f.name) for f in state.files.values() if f.blob).lower()
    words = r"gateway|episode|reward|grad(e|er|ing)\b|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, text) == []


def test_every_tool_name_is_short_enough():
    assert len(sharepoint.app.actions) == 22
    assert all(len(a.tool_name) <= 48 for a in sharepoint.app.actions.values())


# ---- sites and members ------------------------------------------------------------------------


def test_list_sites_sorted_with_roles():
    out = call(ctx(), "list_sites")
    assert names(out["results"]) == ["Atlas Program", "Finance", "Operations", "People & Culture"]
    roles = {r["name"]: r["your_role"] for r in out["results"]}
    assert roles == {"Atlas Program": "full_control", "Finance": "contribute", "Operations": "full_control",
                     "People & Culture": "edit"}  # fmt: skip
    assert names(call(ctx(), "list_sites", query="hiring")["results"]) == ["People & Culture"]


def test_get_site_by_name_url_or_slug():
    c = ctx()
    out = call(c, "get_site", site="finance")
    assert out["id"] == "site_finance"
    assert [lib["name"] for lib in out["libraries"]] == ["Audit evidence", "Documents"]
    assert out["lists"] == [{"id": "list_invoice_tracker", "name": "Invoice tracker",
                             "description": out["lists"][0]["description"], "items": 11}]  # fmt: skip
    assert out["owners"][:2] == ["marcus.reed@northwind.example", "priya.shah@northwind.example"]
    url = "https://northwind.sharepoint.example/sites/AtlasProgram"
    assert call(c, "get_site", site=url)["name"] == "Atlas Program"
    assert call(c, "get_site", site="PeopleCulture")["recycle_bin"] == 0
    assert call(c, "get_site", site="people and culture")["id"] == "site_people"
    assert call(c, "get_site", site="Operations")["recycle_bin"] == 1


def test_sites_you_do_not_belong_to_are_hidden():
    c = ctx()
    site = c.state.sites["site_finance"]
    site.members = [m for m in site.members if m.email != USER]
    assert "Finance" not in names(call(c, "list_sites")["results"])
    err = fails_cleanly(c, NotFound, "get_site", site="Finance")
    assert err.parameter == "site" and "'Operations'" in err.message


def test_list_members_most_access_first_with_guests():
    out = call(ctx(), "list_members", site="Atlas Program")
    assert out["total"] == 15 and out["your_role"] == "full_control"
    assert out["results"][0] == {"email": USER, "name": "Alex Morgan", "role": "full_control", "guest": False}
    guests = [m["email"] for m in out["results"] if m["guest"]]
    assert guests == ["kim.lau@adatum.example", "rachel.stone@litware.example"]
    edit = call(ctx(), "list_members", site="Atlas Program", role="edit")
    assert [m["name"] for m in edit["results"]] == ["Ethan Brooks", "Mia Thompson"]


def test_grant_access_adds_and_changes_roles():
    c = ctx()
    out = call(c, "grant_access", site="Atlas Program", person="Chloe Nguyen", role="contribute")
    assert out == {"site": "Atlas Program", "email": "chloe.nguyen@northwind.example", "name": "Chloe Nguyen",
                   "role": "contribute", "previous_role": None, "members": 16}  # fmt: skip
    up = call(c, "grant_access", site="site_atlas", person="lucas.martin@northwind.example", role="edit")
    assert up["previous_role"] == "read" and up["members"] == 16
    roles = {m.email: m.role for m in c.state.sites["site_atlas"].members}
    assert roles["lucas.martin@northwind.example"] == "edit"
    guest = call(c, "grant_access", site="Operations", person="Ben.Ortiz@tailspin.example")
    assert guest["email"] == "ben.ortiz@tailspin.example" and guest["role"] == "read" and guest["name"] == ""


def test_grant_access_errors_leave_the_site_unchanged():
    c = ctx()
    err = fails_cleanly(c, Conflict, "grant_access", site="Finance", person="Grace Kim", role="full_control")
    assert err.parameter == "site" and "contribute access" in err.message and "marcus.reed" in err.message
    err = fails_cleanly(c, NotFound, "grant_access", site="Operations", person="nobody@northwind.example")
    assert err.parameter == "person"
    err = fails_cleanly(c, InvalidArgument, "grant_access", site="Operations", person="bad@@example")
    assert err.parameter == "person"
    err = fails_cleanly(c, InvalidArgument, "grant_access", site="Operations", person="Ruby Walker", role="owner")
    assert err.parameter == "role"


def test_last_full_control_member_is_kept():
    c = ctx()
    site = c.state.sites["site_operations"]
    site.members = [m for m in site.members if m.role != "full_control" or m.email == USER]
    err = fails_cleanly(c, Conflict, "grant_access", site="Operations", person=USER, role="edit")
    assert "last member with full_control" in err.message
    fails_cleanly(c, Conflict, "revoke_access", site="Operations", person=USER)


def test_revoke_access():
    c = ctx()
    out = call(c, "revoke_access", site="Atlas Program", person="kim.lau@adatum.example")
    assert out == {"site": "Atlas Program", "removed": "kim.lau@adatum.example", "role": "contribute", "members": 14}
    assert "kim.lau@adatum.example" not in {m.email for m in c.state.sites["site_atlas"].members}
    err = fails_cleanly(c, NotFound, "revoke_access", site="Atlas Program", person="kim.lau@adatum.example")
    assert err.parameter == "person" and "list-members" in err.message
    err = fails_cleanly(c, Conflict, "revoke_access", site="Finance", person="Grace Kim")
    assert err.parameter == "site"


# ---- libraries: reading -----------------------------------------------------------------------


def test_list_library_top_folders_first():
    out = call(ctx(), "list_library", site="Atlas Program")
    assert out["folder"] == {"id": "", "path": "Documents"}
    assert names(out["results"]) == ["Architecture", "Status reports", "Testing", "Atlas cutover contacts.csv",
                                     "Atlas cutover runbook.pdf", "Atlas status 2026-03-04.docx"]  # fmt: skip


def test_list_library_folder_by_path_or_id_and_paging():
    c = ctx()
    by_path = call(c, "list_library", site="Operations", folder="/Documents/vendor management/")
    assert names(by_path["results"]) == ["Vendor onboarding checklist.docx", "Vendor scorecard Q4 2025.xlsx"]
    by_id = call(c, "list_library", site="Operations", folder="folder_ops_vendor_management", page_size=1)
    assert by_id["folder"]["path"] == "Documents/Vendor management"
    assert names(by_id["results"]) == ["Vendor onboarding checklist.docx"] and by_id["next_page"] == 2
    audit = call(c, "list_library", site="Finance", library="Audit evidence")
    assert names(audit["results"]) == ["FY2025 audit request list.xlsx"]


def test_list_library_errors():
    c = ctx()
    err = fails_cleanly(c, NotFound, "list_library", site="Operations", folder="Nope")
    assert err.parameter == "folder"
    err = fails_cleanly(c, InvalidArgument, "list_library", site="Operations", folder="doc_ops_weekly_2026_03_06")
    assert err.parameter == "folder" and "not a folder" in err.message
    err = fails_cleanly(c, InvalidArgument, "list_library", site="Operations", folder="folder_finance_invoices")
    assert "not in the library" in err.message
    err = fails_cleanly(c, NotFound, "list_library", site="Operations", library="Site Pages")
    assert err.parameter == "library" and "'Documents'" in err.message


def test_search_files_by_name_and_document_text():
    c = ctx()
    assert names(call(c, "search_files", query="runbook")["results"]) == ["Atlas cutover runbook.pdf"]
    by_text = call(c, "search_files", query="general liability")
    assert names(by_text["results"]) == ["Vendor onboarding checklist.docx"]
    pdfs = call(c, "search_files", file_type=".PDF", site="Finance")
    assert sorted(names(pdfs["results"])) == ["INV-20401 Litware Cloud Services.pdf",
                                              "INV-20422 Northwind Office Supply.pdf"]  # fmt: skip
    folders = call(c, "search_files", query="status", kind="folder")
    assert names(folders["results"]) == ["Status reports"]
    assert call(c, "search_files", query="Vendor list 2024")["total"] == 0  # in the recycle bin


def test_search_files_newest_first_and_paged():
    c = ctx()
    everything = call(c, "search_files", page_size=100)["results"]
    assert len(everything) == 33
    stamps = [r["modified"] for r in everything]
    assert everything[0]["name"] == "Operations weekly 2026-03-06.docx"
    second = call(c, "search_files", page=2, page_size=10)
    assert second["results"] == everything[10:20] and second["next_page"] == 3
    assert len(stamps) == len({r["id"] for r in everything})


def test_get_file_shows_versions_and_folder_counts():
    c = ctx()
    out = call(c, "get_file", file_id="doc_vendor_onboarding_checklist")
    assert out["version"] == "3.0" and [v["version"] for v in out["versions"]] == ["1.0", "2.0"]
    assert out["versions"][1]["modified_by"] == "victor.alvarez@northwind.example"
    assert out["created_by"] == "maya.young@northwind.example"
    assert out["url"].endswith("/sites/Operations/Documents/Vendor%20management/Vendor%20onboarding%20checklist.docx")
    folder = call(c, "get_file", file_id="folder_atlas_status_reports")
    assert folder["items"] == 1 and "versions" not in folder
    assert call(c, "get_file", file_id="doc_vendor_list_2024")["in_recycle_bin"] is True
    err = fails_cleanly(c, NotFound, "get_file", file_id="doc_nope")
    assert err.parameter == "file_id"


def test_download_saves_into_the_workspace():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "download_file", file_id="doc_atlas_cutover_runbook")
    assert out == {"id": "doc_atlas_cutover_runbook", "name": "Atlas cutover runbook.pdf",
                   "mime_type": "application/pdf", "version": "1.0", "saved_to": "downloads/Atlas cutover runbook.pdf",
                   "size": c.state.files["doc_atlas_cutover_runbook"].size}  # fmt: skip
    assert files.files["downloads/Atlas cutover runbook.pdf"].startswith(b"%PDF")
    old = call(c, "download_file", file_id="doc_vendor_onboarding_checklist", version="1.0", save_as="v1.docx")
    assert old["version"] == "1.0" and "$2,000,000" not in extract_text(files.files["v1.docx"], "v1.docx")


def test_download_without_a_workspace_inlines_text_only():
    c = ctx()
    out = call(c, "download_file", file_id="doc_atlas_cutover_contacts")
    assert out["content"].startswith("Role,Name,Email,Phone,On duty (ET)\nCutover lead,Mia Thompson,")
    assert "saved_to" not in out
    err = fails_cleanly(c, InvalidArgument, "download_file", file_id="doc_headcount_plan_2026")
    assert "not a text file" in err.message


def test_download_errors():
    c = ctx(MemoryFiles())
    err = fails_cleanly(c, NotFound, "download_file", file_id="doc_vendor_onboarding_checklist", version="4.0")
    assert err.parameter == "version" and "1.0, 2.0, 3.0" in err.message
    err = fails_cleanly(c, InvalidArgument, "download_file", file_id="folder_ops_facilities")
    assert "list-library" in err.message
    err = fails_cleanly(c, NotFound, "download_file", file_id="doc_vendor_list_2024")
    assert "recycle bin" in err.message and "restore-file" in err.message


def test_list_recycle_bin():
    out = call(ctx(), "list_recycle_bin", site="Operations")
    assert [(r["id"], r["original_path"]) for r in out["results"]] == [
        ("doc_vendor_list_2024", "Documents/Vendor management/Vendor list 2024.xlsx")
    ]
    assert out["results"][0]["deleted_by"] == "maya.young@northwind.example"
    assert call(ctx(), "list_recycle_bin", site="Finance")["total"] == 0


# ---- libraries: changing ----------------------------------------------------------------------


def test_upload_from_the_workspace_keeps_the_real_bytes():
    data = make_docx("Quote", ["Alpine Ski House quote: $5,400."])
    files = MemoryFiles({"out/quote.docx": data})
    c = ctx(files)
    out = call(c, "upload_file", site="Operations", folder="Vendor management", path="out/quote.docx")
    assert out["name"] == "quote.docx" and out["version"] == "1.0" and out["id"] == "doc_n1"
    assert out["path"] == "Documents/Vendor management/quote.docx" and out["size"] == len(data)
    rec = c.state.files[out["id"]]
    assert rec.mime_type.endswith("wordprocessingml.document") and rec.created_by == USER and rec.modified == NOW
    assert c.blobs.get(rec.blob) == data
    assert "Alpine Ski House" in extract_text(c.blobs.get(rec.blob), rec.name)


def test_upload_text_inline_and_new_versions():
    c = ctx()
    first = call(c, "upload_file", site="Finance", name="Notes.md", folder="Invoices", content="# v1\n")
    err = fails_cleanly(c, Conflict, "upload_file", site="Finance", name="notes.md", folder="Invoices", content="v2")
    assert err.parameter == "name" and "overwrite=true" in err.message
    second = call(c, "upload_file", site="Finance", name="Notes.md", folder="Invoices", content="# v2\n",
                  overwrite=True)  # fmt: skip
    assert second["id"] == first["id"] and second["version"] == "2.0"
    assert [v["version"] for v in second["versions"]] == ["1.0"]
    rec = c.state.files[first["id"]]
    assert c.blobs.get(rec.blob) == b"# v2\n" and c.blobs.get(rec.versions[0].blob) == b"# v1\n"
    assert call(c, "download_file", file_id=first["id"], version="1.0")["content"] == "# v1\n"


def test_upload_refuses_encoded_content_and_binary_text():
    c = ctx(MemoryFiles())
    encoded = base64.b64encode(make_docx("X", ["hello"])).decode()
    err = fails_cleanly(c, InvalidArgument, "upload_file", site="Operations", name="x.txt", content=encoded)
    assert err.parameter == "content" and "pass path=" in err.message
    err = fails_cleanly(c, InvalidArgument, "upload_file", site="Operations", name="x.png",
                        content="data:image/png;base64,iVBORw0KGgo=")  # fmt: skip
    assert "workspace" in err.message
    err = fails_cleanly(c, InvalidArgument, "upload_file", site="Operations", name="Plan.docx", content="plain words")
    assert err.parameter == "content" and "path=" in err.message


def test_upload_errors_leave_the_world_unchanged():
    c = ctx(MemoryFiles({"a.csv": b"a,b\n"}))
    err = fails_cleanly(c, InvalidArgument, "upload_file", site="Operations", name="a.csv", content="x", path="a.csv")
    assert err.parameter == "content"
    fails_cleanly(c, NotFound, "upload_file", site="Operations", path="missing.csv")
    err = fails_cleanly(c, InvalidArgument, "upload_file", site="Operations", name="a/b.csv", content="x")
    assert err.parameter == "name"
    err = fails_cleanly(c, InvalidArgument, "upload_file", site="Operations", content="x")
    assert err.parameter == "name"
    err = fails_cleanly(c, Conflict, "upload_file", site="Operations", name="Facilities", content="x", overwrite=True)
    assert "overwrite" not in err.message
    set_role(c, "site_finance", "read")
    err = fails_cleanly(c, Conflict, "upload_file", site="Finance", path="a.csv")
    assert err.parameter == "site" and "read access" in err.message
    err = fails_cleanly(ctx(), InvalidArgument, "upload_file", site="Operations", path="a.csv")
    assert err.parameter == "path" and "no workspace" in err.message


def test_create_folder():
    c = ctx()
    out = call(c, "create_folder", site="Operations", name="Quotes", folder="Vendor management")
    assert out["id"] == "folder_n1" and out["path"] == "Documents/Vendor management/Quotes" and out["items"] == 0
    err = fails_cleanly(c, Conflict, "create_folder", site="Operations", name="quotes", folder="Vendor management")
    assert err.parameter == "name" and out["id"] in err.message
    err = fails_cleanly(c, InvalidArgument, "create_folder", site="Operations", name="Q?")
    assert err.parameter == "name"
    set_role(c, "site_people", "read")
    fails_cleanly(c, Conflict, "create_folder", site="People & Culture", name="New")


def test_move_file_into_a_folder_and_to_another_site():
    c = ctx()
    out = call(c, "move_file", file_id="doc_atlas_status_2026_03_04", to_folder="Status reports")
    assert out["path"] == "Documents/Status reports/Atlas status 2026-03-04.docx"
    assert c.state.files["doc_atlas_status_2026_03_04"].modified < NOW  # moving keeps the last change
    moved = call(c, "move_file", file_id="folder_ops_offsite_2026", to_site="Finance", to_folder="Contracts")
    assert moved["site"] == "Finance" and moved["path"] == "Documents/Contracts/Offsite 2026"
    inner = c.state.files["doc_lakeside_lodge_agreement"]
    assert (inner.site_id, inner.library_id) == ("site_finance", "lib_finance_documents")
    back = call(c, "move_file", file_id="doc_lakeside_lodge_agreement", to_site="Operations")
    assert back["path"] == "Documents/Lakeside Lodge agreement NWT-4471.pdf"


def test_move_file_errors():
    c = ctx(MemoryFiles({"dup.docx": make_docx("Duplicate", ["x"])}))
    err = fails_cleanly(c, InvalidArgument, "move_file", file_id="folder_atlas_testing", to_folder="Testing")
    assert err.parameter == "to_folder"
    call(c, "create_folder", site="Atlas Program", name="Inner", folder="Testing")
    fails_cleanly(c, InvalidArgument, "move_file", file_id="folder_atlas_testing", to_folder="Testing/Inner")
    call(c, "upload_file", site="Atlas Program", folder="Status reports", name="Atlas status 2026-03-04.docx",
         path="dup.docx")  # fmt: skip
    err = fails_cleanly(c, Conflict, "move_file", file_id="doc_atlas_status_2026_03_04", to_folder="Status reports")
    assert err.parameter == "to_folder"
    set_role(c, "site_finance", "read")
    err = fails_cleanly(c, Conflict, "move_file", file_id="doc_atlas_cutover_runbook", to_site="Finance")
    assert err.parameter == "to_site"
    err = fails_cleanly(c, Conflict, "move_file", file_id="doc_inv_20401", to_folder="Budgets")
    assert err.parameter == "file_id"
    same = call(c, "move_file", file_id="doc_atlas_cutover_runbook")
    assert same["path"] == "Documents/Atlas cutover runbook.pdf"


def test_rename_file():
    c = ctx()
    out = call(c, "rename_file", file_id="doc_ops_weekly_2026_03_06", new_name="Ops weekly - March 6.docx")
    assert out["name"] == "Ops weekly - March 6.docx" and out["modified"].startswith("2026-03-09T09:00")
    err = fails_cleanly(c, InvalidArgument, "rename_file", file_id="doc_ops_weekly_2026_03_06", new_name="Ops.pdf")
    assert err.parameter == "new_name" and ".docx" in err.message
    err = fails_cleanly(c, Conflict, "rename_file", file_id="folder_ops_facilities", new_name="vendor MANAGEMENT")
    assert err.parameter == "new_name"
    assert call(c, "rename_file", file_id="folder_ops_facilities", new_name="Facilities & rooms")["kind"] == "folder"


def test_delete_and_restore_a_folder_with_its_contents():
    c = ctx()
    out = call(c, "delete_file", file_id="folder_ops_facilities")
    assert sorted(out["deleted"]) == ["doc_chicago_lease_comparison", "doc_meeting_room_guide", "folder_ops_facilities"]
    assert out["restore_with"] == "sharepoint restore-file --file-id=folder_ops_facilities"
    assert c.state.files["doc_meeting_room_guide"].deleted_with == "folder_ops_facilities"
    assert "Facilities" not in names(call(c, "list_library", site="Operations")["results"])
    assert [r["id"] for r in call(c, "list_recycle_bin", site="Operations")["results"]][0] == "folder_ops_facilities"
    err = fails_cleanly(c, Conflict, "restore_file", file_id="doc_meeting_room_guide")
    assert "folder_ops_facilities" in err.message
    back = call(c, "restore_file", file_id="folder_ops_facilities")
    assert sorted(back["restored"]) == sorted(out["deleted"])
    assert not any(f.deleted for f in c.state.files.values() if f.id in out["deleted"])


def test_restore_errors():
    c = ctx()
    err = fails_cleanly(c, Conflict, "restore_file", file_id="doc_meeting_room_guide")
    assert "not in the recycle bin" in err.message
    call(c, "rename_file", file_id="doc_vendor_scorecard_q4_2025", new_name="Vendor list 2024.xlsx")
    err = fails_cleanly(c, Conflict, "restore_file", file_id="doc_vendor_list_2024")
    assert "doc_vendor_scorecard_q4_2025" in err.message
    call(c, "delete_file", file_id="folder_ops_vendor_management")
    err = fails_cleanly(c, Conflict, "restore_file", file_id="doc_vendor_list_2024")
    assert "restore it first" in err.message


# ---- lists ------------------------------------------------------------------------------------


def test_list_lists_and_get_list():
    c = ctx()
    out = call(c, "list_lists", site="Operations")
    assert [(li["name"], li["items"]) for li in out["lists"]] == [("Room bookings", 11), ("Vendor onboarding", 9)]
    cols = call(c, "get_list", site="Operations", list_name="vendor onboarding")["columns"]
    assert [(col["name"], col["type"]) for col in cols] == [
        ("Vendor", "text"), ("Owner", "person"), ("Status", "choice"), ("Due", "date"),
        ("Contract value", "number"), ("W-9 received", "boolean"), ("Notes", "text"),
    ]  # fmt: skip
    assert cols[2]["choices"] == ["Not started", "In progress", "Done"] and cols[2]["required"] is True
    err = fails_cleanly(c, NotFound, "get_list", site="Operations", list_name="Atlas risks")
    assert err.parameter == "list_name" and "'Room bookings'" in err.message


def vendors(out):
    return [r["fields"]["Vendor"] for r in out["results"]]


def test_query_items_filters():
    c = ctx()
    q = {"site": "Operations", "list_name": "Vendor onboarding"}
    open_soon = call(c, "query_items", **q, filter="Status ne 'done' and Due lt '2026-03-20'", order_by="Due")
    assert vendors(open_soon) == ["Wide World Importers", "Fourth Coffee", "Southridge Video"]
    assert vendors(call(c, "query_items", **q, filter="Owner eq 'Ruby Walker'")) == ["Fourth Coffee", "Coho Winery"]
    assert vendors(call(c, "query_items", **q, filter="Owner eq 'ruby.walker@northwind.example'"))[0] == "Fourth Coffee"
    big = call(c, "query_items", **q, filter="Contract value ge 35000 or Vendor contains 'coffee'")
    assert vendors(big) == ["Lakeside Lodge", "Adatum Security", "Proseware Recruiting", "Fourth Coffee"]
    assert vendors(call(c, "query_items", **q, filter="W-9 received eq null")) == [
        "Trey Research", "Graphic Design Institute", "Coho Winery"]  # fmt: skip
    assert vendors(call(c, "query_items", **q, filter="Notes eq 'Webinar series production'")) == ["Southridge Video"]
    assert call(c, "query_items", **q, filter="Notes contains 'O''Brien'")["total"] == 0


def test_query_items_equals_sorting_and_paging():
    c = ctx()
    q = {"site": "Operations", "list_name": "Vendor onboarding"}
    done = call(c, "query_items", **q, equals=["Status=Done", "W-9 received=yes"])
    assert vendors(done) == ["Lakeside Lodge", "Adatum Security"]
    top = call(c, "query_items", **q, order_by="contract value", descending=True, page_size=3)
    assert vendors(top) == ["Proseware Recruiting", "Lakeside Lodge", "Adatum Security"]
    assert top["total"] == 9 and top["next_page"] == 2
    notes = call(c, "query_items", **q, order_by="Notes", page=2, page_size=5)
    assert vendors(notes)[-1] == "Graphic Design Institute"  # blanks last
    reqs = call(c, "query_items", site="People & Culture", list_name="Open requisitions",
                filter="Status eq 'Final interviews'")  # fmt: skip
    assert [r["fields"]["Req ID"] for r in reqs["results"]] == ["REQ-1045", "REQ-1046"]


def test_query_items_errors():
    c = ctx()
    q = {"site": "Operations", "list_name": "Vendor onboarding"}
    err = fails_cleanly(c, InvalidArgument, "query_items", **q, filter="Status is Done")
    assert err.parameter == "filter" and "Status eq 'In progress'" in err.message
    err = fails_cleanly(c, InvalidArgument, "query_items", **q, filter="Colour eq 'red'")
    assert "'Contract value'" in err.message
    err = fails_cleanly(c, InvalidArgument, "query_items", **q, filter="Due lt 'next week'")
    assert "column 'Due'" in err.message
    err = fails_cleanly(c, InvalidArgument, "query_items", **q, filter="Contract value contains '5'")
    assert "contains works on" in err.message
    err = fails_cleanly(c, InvalidArgument, "query_items", **q, equals=["Status"])
    assert err.parameter == "equals"
    err = fails_cleanly(c, InvalidArgument, "query_items", **q, order_by="Price")
    assert err.parameter == "order_by"


def test_create_item_checks_every_column():
    c = ctx()
    out = call(c, "create_item", site="Operations", list_name="Vendor onboarding", fields=[
        "Vendor=Alpine Ski House", "owner=Ruby Walker", "Status=not started", "Due=2026/03/27",
        "Contract value=$5,400.50", "W-9 received=no"])  # fmt: skip
    assert out["id"] == "item_n1"
    assert out["fields"] == {"Vendor": "Alpine Ski House", "Owner": "ruby.walker@northwind.example",
                             "Status": "Not started", "Due": "2026-03-27", "Contract value": 5400.5,
                             "W-9 received": False, "Notes": None}  # fmt: skip
    rec = c.state.items["item_n1"]
    assert rec.values["Contract value"] == 5400.5 and "Notes" not in rec.values and rec.created_by == USER


@pytest.mark.parametrize(
    ("field", "words"),
    [
        ("Status=Finished", "'Not started', 'In progress', 'Done'"),
        ("Due=March 27", "column 'Due' takes a date"),
        ("Contract value=lots", "column 'Contract value' takes a number"),
        ("W-9 received=maybe", "column 'W-9 received' takes yes or no"),
        ("Owner=Jane Nobody", "column 'Owner' takes a person"),
        ("Colour=red", "no column 'Colour'"),
        ("Vendor", "is not Column=value"),
    ],
)
def test_create_item_errors_name_the_column(field, words):
    c = ctx()
    given = {"Vendor": "Alpine", "Owner": "Ruby Walker", "Status": "Done"}
    name, _, value = field.partition("=")
    given[name] = value
    fields = [field] if "=" not in field else [f"{k}={v}" for k, v in given.items()]
    err = fails_cleanly(c, InvalidArgument, "create_item", site="Operations", list_name="Vendor onboarding",
                        fields=fields)  # fmt: skip
    assert err.parameter == "fields" and words in err.message


def test_create_item_required_columns_and_patterns():
    c = ctx()
    err = fails_cleanly(c, InvalidArgument, "create_item", site="Operations", list_name="Vendor onboarding",
                        fields=["Vendor=Alpine"])  # fmt: skip
    assert "Owner, Status" in err.message
    base = ["Title=OKR check-in", "Room=Hudson Room", "Date=2026-03-11", "End=17:00", "Booked by=Alex Morgan"]
    err = fails_cleanly(c, InvalidArgument, "create_item", site="Operations", list_name="Room bookings",
                        fields=[*base, "Start=4pm"])  # fmt: skip
    assert "column 'Start' must be a 24-hour time HH:MM" in err.message
    err = fails_cleanly(c, InvalidArgument, "create_item", site="Operations", list_name="Room bookings",
                        fields=[*base, "Start=16:00", "start=16:30"])  # fmt: skip
    assert "given twice" in err.message
    fails_cleanly(c, InvalidArgument, "create_item", site="Operations", list_name="Room bookings", fields=[])
    set_role(c, "site_operations", "read")
    err = fails_cleanly(c, Conflict, "create_item", site="Operations", list_name="Room bookings",
                        fields=[*base, "Start=16:00"])  # fmt: skip
    assert "read access" in err.message


def test_person_columns_without_a_directory_take_emails():
    c = ctx(with_directory=False)
    out = call(c, "update_item", item_id="vendor_05", fields=["Owner=Amelia.Ward@northwind.example"])
    assert out["fields"]["Owner"] == "amelia.ward@northwind.example"
    fails_cleanly(c, InvalidArgument, "update_item", item_id="vendor_05", fields=["Owner=Amelia Ward"])


def test_update_item_changes_only_what_is_given():
    c = ctx()
    out = call(c, "update_item", item_id="vendor_02", fields=["Status=Done", "W-9 received=yes", "Notes="])
    assert out["changed"] == ["Status", "W-9 received", "Notes"]
    assert out["fields"]["Due"] == "2026-03-13" and out["fields"]["Notes"] is None
    rec = c.state.items["vendor_02"]
    assert rec.values["W-9 received"] is True and "Notes" not in rec.values
    assert rec.modified == NOW and rec.modified_by == USER
    same = call(c, "update_item", item_id="vendor_02", fields=["Status=Done"])
    assert same["changed"] == []


def test_update_and_delete_item_errors():
    c = ctx()
    err = fails_cleanly(c, NotFound, "update_item", item_id="vendor_99", fields=["Status=Done"])
    assert err.parameter == "item_id" and "query-items" in err.message
    err = fails_cleanly(c, InvalidArgument, "update_item", item_id="vendor_02", fields=["Vendor="])
    assert "required" in err.message
    fails_cleanly(c, InvalidArgument, "update_item", item_id="vendor_02", fields=[])
    set_role(c, "site_finance", "read")
    fails_cleanly(c, Conflict, "update_item", item_id="inv_03", fields=["Status=Approved"])
    fails_cleanly(c, Conflict, "delete_item", item_id="inv_03")


def test_delete_item():
    c = ctx()
    out = call(c, "delete_item", item_id="room_11")
    assert out["deleted"] == "room_11" and out["fields"]["Title"] == "Team lunch: executive office"
    assert "room_11" not in c.state.items
    assert call(c, "list_lists", site="Operations")["lists"][0]["items"] == 10
    fails_cleanly(c, NotFound, "delete_item", item_id="room_11")
