import pytest

from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.drive.conftest import names
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


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


def test_create_folder_in_root_folder_and_shared_drive():
    c = app_ctx("drive")
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
        call(app_ctx("drive"), "create_folder", name="  finance ")
    assert err.value.parameter == "name" and "fld_finance" in err.value.message


def test_create_folder_bad_parent_and_name():
    c = app_ctx("drive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="a/b")
    assert err.value.parameter == "name" and err.value.message == "'a/b' contains /; names cannot contain /"
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
