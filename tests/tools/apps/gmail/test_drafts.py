from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call, unchanged
from tests.tools.apps.gmail.conftest import MARCUS, only
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_drafts_newest_first():
    out = call(app_ctx("gmail"), "list_drafts")
    assert out["total"] == 4
    assert [d["subject"] for d in out["drafts"]][:2] == ["Board deck notes", "Q2 headcount plan - revised"]
    assert out["drafts"][0]["to"] == []
    assert out["drafts"][1]["attachments"][0]["filename"] == "q2_headcount_revised.csv"


def test_create_and_send_draft():
    c = app_ctx("gmail")
    draft = call(c, "create_draft", to=["nora.patel"], subject="Offer", body="Approved.", bcc=[MARCUS])
    assert draft["updated"] == "2026-03-09T09:00:00-04:00"
    assert call(c, "list_drafts")["drafts"][0]["id"] == draft["id"]
    sent = call(c, "send_draft", draft_id=draft["id"])
    msg = c.state.messages[sent["id"]]
    assert (msg.to, msg.bcc, msg.subject, msg.body) == (
        ["nora.patel@northwind.example"],
        [MARCUS],
        "Offer",
        "Approved.",
    )
    assert msg.labels == ["SENT"]
    assert c.state.drafts[draft["id"]].sent_message_id == msg.id
    assert draft["id"] not in [d["id"] for d in call(c, "list_drafts")["drafts"]]
    err = unchanged(c, "send_draft", Conflict, draft_id=draft["id"])
    assert msg.id in err.message


def test_reply_draft_joins_the_thread():
    c = app_ctx("gmail")
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    draft = call(c, "create_draft", body="Approved.", reply_to_message_id=hit["id"])
    assert draft["to"] == ["tomas.rivera@northwind.example"]
    assert draft["subject"] == "Re: Fabrikam invoice INV-20417 - any concerns before approval?"
    msg = call(c, "send_draft", draft_id=draft["id"])
    assert (msg["thread_id"], msg["in_reply_to"]) == (hit["thread_id"], hit["id"])


def test_fixture_reply_draft_sends_into_its_thread():
    c = app_ctx("gmail")
    draft = next(d for d in call(c, "list_drafts")["drafts"] if d["subject"].startswith("Re: Contoso"))
    msg = call(c, "send_draft", draft_id=draft["id"])
    thread = call(c, "get_thread", thread_id=msg["thread_id"])
    assert [m["id"] for m in thread["messages"]][-1] == msg["id"]
    assert len(thread["messages"]) == 5


def test_send_draft_errors_change_nothing():
    c = app_ctx("gmail")
    empty = next(d for d in call(c, "list_drafts")["drafts"] if d["subject"] == "Board deck notes")
    err = unchanged(c, "send_draft", Conflict, draft_id=empty["id"])
    assert "no recipients" in err.message
    assert unchanged(c, "send_draft", NotFound, draft_id="draft_9999").parameter == "draft_id"
    assert unchanged(c, "create_draft", NotFound, reply_to_message_id="x").parameter == "reply_to_message_id"
    assert unchanged(c, "create_draft", InvalidArgument, subject="x", attachments=["a.txt"]).parameter == "attachments"


def test_update_draft_then_send():
    files = MemoryFiles({"notes.md": b"# Notes\n"})
    c = app_ctx("gmail", files)
    empty = next(d for d in call(c, "list_drafts")["drafts"] if d["subject"] == "Board deck notes")
    out = call(c, "update_draft", draft_id=empty["id"], to=["Dana Whitfield"], attachments=["notes.md"])
    assert out["to"] == ["dana.whitfield@northwind.example"]
    assert out["subject"] == "Board deck notes"
    assert out["body"].startswith("- Operating plan")
    assert [a["filename"] for a in out["attachments"]] == ["notes.md"]
    out = call(c, "update_draft", draft_id=empty["id"], remove_attachments=["notes.md"], subject="Board notes")
    assert (out["attachments"], out["subject"]) == ([], "Board notes")
    msg = call(c, "send_draft", draft_id=empty["id"])
    assert msg["to"] == ["dana.whitfield@northwind.example"]


def test_update_draft_errors_change_nothing():
    c = app_ctx("gmail")
    draft = call(c, "list_drafts")["drafts"][1]
    assert unchanged(c, "update_draft", InvalidArgument, draft_id=draft["id"]).parameter == "draft_id"
    err = unchanged(c, "update_draft", NotFound, draft_id=draft["id"], body="x", remove_attachments=["nope.csv"])
    assert err.parameter == "remove_attachments"
    assert (
        unchanged(c, "update_draft", NotFound, draft_id=draft["id"], to=["ghost@northwind.example"]).parameter == "to"
    )


def test_delete_draft():
    c = app_ctx("gmail")
    draft = call(c, "list_drafts")["drafts"][0]
    assert call(c, "delete_draft", draft_id=draft["id"]) == {"deleted": draft["id"]}
    assert draft["id"] not in c.state.drafts
    assert unchanged(c, "delete_draft", NotFound, draft_id=draft["id"]).parameter == "draft_id"
