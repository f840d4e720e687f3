import base64
from datetime import datetime

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.box.conftest import DOCX, names
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.documents import extract_text, make_pdf
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# ---- show an item ---------------------------------------------------------------------------------


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


# ---- download -------------------------------------------------------------------------------------


def test_download_text_inline_without_workspace():
    out = call(app_ctx("box"), "download_file", file_id="file_payment_run_2026_03_06")
    assert out["content"].startswith("payment_id,invoice,vendor")
    assert "PAY-30613" in out["content"] and out["size"] == len(out["content"])


def test_download_binary_needs_a_workspace():
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("box"), "download_file", file_id="file_inv_20417")
    assert err.value.parameter == "save_as" and "workspace" in err.value.message


def test_download_into_workspace_current_and_older_version():
    files = MemoryFiles()
    c = app_ctx("box", files)
    out = call(c, "download_file", file_id=DOCX)
    assert out == {
        "id": DOCX,
        "name": "CT-2291 Contoso renewal agreement.docx",
        "version_number": 3,
        "mime_type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "saved_to": "downloads/CT-2291 Contoso renewal agreement.docx",
        "size": c.state.files[DOCX].size,
    }
    assert "CPI" in extract_text(files.files[out["saved_to"]], "a.docx")
    old = call(c, "download_file", file_id=DOCX, version=2, save_as="work/v2.docx")
    assert old["saved_to"] == "work/v2.docx" and old["version_number"] == 2
    assert "fixed for years 2 and 3" in extract_text(files.files["work/v2.docx"], "a.docx")


def test_download_errors():
    c = app_ctx("box", MemoryFiles())
    with pytest.raises(NotFound) as err:
        call(c, "download_file", file_id=DOCX, version=9)
    assert err.value.parameter == "version" and "1 to 3" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "download_file", file_id="file_access_review_q4")
    assert "uploader" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", file_id="folder_legal")
    assert "folder" in err.value.message


def test_previewer_can_look_but_not_download():
    c = app_ctx("box", MemoryFiles())
    c.state.collaborations["collab_alex_legal"].role = "previewer"
    assert call(c, "list_folder", folder_id="folder_legal_templates")["total"] == 3
    with pytest.raises(Conflict) as err:
        call(c, "download_file", file_id="file_mutual_nda_template")
    assert "previewer" in err.value.message


# ---- uploads --------------------------------------------------------------------------------------


def test_upload_text_file_inline():
    c = app_ctx("box")
    out = call(c, "upload_file", folder_id="folder_payments", name="Notes.md", content="# Notes\n- INV-20417\n")
    assert out["id"] == "file_n1" and out["mime_type"] == "text/markdown" and out["size"] == 20
    assert out["owner"] == "priya.shah@northwind.example" and out["created_by"] == USER
    assert out["path"] == "/Finance/Payments/Notes.md" and out["version_number"] == 1
    assert call(c, "download_file", file_id="file_n1")["content"] == "# Notes\n- INV-20417\n"
    assert [v.number for v in c.state.versions.values() if v.file_id == "file_n1"] == [1]


def test_upload_document_from_workspace_takes_name_from_path():
    pdf = make_pdf("Invoice INV-20480", ["Total due: $980.00"])
    c = app_ctx("box", MemoryFiles({"downloads/INV-20480 Contoso Cafe.pdf": pdf}))
    out = call(c, "upload_file", folder_id="folder_invoices_2026_03", path="downloads/INV-20480 Contoso Cafe.pdf")
    assert out["name"] == "INV-20480 Contoso Cafe.pdf" and out["mime_type"] == "application/pdf"
    assert c.blobs.get(c.state.files[out["id"]].blob) == pdf
    assert call(c, "search", query="980.00")["results"][0]["id"] == out["id"]
    top = call(c, "upload_file", name="Scratch.pdf", path="downloads/INV-20480 Contoso Cafe.pdf")
    assert top["parent_id"] == "0" and top["owner"] == USER


def test_upload_into_uploader_folder_is_allowed():
    c = app_ctx("box")
    out = call(c, "upload_file", folder_id="folder_soc2_evidence", name="CR-04 vendor reviews.csv", content="a,b\n")
    assert out["owner"] == "kai.nakamura@northwind.example" and out["your_role"] == "uploader"


def test_upload_refuses_base64_and_data_uris():
    c = app_ctx("box", MemoryFiles())
    encoded = base64.b64encode(make_pdf("x", ["y"])).decode()
    for pasted in (encoded, "data:application/pdf;base64," + encoded[:40]):
        with pytest.raises(InvalidArgument) as err:
            call(c, "upload_file", folder_id="folder_payments", name="x.csv", content=pasted)
        assert err.value.parameter == "content" and err.value.message == (
            "looks like file content pasted as base64 or a data: URI; files are not pasted as text: "
            "save the file in your workspace and pass path=<its workspace path> instead"
        )
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_version", file_id="file_payment_run_2026_03_06", content=encoded)
    assert "save the file in your workspace" in err.value.message


def test_upload_errors():
    c = app_ctx("box", MemoryFiles({"a.txt": b"plain words", "good.csv": b"x\n"}))
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", folder_id="folder_payments", name="payment RUN 2026-03-06.csv", content="x")
    assert "upload-version" in err.value.message and "file_payment_run_2026_03_06" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments", name="Memo.docx", content="hello")
    assert err.value.parameter == "content" and "path=" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments", name="Memo.pdf", path="a.txt")
    assert err.value.parameter == "path" and ".pdf" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", folder_id="folder_legal_templates", name="x.md", content="x")
    assert "viewer" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments")
    assert err.value.parameter == "name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments", name="a/b.md", content="x")
    assert err.value.parameter == "name" and err.value.message == "'a/b.md' contains /; names cannot contain / \\"
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments", name="notes.", content="x")
    assert err.value.parameter == "name" and "end with a dot" in err.value.message
    with pytest.raises(NotFound):
        call(c, "upload_file", folder_id="folder_payments", path="missing.csv")
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("box"), "upload_file", folder_id="folder_payments", path="good.csv")
    assert err.value.parameter == "path" and "no workspace" in err.value.message


# ---- move, copy, rename ---------------------------------------------------------------------------


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
