"""Helpdesk comments: add-comment, list-comments."""

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument

ALEX = USER


def test_add_comment_public_by_requester_reopens_waiting_ticket():
    c = app_ctx("helpdesk")
    out = call(c, "add_comment", ticket_id="HD-1042", body="PDF attached.")
    assert out["ticket_status"] == "open" and out["comment"]["author"] == ALEX and not out["comment"]["internal"]
    assert c.state.tickets["HD-1042"].updated == NOW


def test_add_comment_internal_or_by_someone_else_keeps_status():
    c = app_ctx("helpdesk")
    assert call(c, "add_comment", ticket_id="HD-1041", body="Note", internal=True)["ticket_status"] == "waiting"
    assert call(c, "add_comment", ticket_id="HD-1027", body="Jack, can you approve?")["ticket_status"] == "waiting"
    notes = call(c, "list_comments", ticket_id="HD-1041", visibility="internal")
    assert [n["body"] for n in notes["results"]] == [
        "The lodge's events desk says they will answer by March 11.",
        "Note",
    ]


def test_add_comment_errors():
    c = app_ctx("helpdesk")
    with pytest.raises(InvalidArgument):
        call(c, "add_comment", ticket_id="HD-1041", body="  ")
    with pytest.raises(Conflict):
        call(c, "add_comment", ticket_id="HD-1001", body="Still broken")


def test_list_comments_order_and_filters():
    c = app_ctx("helpdesk")
    out = call(c, "list_comments", ticket_id="HD-1038")
    assert [x["author"].split("@")[0] for x in out["results"]] == ["mia.thompson", "kai.nakamura", "mia.thompson"]
    assert call(c, "list_comments", ticket_id="HD-1038", visibility="public")["total"] == 2
    assert call(c, "list_comments", ticket_id="HD-1038", page_size=1, page=3)["results"][0]["id"] == "cmt_017"
