import base64

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.box.conftest import DOCX
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.documents import extract_text, make_docx, make_pdf
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# ---- download and versions -----------------------------------------------------------------------


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


def test_list_versions_newest_first():
    out = call(app_ctx("box"), "list_versions", file_id=DOCX)
    assert out["current_version"] == 3
    assert [(v["number"], v["current"], v["uploaded_by"]) for v in out["versions"]] == [
        (3, True, "hannah.wood@northwind.example"),
        (2, False, "maya.young@northwind.example"),
        (1, False, "maya.young@northwind.example"),
    ]


def test_promote_version_copies_it_as_newest():
    c = app_ctx("box")
    v2 = c.state.versions["ver_ct2291_agreement_docx_2"].blob
    out = call(c, "promote_version", file_id=DOCX, version=2)
    assert out["version_number"] == 4 and out["promoted_from"] == 2 and out["modified_by"] == USER
    f = c.state.files[DOCX]
    assert f.blob == v2 and f.modified == NOW
    newest = [v for v in c.state.versions.values() if v.file_id == DOCX and v.number == 4]
    assert len(newest) == 1 and newest[0].promoted_from == 2 and newest[0].blob == v2
    assert len(call(c, "list_versions", file_id=DOCX)["versions"]) == 4


def test_promote_version_errors():
    c = app_ctx("box")
    with pytest.raises(Conflict) as err:
        call(c, "promote_version", file_id=DOCX, version=3)
    assert "already the current" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "promote_version", file_id=DOCX, version=7)
    assert err.value.parameter == "version"
    with pytest.raises(InvalidArgument) as err:
        call(c, "promote_version", file_id=DOCX, version=0)
    assert err.value.parameter == "version"


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


def test_upload_version_from_workspace():
    new = make_docx("Redline", ["9.4 Security incident notice: 72 hours"])
    c = app_ctx("box", MemoryFiles({"redline.docx": new}))
    out = call(c, "upload_version", file_id=DOCX, path="redline.docx")
    assert out["version_number"] == 4 and out["modified_by"] == USER and out["name"].endswith(".docx")
    assert c.blobs.get(c.state.files[DOCX].blob) == new
    assert "72 hours" in call(c, "search", query='"security incident"')["results"][0]["snippet"]
    with pytest.raises(Conflict) as err:
        call(c, "upload_version", file_id=DOCX, path="redline.docx")
    assert "same as the current version 4" in err.value.message


def test_upload_version_errors():
    c = app_ctx("box", MemoryFiles({"notes.txt": b"not a pdf"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_version", file_id="file_inv_20417", path="notes.txt")
    assert "not a .pdf" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_version", file_id=DOCX, content="new text")
    assert err.value.parameter == "content"
    with pytest.raises(Conflict) as err:
        call(c, "upload_version", file_id="file_nda_guidance", content="# new")
    assert "viewer" in err.value.message
    out = call(c, "upload_version", file_id="file_payment_run_2026_03_06", content="payment_id\nPAY-1\n")
    assert out["version_number"] == 2 and out["size"] == 17
