from datetime import datetime

import pytest

from tests.tools.apps.box.conftest import DOCX, names
from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# ---- browsing -------------------------------------------------------------------------------------


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


def test_get_item_shows_path_role_and_link():
    c = app_ctx("box")
    out = call(c, "get_item", item_id="file_contoso_proposed_terms")
    assert out["path"] == "/Partners/Contoso/Contoso renewal - proposed terms.pdf"
    assert [p["id"] for p in out["path_collection"]] == ["0", "folder_partners", "folder_partners_contoso"]
    assert out["your_role"] == "owner" and out["comments"] == 2 and out["versions"] == 1
    link = out["shared_link"]
    assert link["access"] == "open" and link["password_protected"] is True and link["expires"] == "2026-03-31"
    assert link["url"].startswith("https://northwind.app.box.com/s/")
    folder = call(c, "get_item", item_id="folder_partners_lakeside")
    assert (
        folder["item_count"] == 2
        and folder["collaborators"] == 2
        and folder["shared_link"]["access"] == "collaborators"
    )


def test_roles_follow_collaborations_down_the_tree():
    c = app_ctx("box")
    roles = {i: call(c, "get_item", item_id=i)["your_role"] for i in (
        "folder_legal", "file_mutual_nda_template", "folder_contracts", DOCX, "file_inv_20417",
        "folder_partners_fabrikam", "folder_soc2_evidence", "file_access_review_q4",
    )}  # fmt: skip
    assert roles == {
        "folder_legal": "viewer",
        "file_mutual_nda_template": "viewer",
        "folder_contracts": "editor",
        DOCX: "editor",
        "file_inv_20417": "editor",
        "folder_partners_fabrikam": "owner",
        "folder_soc2_evidence": "uploader",
        "file_access_review_q4": "uploader",
    }


def test_get_item_errors():
    c = app_ctx("box")
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item_id="file_comp_bands_2026")
    assert err.value.parameter == "item_id" and "box search" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item_id="file_fabrikam_coi_2026")
    assert "list-trash" in err.value.message
    with pytest.raises(NotFound):
        call(c, "get_item", item_id="file_ct2291_early_outline")  # inside a trashed folder


# ---- search ---------------------------------------------------------------------------------------


def test_search_reads_document_text():
    out = call(app_ctx("box"), "search", query="Fabrikam 12,480", file_extensions=["pdf"])
    assert [r["id"] for r in out["results"]] == ["file_inv_20417"]
    hit = out["results"][0]
    assert hit["matched_in"] == ["content"] and "inv-20417" in hit["snippet"]
    assert hit["path"] == "/Finance/Vendor invoices/2026-02/INV-20417 Fabrikam Logistics.pdf"


def test_search_phrases_names_first_then_newest():
    c = app_ctx("box")
    out = call(c, "search", query='"CPI-U"')
    assert [r["id"] for r in out["results"]] == [DOCX]
    contoso = call(c, "search", query="CT-2291", page_size=100)["results"]
    by_name = [r for r in contoso if "name" in r["matched_in"]]
    assert contoso[: len(by_name)] == by_name and len(by_name) == 7  # 6 files and the "Contoso Ltd" folder
    stamps = [datetime.fromisoformat(r["modified"]) for r in by_name]
    assert stamps == sorted(stamps, reverse=True)


def test_search_filters():
    c = app_ctx("box")
    xlsx = call(c, "search", file_extensions=[".XLSX"], page_size=50)
    assert sorted(names(xlsx["results"])) == [
        "CT-2291 renewal pricing model.xlsx",
        "Contoso warehouse go-live status.xlsx",
        "Fabrikam rate card 2026.xlsx",
        "Fabrikam shipping schedule March 2026.xlsx",
        "Offsite rooming list.xlsx",
        "Vendor payments 2026.xlsx",
    ]  # not the compensation bands (no access) nor the SOC 2 workbook (uploader only)
    folders = call(c, "search", query="contoso", item_type="folder")
    assert sorted(names(folders["results"])) == ["Contoso", "Contoso Ltd"]
    inside = call(c, "search", query="invoice", folder_id="folder_invoices_2026_03", search_in="content")
    assert sorted(names(inside["results"])) == [
        "INV-20455 Litware Cloud Services.pdf",
        "INV-20459 Wide World Importers.pdf",
        "INV-20470 Proseware Recruiting.pdf",
    ]
    mine = call(c, "search", owner="alex.morgan", item_type="file", page_size=50)
    assert mine["total"] == 7
    only_names = call(c, "search", query="PO-88213", search_in="name")
    assert only_names["total"] == 0
    assert call(c, "search", query="PO-88213", search_in="content")["total"] >= 4


def test_search_skips_trash():
    c = app_ctx("box")
    assert call(c, "search", query="certificate of insurance")["total"] == 0
    assert call(c, "search", query="early outline")["total"] == 0
    call(c, "restore_item", item_id="file_fabrikam_coi_2026")
    assert names(call(c, "search", query="Humongous")["results"]) == ["Fabrikam certificate of insurance 2026.pdf"]
