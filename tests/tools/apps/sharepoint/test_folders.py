from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.sharepoint.conftest import ctx, names, set_role
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


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
    err = unchanged(c, "list_library", NotFound, site="Operations", folder="Nope")
    assert err.parameter == "folder"
    err = unchanged(c, "list_library", InvalidArgument, site="Operations", folder="doc_ops_weekly_2026_03_06")
    assert err.parameter == "folder" and "not a folder" in err.message
    err = unchanged(c, "list_library", InvalidArgument, site="Operations", folder="folder_finance_invoices")
    assert "not in the library" in err.message
    err = unchanged(c, "list_library", NotFound, site="Operations", library="Site Pages")
    assert err.parameter == "library" and "'Documents'" in err.message


def test_create_folder():
    c = ctx()
    out = call(c, "create_folder", site="Operations", name="Quotes", folder="Vendor management")
    assert out["id"] == "folder_n1" and out["path"] == "Documents/Vendor management/Quotes" and out["items"] == 0
    err = unchanged(c, "create_folder", Conflict, site="Operations", name="quotes", folder="Vendor management")
    assert err.parameter == "name" and out["id"] in err.message
    err = unchanged(c, "create_folder", InvalidArgument, site="Operations", name="Q?")
    assert err.parameter == "name" and "'Q?' contains ?; names cannot contain" in err.message
    set_role(c, "site_people", "read")
    unchanged(c, "create_folder", Conflict, site="People & Culture", name="New")
