import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.box.conftest import DOCX
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.documents import make_docx
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


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
