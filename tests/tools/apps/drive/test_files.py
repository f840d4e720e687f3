from datetime import datetime

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.drive.conftest import XLSX, content, names
from tools.companies import NOW, USER
from tools.kernel.documents import make_xlsx, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

#: The one refusal of file bytes pasted as text (tools.kits.files.refuse_encoded).
REFUSAL = (
    "looks like file content pasted as base64 or a data: URI; files are not pasted as text: "
    "save the file in your workspace and pass path=<its workspace path> instead"
)


def test_search_files_by_name_type_and_folder():
    out = call(app_ctx("drive"), "search_files", query="budget", mime_type="csv", folder_id="fld_finance")
    assert names(out["results"]) == ["Q2 budget draft.csv"]
    assert out["results"][0]["owner"] == "grace.kim@northwind.example"
    assert out["results"][0]["parent_id"] == "fld_budgets"
    books = call(app_ctx("drive"), "search_files", query="budget", mime_type="spreadsheet")
    assert names(books["results"]) == ["Q1 budget.xlsx"]


def test_search_files_matches_content_words_in_any_order():
    out = call(app_ctx("drive"), "search_files", query="fabrikam INV-20417")
    assert names(out["results"]) == ["Vendor invoices - February.csv"]


def test_search_files_reads_inside_documents():
    c = app_ctx("drive")
    assert names(call(c, "search_files", query="Claire Donovan")["results"]) == ["Lakeside Lodge contract (signed).pdf"]
    assert names(call(c, "search_files", query="453600")["results"]) == []  # only in an earlier version
    assert names(call(c, "search_files", query="lender call")["results"]) == []  # comments are not file text
    hits = names(call(c, "search_files", query="leadership offsite", mime_type="sheet")["results"])
    assert hits == ["Q1 budget.xlsx"]
    assert names(call(c, "search_files", query="15 days of paid time off")["results"]) == [
        "Employee handbook 2026.docx"
    ]


def test_search_files_newest_first_and_pages():
    c = app_ctx("drive")
    everything = call(c, "search_files", page_size=100)["results"]
    stamps = [datetime.fromisoformat(r["modified"]) for r in everything]
    assert stamps == sorted(stamps, reverse=True)
    assert everything[0]["name"] == "Chief of staff weekly priorities.md"
    second = call(c, "search_files", page=2, page_size=10)
    assert second["results"] == everything[10:20]
    assert second["total"] == 111 and second["next_page"] == 3


def test_search_files_leaves_out_trash_unless_asked():
    c = app_ctx("drive")
    assert call(c, "search_files", query="Q4 2025 budget draft")["total"] == 0
    out = call(c, "search_files", query="Q4 2025 budget draft", include_trashed=True)
    assert names(out["results"]) == ["Q4 2025 budget draft.csv"]
    assert out["results"][0]["trashed"] is True


def test_search_files_by_owner_kind_and_shared_drive():
    c = app_ctx("drive")
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
    c = app_ctx("drive")
    with pytest.raises(NotFound) as err:
        call(c, "search_files", folder_id="fld_nope")
    assert err.value.parameter == "folder_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_files", folder_id="file_q1_budget")
    assert err.value.parameter == "folder_id" and "not a folder" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_files", kind="document")
    assert err.value.parameter == "kind"


def test_get_file_shows_path_version_and_inherited_access():
    out = call(app_ctx("drive"), "get_file", file_id="file_q1_budget")
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
    out = call(app_ctx("drive"), "get_file", file_id="file_atlas_cutover_runbook_v1_2")
    assert out["path"] == "/Shared drives/Atlas Program/Atlas cutover runbook v1.2.pdf"
    assert out["shared_drive"] == {"id": "sd_atlas_program", "name": "Atlas Program"}
    assert out["permissions"] == []
    assert {"email": USER, "role": "writer", "from_shared_drive_id": "sd_atlas_program"} in out["inherited_permissions"]
    assert out["open_comments"] == 1


