import pytest

from tests.tools.apps.box.conftest import names
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# ---- folders, move, copy, rename --------------------------------------------------------------------


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


def test_move_item():
    c = app_ctx("box")
    out = call(c, "move_item", item_id="file_inv_20463", folder_id="folder_invoices_2026_03")
    assert out["path"] == "/Finance/Vendor invoices/2026-03/INV-20463 Fabrikam Logistics.pdf"
    assert c.state.files["file_inv_20463"].modified == NOW
    assert call(c, "list_folder", folder_id="folder_invoices_2026_02")["total"] == 7


def test_move_item_errors():
    c = app_ctx("box")
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_item", item_id="folder_partners", folder_id="folder_partners_contoso")
    assert err.value.parameter == "folder_id"
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="file_inv_20417", folder_id="folder_invoices_2026_02")
    assert "already in that folder" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="file_mutual_nda_template", folder_id="folder_partners")
    assert err.value.parameter == "item_id" and "viewer" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="file_inv_20417", folder_id="folder_signed_ndas")
    assert err.value.parameter == "folder_id"
    call(c, "create_folder", name="2026-02", parent_id="folder_partners")
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="folder_invoices_2026_02", folder_id="folder_partners")
    assert "already has folder '2026-02'" in err.value.message


def test_copy_file_and_folder():
    c = app_ctx("box")
    copy = call(c, "copy_item", item_id="file_mutual_nda_template", folder_id="folder_partners_lakeside")
    assert copy["name"] == "Mutual NDA template 2026-01.docx" and copy["owner"] == USER
    assert copy["shared_link"] is None and copy["version_number"] == 1
    assert c.state.files[copy["id"]].blob == c.state.files["file_mutual_nda_template"].blob
    tree = call(c, "copy_item", item_id="folder_partners_lakeside", folder_id="0", new_name="Offsite 2026")
    assert tree["item_count"] == 3 and tree["collaborators"] == 0 and tree["shared_link"] is None
    assert sorted(names(call(c, "list_folder", folder_id=tree["id"])["results"])) == [
        "Lakeside Lodge event order NWT-4471.pdf",
        "Mutual NDA template 2026-01.docx",
        "Offsite rooming list.xlsx",
    ]


def test_copy_item_errors():
    c = app_ctx("box")
    with pytest.raises(Conflict) as err:
        call(c, "copy_item", item_id="file_inv_20417", folder_id="folder_invoices_2026_02")
    assert err.value.parameter == "folder_id" and "pick another name" in err.value.message
    same = call(c, "copy_item", item_id="file_inv_20417", folder_id="folder_invoices_2026_02",
                new_name="INV-20417 Fabrikam Logistics (copy).pdf")  # fmt: skip
    assert same["parent_id"] == "folder_invoices_2026_02"
    with pytest.raises(InvalidArgument) as err:
        call(c, "copy_item", item_id="folder_partners", folder_id="folder_partners_fabrikam")
    assert "into itself" in err.value.message


def test_rename_item():
    c = app_ctx("box")
    out = call(c, "rename_item", item_id="file_payment_run_2026_03_06", new_name="Payment run 2026-03-06 (final).csv")
    assert out["name"] == "Payment run 2026-03-06 (final).csv" and c.state.files[out["id"]].modified == NOW
    with pytest.raises(InvalidArgument) as err:
        call(c, "rename_item", item_id="file_inv_20417", new_name="INV-20417.docx")
    assert "keep the extension .pdf" in err.value.message
    with pytest.raises(Conflict):
        call(c, "rename_item", item_id="file_inv_20417", new_name="INV-20417 Fabrikam Logistics.pdf")
    with pytest.raises(Conflict) as err:
        call(c, "rename_item", item_id="file_inv_20417", new_name="inv-20388 proseware recruiting.PDF")
    assert "file_inv_20388" in err.value.message
    folder = call(c, "rename_item", item_id="folder_partners_lakeside", new_name="Lakeside Lodge (offsite)")
    assert folder["path"] == "/Partners/Lakeside Lodge (offsite)"
