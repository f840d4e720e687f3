import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_comments_open_and_resolved():
    c = app_ctx("drive")
    out = call(c, "list_comments", file_id="file_offsite_agenda_draft")
    assert [x["id"] for x in out["results"]] == ["cmt_0001", "cmt_0002"]
    assert out["results"][1]["replies"][0]["author"] == USER
    assert call(c, "list_comments", file_id="file_q2_budget_draft")["total"] == 0
    resolved = call(c, "list_comments", file_id="file_q2_budget_draft", include_resolved=True)["results"]
    assert resolved[0]["resolved_by"] == "priya.shah@northwind.example"
    assert resolved[0]["replies"][0]["body"].startswith("Confirmed")


def test_add_comment_with_and_without_quote():
    c = app_ctx("drive")
    out = call(
        c,
        "add_comment",
        file_id="file_employee_handbook_2026",
        text="Leadership approved 20 days from April 1; please update.",
        quote="15 days of paid time off a year",
    )
    assert out["id"] == "cmt_n1" and out["author"] == USER and out["resolved"] is False
    assert c.state.comments["cmt_n1"].file_id == "file_employee_handbook_2026"
    assert c.state.comments["cmt_n1"].created == NOW
    plain = call(c, "add_comment", file_id="file_q1_budget", text="Looks right.")
    assert plain["quote"] == ""
    assert call(c, "get_file", file_id="file_employee_handbook_2026")["open_comments"] == 1


def test_add_comment_errors():
    c = app_ctx("drive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", file_id="file_employee_handbook_2026", text="x", quote="25 days of holiday")
    assert err.value.parameter == "quote"
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", file_id="file_q1_budget", text="  ")
    assert err.value.parameter == "text"
    with pytest.raises(Conflict) as err:
        call(c, "add_comment", file_id="file_nda_template", text="hi")
    assert "reader access" in err.value.message
    with pytest.raises(Conflict):
        call(c, "add_comment", file_id="file_untitled_document", text="hi")
    with pytest.raises(InvalidArgument):
        call(c, "add_comment", file_id="fld_finance", text="hi")


def test_reply_and_resolve_comment():
    c = app_ctx("drive")
    reply = call(c, "reply_to_comment", comment_id="cmt_0001", text="Moved to Thursday 14:00.")
    assert reply["reopened"] is False and reply["replies"][-1] == {
        "id": "rpl_n1",
        "author": USER,
        "body": "Moved to Thursday 14:00.",
        "created": "2026-03-09T09:00:00-04:00",
    }
    done = call(c, "resolve_comment", comment_id="cmt_0001")
    assert done["resolved"] is True and done["resolved_by"] == USER
    assert [x["id"] for x in call(c, "list_comments", file_id="file_offsite_agenda_draft")["results"]] == ["cmt_0002"]
    again = call(c, "reply_to_comment", comment_id="cmt_0001", text="One more thing.")
    assert again["reopened"] is True and c.state.comments["cmt_0001"].resolved is False


def test_comment_errors():
    c = app_ctx("drive")
    with pytest.raises(NotFound) as err:
        call(c, "reply_to_comment", comment_id="cmt_9999", text="hi")
    assert err.value.parameter == "comment_id"
    with pytest.raises(Conflict) as err:
        call(c, "resolve_comment", comment_id="cmt_0003")
    assert "already resolved" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "resolve_comment", comment_id="cmt_0004")  # on a file where Alex only comments
    assert "edit access" in err.value.message
    own = call(c, "add_comment", file_id="file_contoso_renewal_proposal", text="Agree on Net 45?")
    assert call(c, "resolve_comment", comment_id=own["id"])["resolved"] is True