def test_get_file_access_levels():
    c = app_ctx("drive")
    assert call(c, "get_file", file_id="file_engineering_leads_notes_2026_03_05")["your_access"] == "commenter"
    assert call(c, "get_file", file_id="file_atlas_migration_plan")["your_access"] == "writer"
    assert call(c, "get_file", file_id="file_nda_template")["your_access"] == "reader"
    assert call(c, "get_file", file_id="file_reading_list")["your_access"] == "owner"
    assert call(c, "get_file", file_id="file_board_deck_outline_q1_2026")["your_access"] == "writer"
    assert call(c, "get_file", file_id="file_employee_handbook_2026")["your_access"] == "commenter"
    assert call(c, "get_file", file_id="file_price_list_2026")["your_access"] == "writer"


def test_get_file_unknown_id():
    with pytest.raises(NotFound) as err:
        call(app_ctx("drive"), "get_file", file_id="file_nope")
    assert err.value.parameter == "file_id" and "search-files" in err.value.message


def test_read_file_inline_without_workspace():
    out = call(app_ctx("drive"), "read_file", file_id="file_vendor_list")
    assert out["name"] == "Vendor list.csv" and out["converted"] is False
    assert out["content"].startswith("Vendor,Category,Contact")
    assert "Contoso Ltd,Warehouse software partner" in out["content"]
    assert out["size"] == len(out["content"].encode())


def test_read_file_converts_documents_to_text():
    c = app_ctx("drive")
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
    c = app_ctx("drive", files)
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
        call(app_ctx("drive"), "read_file", file_id="fld_budgets")
    assert err.value.parameter == "file_id" and "list-folder" in err.value.message


def test_download_file_saves_exact_bytes():
    files = MemoryFiles()
    c = app_ctx("drive", files)
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
    c = app_ctx("drive")
    assert call(c, "download_file", file_id="file_reading_list")["content"].startswith("Reading list")
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", file_id="file_q1_budget")
    assert err.value.parameter == "file_id" and "read-file" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "download_file", file_id="fld_finance")


def test_create_file_from_text():
    c = app_ctx("drive")
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
    c = app_ctx("drive", files)
    out = call(c, "create_file", name="Summary.csv", parent_id="fld_budgets", path="out/summary.csv")
    assert out["mime_type"] == "text/csv" and out["size"] == 8
    assert content(c, out["id"]) == b"a,b\n1,2\n"
    wb = call(c, "create_file", name="Q2 lines.xlsx", parent_id="fld_budgets", path="out/q2.xlsx")
    assert wb["mime_type"] == XLSX and read_cell(content(c, wb["id"]), "Q2", "B2") == 40000


def test_create_file_input_errors():
    c = app_ctx("drive", MemoryFiles({"bin.dat": b"\xff\xfe\x00"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt", content="x", path="bin.dat")
    assert err.value.parameter == "content"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="a.txt")
    assert err.value.parameter == "content"
    with pytest.raises(NotFound):
        call(c, "create_file", name="a.txt", path="missing.txt")
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("drive"), "create_file", name="a.txt", path="x.txt")
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
    c = app_ctx("drive")
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_file", name="Q1.xlsx", content=pasted)
    assert err.value.parameter == "content" and err.value.message == REFUSAL
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_file", file_id="file_reading_list", content=pasted)
    assert err.value.parameter == "content" and err.value.message == REFUSAL
    assert c.world.snapshot() == before
    # ordinary text that happens to be long is fine
    assert call(c, "create_file", name="ok.txt", content="word " * 40)["size"] == 200


def test_upload_file_new_and_into_shared_drive():
    files = MemoryFiles({"downloads/INV-20417.txt": b"Invoice INV-20417\nTotal: $12,480.00\n"})
    c = app_ctx("drive", files)
    out = call(c, "upload_file", path="downloads/INV-20417.txt", parent_id="fld_invoices")
    assert out["result"] == "created" and out["name"] == "INV-20417.txt"
    assert out["path"] == "/Finance/Invoices/INV-20417.txt" and out["mime_type"] == "text/plain"
    assert content(c, out["id"]) == files.files["downloads/INV-20417.txt"]
    sd = call(c, "upload_file", path="downloads/INV-20417.txt", parent_id="sd_atlas_program", name="Invoice copy.txt")
    assert sd["shared_drive"] == {"id": "sd_atlas_program", "name": "Atlas Program"}
    assert c.state.files[sd["id"]].permissions == []


def test_upload_file_conflict_modes():
    files = MemoryFiles({"q2.csv": b"Department,Category,Q2 proposed (USD)\nEngineering,Contractors,45000\n"})
    c = app_ctx("drive", files)
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
    c = app_ctx("drive", MemoryFiles({"a.txt": b"x"}))
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("drive"), "upload_file", path="a.txt")
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
    c = app_ctx("drive")
    out = call(c, "update_file", file_id="file_reading_list", content="Reading list\n- Range - David Epstein\n")
    assert out["version"] == 2 and out["size"] == 37
    assert content(c, "file_reading_list") == b"Reading list\n- Range - David Epstein\n"
    history = call(c, "list_versions", file_id="file_reading_list")
    assert [v["version"] for v in history["versions"]] == [2, 1]
    assert history["versions"][1]["modified_by"] == USER and history["versions"][0]["current"] is True


