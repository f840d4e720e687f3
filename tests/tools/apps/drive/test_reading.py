from datetime import datetime

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.drive.conftest import XLSX, content, names
from tools.companies import USER
from tools.kernel.documents import read_cell
from tools.kernel.exceptions import InvalidArgument, NotFound


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


def test_list_folder_root_folders_first_then_files_without_trash():
    out = call(app_ctx("drive"), "list_folder")
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
    out = call(app_ctx("drive"), "list_folder", folder_id="fld_finance", page_size=4)
    assert out["folder"]["path"] == "/Finance"
    assert names(out["results"]) == ["Budgets", "Forecasts", "Invoices", "Audit prep checklist.md"]
    assert out["total"] == 5 and out["next_page"] == 2


def test_list_folder_shared_drive_top_and_subfolder():
    c = app_ctx("drive")
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
    c = app_ctx("drive")
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
