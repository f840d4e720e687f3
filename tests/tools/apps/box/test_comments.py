import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# ---- comments -------------------------------------------------------------------------------------


def test_list_comments_oldest_first():
    out = call(app_ctx("box"), "list_comments", file_id="file_inv_20417")
    assert [(r["author"], r["yours"]) for r in out["results"]] == [
        ("tomas.rivera@northwind.example", False),
        ("priya.shah@northwind.example", False),
    ]
    assert "$1,640" in out["results"][0]["message"] and out["file"]["name"] == "INV-20417 Fabrikam Logistics.pdf"


def test_add_and_delete_own_comment():
    c = app_ctx("box")
    out = call(c, "add_comment", file_id="file_nda_guidance", message="  Is the 2026 template final?  ")
    assert out["message"] == "Is the 2026 template final?" and out["yours"] is True  # a viewer may comment
    assert call(c, "delete_comment", comment_id=out["id"]) == {"deleted": out["id"], "file_id": "file_nda_guidance"}
    call(c, "delete_comment", comment_id="comment_terms_password_note")
    assert call(c, "list_comments", file_id="file_contoso_proposed_terms")["total"] == 1


def test_comment_errors():
    c = app_ctx("box")
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", file_id="file_inv_20417", message="   ")
    assert err.value.parameter == "message"
    with pytest.raises(Conflict) as err:
        call(c, "delete_comment", comment_id="comment_inv_20417_priya")
    assert "priya.shah" in err.value.message
    with pytest.raises(NotFound):
        call(c, "delete_comment", comment_id="comment_nope")
    with pytest.raises(Conflict):
        call(c, "add_comment", file_id="file_access_review_q4", message="hi")
    with pytest.raises(NotFound):
        call(c, "list_comments", file_id="file_fabrikam_coi_2026")
