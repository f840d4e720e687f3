import pytest

from tests.tools.apps.box.conftest import names
from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# ---- list a folder ----------------------------------------------------------------------------------


def test_list_folder_root_hides_what_you_cannot_see():
    out = call(app_ctx("box"), "list_folder")
    assert out["folder"] == {"id": "0", "name": "All Files", "path": "/"}
    assert names(out["results"]) == [
        "Finance",
        "Legal",
        "Partners",
        "SOC 2 evidence - Crestview",
        "Chief of staff - open decisions.docx",
    ]


def test_list_folder_sorts_folders_first_and_pages():
    c = app_ctx("box")
    out = call(c, "list_folder", folder_id="folder_finance", sort="date", direction="desc", page_size=3)
    assert names(out["results"]) == ["Payments", "Vendor invoices", "CT-2291 renewal pricing model.xlsx"]
    assert out["total"] == 3 and out["next_page"] is None
    feb = call(c, "list_folder", folder_id="folder_invoices_2026_02", sort="size", page_size=5)
    sizes = [r["size"] for r in feb["results"]]
    assert sizes == sorted(sizes) and feb["total"] == 8 and feb["next_page"] == 2
    assert feb["folder"]["path"] == "/Finance/Vendor invoices/2026-02"


def test_list_folder_hides_trash():
    out = call(app_ctx("box"), "list_folder", folder_id="folder_payments")
    assert names(out["results"]) == ["Payment run 2026-03-06.csv", "Vendor payments 2026.xlsx"]
    assert out["results"][0]["id"] == "file_payment_run_2026_03_06"


def test_list_folder_errors():
    c = app_ctx("box")
    with pytest.raises(NotFound) as err:
        call(c, "list_folder", folder_id="folder_compensation")
    assert err.value.parameter == "folder_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_folder", folder_id="file_inv_20417")
    assert "not a folder" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "list_folder", folder_id="folder_soc2_evidence")
    assert "uploader" in err.value.message and "kai.nakamura" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "list_folder", folder_id="folder_contoso_old_drafts")
    assert "trash" in err.value.message


# ---- create a folder --------------------------------------------------------------------------------


def test_create_folder():
    c = app_ctx("box")
    out = call(c, "create_folder", name="2026-04", parent_id="folder_vendor_invoices", description="April")
    assert out["id"] == "folder_n1" and out["path"] == "/Finance/Vendor invoices/2026-04"
    assert out["owner"] == "priya.shah@northwind.example" and out["description"] == "April"
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="2026-04", parent_id="folder_vendor_invoices")
    assert "folder_n1" in err.value.message
    with pytest.raises(Conflict):
        call(c, "create_folder", name="Drafts", parent_id="folder_signed_ndas")
    with pytest.raises(NotFound):
        call(c, "create_folder", name="x", parent_id="folder_contoso_old_drafts")
    assert call(c, "create_folder", name="Board")["parent_id"] == "0"