def test_update_file_errors():
    c = app_ctx("drive")
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
    c = app_ctx("drive")
    same = call(c, "copy_file", file_id="file_nda_template")
    assert same["name"] == "Copy of NDA template.docx" and same["parent_id"] == "root"
    assert same["owner"] == USER and same["version"] == 1 and same["open_comments"] == 0
    assert c.state.files[same["id"]].blob == c.state.files["file_nda_template"].blob
    sd = call(c, "copy_file", file_id="file_q1_budget", parent_id="sd_atlas_program", name="Q1 budget (Eng).xlsx")
    assert sd["path"] == "/Shared drives/Atlas Program/Q1 budget (Eng).xlsx" and sd["mime_type"] == XLSX
    assert read_cell(content(c, sd["id"]), "Engineering", "B2") == 186000
    assert c.state.files["file_q1_budget"].parent_id == "fld_budgets"


def test_copy_file_errors():
    c = app_ctx("drive")
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


def test_move_file_into_another_folder():
    c = app_ctx("drive")
    out = call(c, "move_file", file_id="file_offsite_venue_options", new_parent_id="fld_archive")
    assert out["path"] == "/Archive/Offsite venue options.csv"
    assert c.state.files["file_offsite_venue_options"].modified == NOW
    assert "Offsite venue options.csv" not in names(call(c, "list_folder", folder_id="fld_offsite_2026")["results"])
    back = call(c, "move_file", file_id="file_offsite_venue_options", new_parent_id="root")
    assert back["path"] == "/Offsite venue options.csv" and back["parent_id"] == "root"


def test_move_folder_carries_contents():
    c = app_ctx("drive")
    call(c, "move_file", file_id="fld_offsite_2026", new_parent_id="fld_archive")
    assert (
        call(c, "get_file", file_id="file_offsite_agenda_draft")["path"]
        == "/Archive/Offsite 2026/Offsite agenda draft.md"
    )


def test_move_within_a_shared_drive():
    c = app_ctx("drive")
    out = call(c, "move_file", file_id="file_atlas_cost_tracker", new_parent_id="fld_load_test")
    assert out["path"] == "/Shared drives/Atlas Program/Load test/Atlas cost tracker.xlsx"
    top = call(c, "move_file", file_id="file_atlas_cost_tracker", new_parent_id="sd_atlas_program")
    assert top["parent_id"] == "sd_atlas_program"


def test_move_folder_into_itself_or_descendant_is_refused():
    c = app_ctx("drive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="fld_shared", new_parent_id="fld_offsite_2026")
    assert err.value.parameter == "new_parent_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_file", file_id="fld_shared", new_parent_id="fld_shared")
    assert err.value.parameter == "new_parent_id"


def test_move_file_errors():
    c = app_ctx("drive")
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
    c = app_ctx("drive")
    out = call(c, "rename_file", file_id="file_q2_budget_draft", new_name="Q2 budget.csv")
    assert out["name"] == "Q2 budget.csv" and out["path"] == "/Finance/Budgets/Q2 budget.csv"
    assert c.state.files["file_q2_budget_draft"].modified == NOW


def test_rename_file_errors():
    c = app_ctx("drive")
    with pytest.raises(Conflict) as err:
        call(c, "rename_file", file_id="file_q2_budget_draft", new_name="q1 BUDGET.xlsx")
    assert err.value.parameter == "new_name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "rename_file", file_id="file_q2_budget_draft", new_name="")
    assert err.value.parameter == "new_name"
    with pytest.raises(Conflict):
        call(c, "rename_file", file_id="file_customer_health_scores", new_name="Health.csv")
