import base64
import json
from datetime import datetime

import pytest

from tests.conftest import MemoryFiles, make_ctx
from tools.apps.gmail.actions import messages as gmail
from tools.apps.gmail.fixture import build
from tools.apps.gmail.state import GmailState
from tools.fixtures import NOW, USER
from tools.fixtures.people import people_records
from tools.fixtures.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import extract_text, make_pdf, make_png, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

PRIYA = "priya.shah@northwind.example"
MARCUS = "marcus.reed@northwind.example"


def ctx(files=None):
    c = make_ctx("gmail", GmailState.model_validate(build(people_records(), NOW, USER)), files)
    c.world.blobs = BlobStore(BLOBS)  # the company's documents, as a session's world has them
    return c


def data_of(c, att):
    return c.world.blobs.get(att.blob)


def call(c, action, /, **args):
    return gmail.app.actions[action].invoke(c, args)


def only(c, query):
    out = call(c, "search_messages", query=query)
    assert out["total"] == 1, [r["subject"] for r in out["results"]]
    return out["results"][0]


def unchanged(c, action, error, /, **args):
    """Call an action that must fail and check that the world did not change."""
    before = c.world.snapshot()
    with pytest.raises(error) as err:
        call(c, action, **args)
    assert c.world.snapshot() == before
    return err.value


# --- the mailbox as built ---------------------------------------------------------------------


def test_mailbox_counts():
    state = GmailState.model_validate(build(people_records(), NOW, USER))
    msgs = list(state.messages.values())
    assert len(msgs) >= 150
    sent = [m for m in msgs if m.sender == USER]
    assert 25 <= len(sent) <= 35
    assert all(m.labels[0] == "SENT" for m in sent)
    received = [m for m in msgs if m.sender != USER]
    assert sum("INBOX" in m.labels for m in received) > len(received) * 0.7
    assert sum("UNREAD" in m.labels for m in msgs) >= 10
    assert sum("STARRED" in m.labels for m in msgs) >= 5
    assert sum("TRASH" in m.labels for m in msgs) >= 1
    assert sum(bool(m.attachments) for m in msgs) >= 20
    suffixes = {a.filename.rsplit(".", 1)[1] for m in msgs for a in m.attachments}
    assert {"csv", "txt", "md", "pdf", "xlsx", "docx"} <= suffixes
    sizes = {}
    for m in msgs:
        sizes[m.thread_id] = sizes.get(m.thread_id, 0) + 1
    assert {2, 3, 4} <= set(sizes.values())
    assert max(sizes.values()) <= 4
    assert all(m.date < NOW for m in msgs)
    assert min(m.date for m in msgs) < datetime(2026, 1, 20, tzinfo=NOW.tzinfo)
    assert len([d for d in state.drafts.values() if not d.sent_message_id]) >= 3
    assert {lab.name for lab in state.labels.values()} >= {"Finance", "Vendors", "Hiring"}


def test_mailbox_build_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_mailbox_threads_link_replies_to_the_previous_message():
    state = GmailState.model_validate(build(people_records(), NOW, USER))
    for m in state.messages.values():
        if m.in_reply_to:
            parent = state.messages[m.in_reply_to]
            assert parent.thread_id == m.thread_id
            assert parent.date < m.date
            assert m.subject.startswith("Re: ")


def test_mailbox_company_addresses_are_people_in_the_directory():
    emails = {p["email"] for p in people_records().values()}
    state = GmailState.model_validate(build(people_records(), NOW, USER))
    for m in state.messages.values():
        for addr in [m.sender, *m.to, *m.cc]:
            assert addr.endswith("@northwind.example") is False or addr in emails, addr


def test_mailbox_text_reads_like_an_ordinary_company():
    state = GmailState.model_validate(build(people_records(), NOW, USER))
    text = json.dumps(build(people_records(), NOW, USER)).lower()
    text += " ".join(extract_text(BLOBS[a.blob], a.filename) for m in state.messages.values() for a in m.attachments)
    text = text.lower()
    text += " ".join(a.description + json.dumps(a.input_schema) for a in gmail.app.actions.values()).lower()
    for word in (
        "gateway",
        "episode",
        "reward",
        "grade",
        "task",
        "training",
        "rollout",
        "benchmark",
        "verif",
        "mask",
        "simulat",
        "agent",
        "fixture",
    ):
        assert word not in text, word


# --- search -------------------------------------------------------------------------------------


def test_search_combines_sender_attachment_and_subject():
    hit = only(ctx(), 'from:priya.shah has:attachment subject:"q1 budget"')
    assert hit["subject"] == "Q1 budget review - draft numbers"
    assert hit["from"] == PRIYA
    assert hit["has_attachments"] is True
    assert "Finance" in hit["labels"]


def test_search_quoted_phrase_and_sender_name_from_directory():
    c = ctx()
    out = call(c, "search_messages", query='"INV-20417"')
    assert {r["from"] for r in out["results"]} == {"billing@fabrikam.example", "tomas.rivera@northwind.example"}
    by_name = call(c, "search_messages", query='from:"Tomas Rivera" INV-20417')
    assert [r["subject"] for r in by_name["results"]] == ["Fabrikam invoice INV-20417 - any concerns before approval?"]


def test_search_is_newest_first_and_pages():
    c = ctx()
    first = call(c, "search_messages", page_size=5)
    dates = [r["date"] for r in first["results"]]
    assert dates == sorted(dates, reverse=True)
    assert first["results"][0]["subject"] == "Contoso renewal - our redline for Tuesday's legal review"
    assert first["results"][1]["subject"] == "Offer approval: Staff Product Designer - Camille Dubois"
    assert first["next_page"] == 2
    second = call(c, "search_messages", page_size=5, page=2)
    assert second["results"][0]["date"] <= dates[-1]
    assert not {r["id"] for r in first["results"]} & {r["id"] for r in second["results"]}
    total = first["total"]
    assert total == len(c.state.messages) - sum("TRASH" in m.labels for m in c.state.messages.values())


def test_search_dates_after_is_inclusive_before_is_exclusive():
    c = ctx()
    out = call(c, "search_messages", query="after:2026/03/06 before:2026/03/07", page_size=100)
    assert out["total"] > 0
    assert all(r["date"].startswith("2026-03-06") for r in out["results"])
    expected = sum(
        m.date.astimezone(NOW.tzinfo).date().isoformat() == "2026-03-06" and "TRASH" not in m.labels
        for m in c.state.messages.values()
    )
    assert out["total"] == expected
    recent = call(c, "search_messages", query="newer_than:1d", page_size=100)
    assert {r["subject"] for r in recent["results"]} == {
        "Offer approval: Staff Product Designer - Camille Dubois",
        "Weekly pipeline report - week of Mar 9",
        "Contoso renewal - our redline for Tuesday's legal review",
    }


def test_search_labels_unread_negation_and_recipients():
    c = ctx()
    unread_finance = call(c, "search_messages", query="label:finance is:unread", page_size=50)
    assert unread_finance["total"] == 3
    assert all({"Finance", "UNREAD"} <= set(r["labels"]) for r in unread_finance["results"])
    not_vendors = call(c, "search_messages", query="label:Finance -label:Vendors", page_size=50)
    assert not_vendors["total"] > 0
    assert all("Vendors" not in r["labels"] for r in not_vendors["results"])
    sent_to_nora = call(c, "search_messages", query="in:sent to:nora.patel")
    assert [r["subject"] for r in sent_to_nora["results"]] == ["Q2 headcount plan", "Staff meeting agenda - Tuesday"]
    assert call(c, "search_messages", query="in:sent cc:nora.patel")["total"] == 0
    csv_files = call(c, "search_messages", query="filename:INV-20417")
    assert [r["from"] for r in csv_files["results"]] == ["billing@fabrikam.example"]


def test_search_hides_trash_unless_asked():
    c = ctx()
    assert call(c, "search_messages", query='"Industry Pulse"')["total"] == 5
    trashed = call(c, "search_messages", query="in:trash")
    assert trashed["total"] == 3
    assert all("TRASH" in r["labels"] for r in trashed["results"])
    assert call(c, "search_messages", query='in:anywhere "Industry Pulse"')["total"] == 8


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("after:2026/13/01", "not a date"),
        ("before:yesterday", "not a date"),
        ("label:Nonexistent", "no label"),
        ("has:pdf", "has:attachment"),
        ("is:snoozed", "is:unread"),
        ("in:spam", "in:trash"),
        ("from:", "needs a value"),
        ("newer_than:soon", "not an age"),
        ("budget -", "must be followed"),
    ],
)
def test_search_rejects_bad_operators_naming_query(query, words):
    err = unchanged(ctx(), "search_messages", InvalidArgument, query=query)
    assert err.parameter == "query"
    assert words in err.message


def test_search_older_than_counts_back_from_now():
    c = ctx()
    out = call(c, "search_messages", query="older_than:30d", page_size=100)
    cutoff = "2026-02-07T09:00"
    assert out["total"] > 10
    assert all(r["date"] < cutoff for r in out["results"])
    newer = call(c, "search_messages", query="newer_than:30d")["total"]
    assert out["total"] + newer == call(c, "search_messages")["total"]


def test_search_unknown_prefix_is_plain_text():
    assert call(ctx(), "search_messages", query="foo:bar")["total"] == 0


# --- reading ------------------------------------------------------------------------------------


def test_get_message_full_with_attachment_metadata():
    c = ctx()
    hit = only(c, "subject:INV-20417 from:billing@fabrikam")
    msg = call(c, "get_message", message_id=hit["id"])
    assert "due on March 15, 2026" in msg["body"]
    [att] = msg["attachments"]
    assert att["filename"] == "INV-20417.pdf"
    assert att["mime_type"] == "application/pdf"
    record = c.state.messages[hit["id"]].attachments[0]
    assert att["size"] == len(data_of(c, record)) > 1000
    assert "content" not in att and "blob" not in att
    assert "UNREAD" in c.state.messages[hit["id"]].labels  # reading does not mark read


def test_get_message_unknown_id():
    err = unchanged(ctx(), "get_message", NotFound, message_id="msg_9999")
    assert err.parameter == "message_id"
    assert "search-messages" in err.message


def test_get_thread_by_thread_or_message_id_oldest_first():
    c = ctx()
    hit = only(c, 'subject:"Contoso renewal" from:james.okafor')
    by_message = call(c, "get_thread", thread_id=hit["id"])
    assert by_message == call(c, "get_thread", thread_id=hit["thread_id"])
    senders = [m["from"] for m in by_message["messages"]]
    assert senders == [
        "isabella.rossi@northwind.example",
        USER,
        "isabella.rossi@northwind.example",
        "james.okafor@northwind.example",
    ]
    assert by_message["subject"] == "Contoso renewal - pricing approval needed"
    err = unchanged(c, "get_thread", NotFound, thread_id="thr_9999")
    assert err.parameter == "thread_id"


def test_read_only_actions_change_nothing():
    c = ctx()
    before = c.world.snapshot()
    hit = only(c, "filename:offsite_venues.csv")
    call(c, "get_message", message_id=hit["id"])
    call(c, "get_thread", thread_id=hit["thread_id"])
    call(c, "list_drafts")
    call(c, "list_labels")
    call(c, "get_attachment", message_id=hit["id"], attachment_id="offsite_venues.csv")
    assert c.world.snapshot() == before
    assert all(a.read_only == (a.name.startswith(("search", "get", "list"))) for a in gmail.app.actions.values())


# --- sending ------------------------------------------------------------------------------------


def test_send_message_stores_it_in_sent_mail():
    c = ctx()
    out = call(
        c,
        "send_message",
        to=["Priya Shah", "Owen Bell <owen.bell@northwind.example>", PRIYA],
        cc=["partner@contoso.example"],
        subject="Q1 numbers",
        body="Final numbers attached soon.",
    )
    msg = c.state.messages[out["id"]]
    assert msg.sender == USER
    assert msg.to == [PRIYA, "owen.bell@northwind.example"]
    assert msg.cc == ["partner@contoso.example"]
    assert msg.labels == ["SENT"]
    assert msg.date == NOW
    assert msg.thread_id not in {m.thread_id for k, m in c.state.messages.items() if k != msg.id}
    assert out["date"] == "2026-03-09T09:00:00-04:00"
    assert only(c, 'in:sent subject:"Q1 numbers"')["id"] == msg.id


def test_send_message_to_myself_lands_in_inbox():
    c = ctx()
    out = call(c, "send_message", to=["Alex.Morgan@northwind.example"], body="note to self")
    assert out["labels"] == ["SENT", "INBOX"]
    assert out["subject"] == ""


def test_send_message_attaches_workspace_files():
    files = MemoryFiles({"reports/q1.csv": b"dept,total\nSales,10\n"})
    c = ctx(files)
    out = call(c, "send_message", to=[MARCUS], subject="Q1", attachments=["reports/q1.csv"])
    [att] = c.state.messages[out["id"]].attachments
    assert (att.filename, att.mime_type, att.size) == ("q1.csv", "text/csv", 20)
    assert data_of(c, att) == b"dept,total\nSales,10\n"
    assert out["attachments"][0]["size"] == 20


@pytest.mark.parametrize(
    ("args", "param", "error"),
    [
        ({"to": []}, "to", InvalidArgument),
        ({"to": ["not-an-address"]}, "to", NotFound),
        ({"to": ["priya@@x"]}, "to", InvalidArgument),
        ({"to": ["priya.shaw@northwind.example"]}, "to", NotFound),
        ({"to": [PRIYA], "cc": ["nobody@northwind.example"]}, "cc", NotFound),
        ({"to": [PRIYA], "bcc": [" "]}, "bcc", InvalidArgument),
        ({"to": [PRIYA]}, "body", InvalidArgument),
        ({"to": [PRIYA], "subject": "x", "attachments": ["a.csv"]}, "attachments", InvalidArgument),
    ],
)
def test_send_message_errors_change_nothing(args, param, error):
    err = unchanged(ctx(), "send_message", error, **args)
    assert err.parameter == param


def test_send_message_attaches_binary_files_of_any_kind():
    pdf, png = make_pdf("Board memo", ["Atlas cutover April 18"]), make_png(4, 4, (10, 20, 30))
    c = ctx(MemoryFiles({"memo.pdf": pdf, "img/logo.png": png}))
    out = call(c, "send_message", to=[MARCUS], subject="Memo", attachments=["memo.pdf", "img/logo.png"])
    memo, logo = c.state.messages[out["id"]].attachments
    assert (memo.filename, memo.mime_type, memo.size, data_of(c, memo)) == (
        "memo.pdf",
        "application/pdf",
        len(pdf),
        pdf,
    )
    assert (logo.filename, logo.mime_type, data_of(c, logo)) == ("logo.png", "image/png", png)
    assert "Atlas cutover" in extract_text(data_of(c, memo))
    files = MemoryFiles()
    c.files = files
    got = call(c, "get_attachment", message_id=out["id"], attachment_id="memo.pdf", save_as="back/memo.pdf")
    assert got == {"message_id": out["id"], "attachment_id": memo.id, "filename": "memo.pdf",
                   "mime_type": "application/pdf", "saved_to": "back/memo.pdf", "size": len(pdf)}  # fmt: skip
    assert files.files["back/memo.pdf"] == pdf


def test_send_message_workspace_errors_change_nothing():
    c = ctx(MemoryFiles({"ok.txt": b"fine"}))
    err = unchanged(c, "send_message", NotFound, to=[PRIYA], subject="x", attachments=["ok.txt", "missing.csv"])
    assert "missing.csv" in err.message
    assert unchanged(c, "send_message", InvalidArgument, to=[PRIYA], subject="x", attachments=[""]).parameter == (
        "attachments"
    )


def test_pasted_base64_and_data_uris_are_refused_with_the_workspace_way():
    c = ctx(MemoryFiles({"ok.txt": b"fine"}))
    pasted = base64.b64encode(make_pdf("x", ["y"])).decode()
    for args in (
        {"attachments": [pasted]},
        {"attachments": ["data:application/pdf;base64,JVBERi0xLjQK"]},
        {"body": f"Here it is: {pasted}"},
    ):
        err = unchanged(c, "send_message", InvalidArgument, to=[PRIYA], subject="x", **args)
        assert "save the file in your workspace" in err.message
        assert err.parameter == next(iter(args))
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    err = unchanged(c, "reply_to_message", InvalidArgument, message_id=hit["id"], body="data:text/plain;base64,aGk=")
    assert err.parameter == "body"
    assert unchanged(c, "create_draft", InvalidArgument, body=pasted).parameter == "body"
    err = unchanged(c, "forward_message", InvalidArgument, message_id=hit["id"], to=[PRIYA], note=pasted)
    assert err.parameter == "note"


def test_attachments_over_25_mb_are_refused():
    big = b"x" * (13 * 1024 * 1024)
    c = ctx(MemoryFiles({"a.bin": big, "b.bin": big}))
    err = unchanged(c, "send_message", InvalidArgument, to=[PRIYA], subject="x", attachments=["a.bin", "b.bin"])
    assert err.parameter == "attachments" and "25 MB" in err.message
    out = call(c, "send_message", to=[PRIYA], subject="x", attachments=["a.bin"])
    assert out["attachments"][0]["mime_type"] == "application/octet-stream"


def test_reply_goes_to_sender_in_same_thread():
    c = ctx()
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    out = call(c, "reply_to_message", message_id=hit["id"], body="Approved.")
    msg = c.state.messages[out["id"]]
    assert msg.to == ["tomas.rivera@northwind.example"]
    assert msg.cc == []
    assert msg.subject == "Re: Fabrikam invoice INV-20417 - any concerns before approval?"
    assert (msg.thread_id, msg.in_reply_to) == (hit["thread_id"], hit["id"])
    assert msg.labels == ["SENT"]


def test_reply_all_includes_everyone_but_me():
    c = ctx()
    hit = only(c, 'subject:"Atlas migration: cutover plan" from:liam.chen')
    out = call(c, "reply_to_message", message_id=hit["id"], body="Thanks.", reply_all=True, cc=["Owen Bell"])
    msg = c.state.messages[out["id"]]
    assert msg.to == ["liam.chen@northwind.example", "elena.petrova@northwind.example"]
    assert msg.cc == ["mia.thompson@northwind.example", "owen.bell@northwind.example"]
    assert msg.subject == "Re: Atlas migration: cutover plan for April 18"


def test_reply_to_my_own_message_goes_to_its_recipients():
    c = ctx()
    hit = only(c, 'in:sent subject:"Staff meeting agenda - Tuesday"')
    msg = call(c, "reply_to_message", message_id=hit["id"], body="Adding the lease decision.")
    assert msg["to"] == c.state.messages[hit["id"]].to
    assert len(msg["to"]) == 5


def test_reply_errors_change_nothing():
    c = ctx()
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    assert unchanged(c, "reply_to_message", InvalidArgument, message_id=hit["id"], body="  ").parameter == "body"
    assert unchanged(c, "reply_to_message", NotFound, message_id="nope", body="hi").parameter == "message_id"
    err = unchanged(c, "reply_to_message", NotFound, message_id=hit["id"], body="hi", cc=["ghost@northwind.example"])
    assert err.parameter == "cc"


def test_forward_keeps_attachments_and_quotes_original():
    c = ctx()
    hit = only(c, "subject:INV-20417 from:billing@fabrikam")
    out = call(c, "forward_message", message_id=hit["id"], to=["Owen Bell"], note="Owen, please check this.")
    msg = c.state.messages[out["id"]]
    original = c.state.messages[hit["id"]]
    assert msg.subject == "Fwd: Invoice INV-20417 from Fabrikam Logistics"
    assert msg.to == ["owen.bell@northwind.example"]
    assert msg.body.startswith("Owen, please check this.\n\n---------- Forwarded message ----------")
    assert "From: billing@fabrikam.example" in msg.body
    assert original.body in msg.body
    assert msg.forwarded_from == original.id
    assert [(a.filename, a.blob, a.size) for a in msg.attachments] == [
        (a.filename, a.blob, a.size) for a in original.attachments
    ]
    assert msg.attachments[0].filename == "INV-20417.pdf"
    assert msg.attachments[0].id != original.attachments[0].id


def test_forward_errors_change_nothing():
    c = ctx()
    hit = only(c, "subject:INV-20417 from:billing@fabrikam")
    assert unchanged(c, "forward_message", InvalidArgument, message_id=hit["id"], to=[]).parameter == "to"
    assert unchanged(c, "forward_message", NotFound, message_id="msg_0", to=[PRIYA]).parameter == "message_id"


# --- drafts -------------------------------------------------------------------------------------


def test_list_drafts_newest_first():
    out = call(ctx(), "list_drafts")
    assert out["total"] == 4
    assert [d["subject"] for d in out["drafts"]][:2] == ["Board deck notes", "Q2 headcount plan - revised"]
    assert out["drafts"][0]["to"] == []
    assert out["drafts"][1]["attachments"][0]["filename"] == "q2_headcount_revised.csv"


def test_create_and_send_draft():
    c = ctx()
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
    c = ctx()
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    draft = call(c, "create_draft", body="Approved.", reply_to_message_id=hit["id"])
    assert draft["to"] == ["tomas.rivera@northwind.example"]
    assert draft["subject"] == "Re: Fabrikam invoice INV-20417 - any concerns before approval?"
    msg = call(c, "send_draft", draft_id=draft["id"])
    assert (msg["thread_id"], msg["in_reply_to"]) == (hit["thread_id"], hit["id"])


def test_fixture_reply_draft_sends_into_its_thread():
    c = ctx()
    draft = next(d for d in call(c, "list_drafts")["drafts"] if d["subject"].startswith("Re: Contoso"))
    msg = call(c, "send_draft", draft_id=draft["id"])
    thread = call(c, "get_thread", thread_id=msg["thread_id"])
    assert [m["id"] for m in thread["messages"]][-1] == msg["id"]
    assert len(thread["messages"]) == 5


def test_send_draft_errors_change_nothing():
    c = ctx()
    empty = next(d for d in call(c, "list_drafts")["drafts"] if d["subject"] == "Board deck notes")
    err = unchanged(c, "send_draft", Conflict, draft_id=empty["id"])
    assert "no recipients" in err.message
    assert unchanged(c, "send_draft", NotFound, draft_id="draft_9999").parameter == "draft_id"
    assert unchanged(c, "create_draft", NotFound, reply_to_message_id="x").parameter == "reply_to_message_id"
    assert unchanged(c, "create_draft", InvalidArgument, subject="x", attachments=["a.txt"]).parameter == "attachments"


def test_update_draft_then_send():
    files = MemoryFiles({"notes.md": b"# Notes\n"})
    c = ctx(files)
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
    c = ctx()
    draft = call(c, "list_drafts")["drafts"][1]
    assert unchanged(c, "update_draft", InvalidArgument, draft_id=draft["id"]).parameter == "draft_id"
    err = unchanged(c, "update_draft", NotFound, draft_id=draft["id"], body="x", remove_attachments=["nope.csv"])
    assert err.parameter == "remove_attachments"
    assert (
        unchanged(c, "update_draft", NotFound, draft_id=draft["id"], to=["ghost@northwind.example"]).parameter == "to"
    )


def test_delete_draft():
    c = ctx()
    draft = call(c, "list_drafts")["drafts"][0]
    assert call(c, "delete_draft", draft_id=draft["id"]) == {"deleted": draft["id"]}
    assert draft["id"] not in c.state.drafts
    assert unchanged(c, "delete_draft", NotFound, draft_id=draft["id"]).parameter == "draft_id"


# --- labels and trash ---------------------------------------------------------------------------


def test_list_labels_counts():
    c = ctx()
    labels = {lab["name"]: lab for lab in call(c, "list_labels")["labels"]}
    assert list(labels)[:7] == list(gmail.SYSTEM_LABELS)
    assert labels["Finance"] == {"name": "Finance", "type": "user", "messages": 14, "unread": 3}
    assert labels["DRAFT"]["messages"] == 4
    assert labels["TRASH"]["messages"] == 3
    inbox = [m for m in c.state.messages.values() if "INBOX" in m.labels and "TRASH" not in m.labels]
    assert labels["INBOX"]["messages"] == len(inbox)
    assert labels["INBOX"]["unread"] == sum("UNREAD" in m.labels for m in inbox)


def test_create_label_and_use_it():
    c = ctx()
    out = call(c, "create_label", name="  Board   prep ")
    assert out["name"] == "Board prep"
    assert c.state.labels[out["id"]].name == "Board prep"
    hit = only(c, "filename:offsite_venues.csv")
    call(c, "modify_labels", message_id=hit["id"], add=["board-prep"])
    assert only(c, 'label:"board prep"')["id"] == hit["id"]


def test_create_label_clash_changes_nothing():
    c = ctx()
    assert unchanged(c, "create_label", Conflict, name="finance").parameter == "name"
    assert unchanged(c, "create_label", Conflict, name="Inbox").parameter == "name"
    assert unchanged(c, "create_label", InvalidArgument, name="   ").parameter == "name"


def test_modify_labels_archive_star_and_mark_read():
    c = ctx()
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    out = call(c, "modify_labels", message_id=hit["id"], add=["starred", "Finance"], remove=["unread", "INBOX"])
    assert out["added"] == ["STARRED"]
    assert out["removed"] == ["UNREAD", "INBOX"]
    assert c.state.messages[hit["id"]].labels == ["Vendors", "Finance", "STARRED"]
    assert call(c, "search_messages", query="in:inbox from:tomas.rivera subject:INV-20417")["total"] == 0


@pytest.mark.parametrize(
    ("args", "param"),
    [
        ({}, "add"),
        ({"add": ["Receipts"]}, "add"),
        ({"remove": ["SENT"]}, "remove"),
        ({"add": ["DRAFT"]}, "add"),
        ({"add": ["STARRED"], "remove": ["starred"]}, "remove"),
        ({"add": ["STARRED", "nope"]}, "add"),
    ],
)
def test_modify_labels_errors_change_nothing(args, param):
    c = ctx()
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    err = unchanged(c, "modify_labels", InvalidArgument, message_id=hit["id"], **args)
    assert err.parameter == param


def test_modify_labels_unknown_message():
    assert unchanged(ctx(), "modify_labels", NotFound, message_id="x", add=["STARRED"]).parameter == "message_id"


def test_trash_hides_from_search_and_can_be_restored():
    c = ctx()
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    out = call(c, "trash_message", message_id=hit["id"])
    assert out["already_in_trash"] is False
    assert "TRASH" in c.state.messages[hit["id"]].labels
    assert call(c, "search_messages", query="from:tomas.rivera subject:INV-20417")["total"] == 0
    assert only(c, "in:trash from:tomas.rivera")["id"] == hit["id"]
    before = c.world.snapshot()
    assert call(c, "trash_message", message_id=hit["id"])["already_in_trash"] is True
    assert c.world.snapshot() == before
    call(c, "modify_labels", message_id=hit["id"], remove=["TRASH"])
    assert only(c, "from:tomas.rivera subject:INV-20417")["id"] == hit["id"]
    assert unchanged(c, "trash_message", NotFound, message_id="msg_x").parameter == "message_id"


# --- attachments --------------------------------------------------------------------------------


def test_get_attachment_inline_without_workspace():
    c = ctx()
    hit = only(c, "filename:offsite_venues.csv")
    att_id = c.state.messages[hit["id"]].attachments[0].id
    out = call(c, "get_attachment", message_id=hit["id"], attachment_id=att_id)
    assert out["filename"] == "offsite_venues.csv"
    assert 'Lakeside Lodge,"Cold Spring, NY",2,3500,38500' in out["content"]
    assert out["size"] == len(out["content"].encode())
    assert "saved_to" not in out


def test_get_attachment_binary_without_workspace_is_refused_clearly():
    c = ctx()
    hit = only(c, "filename:INV-20417.pdf")
    err = unchanged(c, "get_attachment", InvalidArgument, message_id=hit["id"], attachment_id="INV-20417.pdf")
    assert err.parameter == "save_as"
    assert "not a text file" in err.message and "no workspace" in err.message


def test_fixture_documents_are_real_and_agree_with_the_company_facts():
    files = MemoryFiles()
    c = ctx(files)
    saved = {}
    for query, name in (
        ("filename:INV-20417.pdf", "INV-20417.pdf"),
        ("filename:q1_budget_draft.xlsx", "q1_budget_draft.xlsx"),
        ("filename:redline", "Contoso_CT-2291_renewal_redline.docx"),
    ):
        hit = only(c, query)
        out = call(c, "get_attachment", message_id=hit["id"], attachment_id=name)
        saved[name] = files.files[out["saved_to"]]
        assert out["saved_to"] == f"downloads/{name}" and out["size"] == len(saved[name])
    invoice = extract_text(saved["INV-20417.pdf"])
    for fact in ("FABRIKAM LOGISTICS", "INV-20417", "$12,480.00", "PO-7781", "2026-03-15", "2026-02-13"):
        assert fact in invoice, fact
    book = saved["q1_budget_draft.xlsx"]
    assert read_cell(book, "Q1 budget", "A5") == "Marketing" and read_cell(book, "Q1 budget", "B5") == "Events"
    assert read_cell(book, "Q1 budget", "E5") == -13250
    assert read_cell(book, "Q1 budget", "A16") == "Total" and read_cell(book, "Q1 budget", "C16") == 744500
    redline = extract_text(saved["Contoso_CT-2291_renewal_redline.docx"])
    for fact in ("CT-2291", "$444,960", "Net 45", "PO-88213", "12 months of fees", "March 16"):
        assert fact in redline, fact


def test_fixture_attachments_are_blobs_with_sizes_and_types():
    state = GmailState.model_validate(build(people_records(), NOW, USER))
    atts = [a for m in state.messages.values() for a in m.attachments]
    atts += [a for d in state.drafts.values() for a in d.attachments]
    assert len(atts) >= 25
    for a in atts:
        assert a.blob in BLOBS and a.size == len(BLOBS[a.blob]) > 0, a.filename
    kinds = {a.filename.rsplit(".", 1)[1]: a.mime_type for a in atts}
    assert kinds["pdf"] == "application/pdf" and kinds["csv"] == "text/csv" and kinds["md"] == "text/markdown"
    assert kinds["xlsx"].endswith("spreadsheetml.sheet") and kinds["docx"].endswith("wordprocessingml.document")


def test_get_attachment_saves_into_workspace():
    files = MemoryFiles()
    c = ctx(files)
    hit = only(c, "filename:offsite_venues.csv")
    out = call(c, "get_attachment", message_id=hit["id"], attachment_id="OFFSITE_VENUES.CSV")
    assert out["saved_to"] == "downloads/offsite_venues.csv"
    assert b"Lakeside Lodge" in files.files["downloads/offsite_venues.csv"]
    assert "content" not in out
    out = call(c, "get_attachment", message_id=hit["id"], attachment_id=out["attachment_id"], save_as="v.csv")
    assert out["saved_to"] == "v.csv"


def test_get_attachment_unknown():
    c = ctx()
    hit = only(c, "filename:offsite_venues.csv")
    err = unchanged(c, "get_attachment", NotFound, message_id=hit["id"], attachment_id="att_nope")
    assert err.parameter == "attachment_id"
    assert "offsite_venues.csv" in err.message
    assert unchanged(c, "get_attachment", NotFound, message_id="x", attachment_id="y").parameter == "message_id"


# --- schema -------------------------------------------------------------------------------------


def test_tool_schemas_are_flat_and_described():
    for action in gmail.app.actions.values():
        assert len(action.tool_name) <= 48
        schema = action.input_schema
        assert schema["type"] == "object"
        assert "$defs" not in json.dumps(schema)
        for prop in schema["properties"].values():
            assert prop["type"] and prop["description"]
        assert "Example: " in action.description


# --- archive, read and unread -------------------------------------------------------------------


def test_archive_mark_read_and_unread_in_batches():
    c = ctx()
    tomas = only(c, "from:tomas.rivera subject:INV-20417")["id"]
    venues = only(c, "filename:offsite_venues.csv")["id"]
    out = call(c, "archive_message", message_ids=[tomas, venues, tomas])
    assert out == {"changed": [tomas, venues], "unchanged": []}
    assert "INBOX" not in c.state.messages[tomas].labels and "Finance" in c.state.messages[tomas].labels
    assert call(c, "archive_message", message_ids=[tomas]) == {"changed": [], "unchanged": [tomas]}
    assert call(c, "mark_read", message_ids=[tomas, venues]) == {"changed": [tomas], "unchanged": [venues]}
    assert "UNREAD" not in c.state.messages[tomas].labels
    assert call(c, "mark_unread", message_ids=[venues]) == {"changed": [venues], "unchanged": []}
    assert c.state.messages[venues].labels[-1] == "UNREAD"
    assert only(c, "is:unread filename:offsite_venues.csv")["id"] == venues
    assert call(c, "search_messages", query="in:inbox from:tomas.rivera")["total"] == 0


def test_archive_and_marking_errors_change_nothing():
    c = ctx()
    tomas = only(c, "from:tomas.rivera subject:INV-20417")["id"]
    for action in ("archive_message", "mark_read", "mark_unread"):
        err = unchanged(c, action, NotFound, message_ids=[tomas, "msg_9999"])
        assert err.parameter == "message_ids" and "msg_9999" in err.message
        assert unchanged(c, action, InvalidArgument, message_ids=[]).parameter == "message_ids"


# --- filters --------------------------------------------------------------------------------------


def test_fixture_filters_match_the_labels_on_their_mail():
    c = ctx()
    filters = call(c, "list_filters")["filters"]
    assert [(f["id"], f["sender"], f["add_labels"]) for f in filters] == [
        ("filter_0001", "no-reply@expensely.example", ["Finance"]),
        ("filter_0002", "billing@fabrikam.example", ["Vendors", "Finance"]),
    ]
    assert filters[1]["search"] == 'from:"billing@fabrikam.example"'
    for f in c.state.filters.values():
        mail = [m for m in c.state.messages.values() if m.sender == f.sender]
        assert mail and all(set(f.add_labels) <= set(m.labels) for m in mail)


def test_create_filter_stores_it_and_applies_to_existing_mail_on_request():
    c = ctx()
    out = call(c, "create_filter", sender="Daniel Wright", subject="pipeline report", has_attachment=True,
               add_labels=["finance", "starred"], archive=True, mark_read=True)  # fmt: skip
    f = c.state.filters[out["filter"]["id"]]
    assert (f.sender, f.subject, f.has_attachment, f.add_labels) == (
        "Daniel Wright", "pipeline report", True, ["Finance", "STARRED"]
    )  # fmt: skip
    assert out["matching_messages"] == 8 and out["changed_messages"] == []
    pipeline = [m for m in c.state.messages.values() if m.subject.startswith("Weekly pipeline report")]
    assert all("Finance" not in m.labels for m in pipeline)  # stored only: applies to mail arriving later
    again = call(c, "create_filter", sender="daniel.wright", add_labels=["Finance"], archive=True,
                 mark_read=True, apply_to_existing=True)  # fmt: skip
    daniels = [m for m in c.state.messages.values() if m.sender == "daniel.wright@northwind.example"]
    assert len(daniels) > len(pipeline)
    assert sorted(again["changed_messages"]) == sorted(m.id for m in daniels)
    for m in daniels:
        assert "Finance" in m.labels and "INBOX" not in m.labels and "UNREAD" not in m.labels
    assert [f["id"] for f in call(c, "list_filters")["filters"]][-2:] == [out["filter"]["id"], again["filter"]["id"]]


def test_a_filter_sorts_mail_that_arrives_later():
    c = ctx()
    call(c, "create_filter", subject="expense receipt", add_labels=["Finance"], archive=True, mark_read=True)
    sent = call(c, "send_message", to=[USER], subject="Expense receipt: taxi", body="$42 taxi to LGA")
    assert c.state.messages[sent["id"]].labels == ["SENT", "Finance"]
    other = call(c, "send_message", to=[USER], subject="Lunch", body="note to self")
    assert other["labels"] == ["SENT", "INBOX"]


@pytest.mark.parametrize(
    ("args", "param", "error"),
    [
        ({"add_labels": ["Finance"]}, "sender", InvalidArgument),
        ({"sender": "x@contoso.example"}, "add_labels", InvalidArgument),
        ({"sender": "x@contoso.example", "add_labels": ["Receipts"]}, "add_labels", InvalidArgument),
        ({"sender": "x@contoso.example", "add_labels": ["INBOX"]}, "add_labels", InvalidArgument),
        ({"sender": "x@contoso.example", "add_labels": ["TRASH"]}, "add_labels", InvalidArgument),
        ({"query": "after:2026/13/01", "archive": True}, "query", InvalidArgument),
        ({"sender": "x@contoso.example", "forward_to": "ghost@northwind.example"}, "forward_to", NotFound),
        ({"sender": "x@contoso.example", "forward_to": USER}, "forward_to", InvalidArgument),
        ({"sender": "billing@fabrikam.example", "add_labels": ["Vendors", "Finance"]}, "sender", Conflict),
    ],
)
def test_create_filter_errors_change_nothing(args, param, error):
    err = unchanged(ctx(), "create_filter", error, **args)
    assert err.parameter == param


def test_filter_forwarding_address_and_delete():
    c = ctx()
    out = call(c, "create_filter", query="INV- has:attachment", forward_to="Owen Bell")
    assert out["filter"]["forward_to"] == "owen.bell@northwind.example"
    assert out["filter"]["search"] == "INV- has:attachment"
    assert call(c, "delete_filter", filter_id=out["filter"]["id"]) == {"deleted": out["filter"]["id"]}
    assert out["filter"]["id"] not in c.state.filters and len(c.state.filters) == 2
    assert unchanged(c, "delete_filter", NotFound, filter_id=out["filter"]["id"]).parameter == "filter_id"


# --- vacation reply -------------------------------------------------------------------------------


def test_vacation_reply_starts_saved_and_off():
    out = call(ctx(), "get_vacation")
    assert out["enabled"] is False and out["replying_now"] is False
    assert (out["start_date"], out["end_date"]) == ("2026-01-26", "2026-01-28")
    assert "Amelia Ward" in out["body"]


def test_set_vacation_on_with_dates_then_off_keeps_the_text():
    c = ctx()
    out = call(c, "set_vacation", enabled=True, subject=" Out of  office ", body="In Chicago until April 2.",
               start_date="2026-03-31", end_date="2026/04/02", company_only=True)  # fmt: skip
    assert out == {"enabled": True, "subject": "Out of office", "body": "In Chicago until April 2.",
                   "start_date": "2026-03-31", "end_date": "2026-04-02", "company_only": True,
                   "replying_now": False}  # fmt: skip
    v = c.state.vacation
    assert (v.start_date.isoformat(), v.end_date.isoformat(), v.updated) == ("2026-03-31", "2026-04-02", NOW)
    now = call(c, "set_vacation", enabled=True, body="Out today.")
    assert (now["start_date"], now["end_date"], now["replying_now"], now["subject"]) == ("2026-03-09", "", True, "")
    off = call(c, "set_vacation", enabled=False, body="ignored")
    assert (off["enabled"], off["body"], off["start_date"]) == (False, "Out today.", "2026-03-09")


@pytest.mark.parametrize(
    ("args", "param"),
    [
        ({"body": ""}, "body"),
        ({"body": "Away", "start_date": "2026-04-02", "end_date": "2026-03-31"}, "end_date"),
        ({"body": "Away", "start_date": "2026-03-01", "end_date": "2026-03-06"}, "end_date"),
        ({"body": "Away", "start_date": "next week"}, "start_date"),
    ],
)
def test_set_vacation_errors_change_nothing(args, param):
    err = unchanged(ctx(), "set_vacation", InvalidArgument, enabled=True, **args)
    assert err.parameter == param


# --- contacts -------------------------------------------------------------------------------------


def test_list_contacts_counts_mail_both_ways():
    c = ctx()
    out = call(c, "list_contacts", page_size=100)
    rows = {r["email"]: r for r in out["contacts"]}
    assert USER not in rows
    priya = rows[PRIYA]
    received = sum(m.sender == PRIYA for m in c.state.messages.values())
    sent = sum(m.sender == USER and PRIYA in (*m.to, *m.cc, *m.bcc) for m in c.state.messages.values())
    assert (priya["name"], priya["in_company"], priya["received"], priya["sent"]) == (
        "Priya Shah",
        True,
        received,
        sent,
    )
    assert priya["total"] == received + sent > 3
    totals = [r["total"] for r in out["contacts"]]
    assert totals == sorted(totals, reverse=True)
    billing = call(c, "list_contacts", query="fabrikam")["contacts"]
    assert [(r["email"], r["name"], r["in_company"], r["received"], r["sent"]) for r in billing] == [
        ("billing@fabrikam.example", "", False, 1, 0)
    ]
    assert billing[0]["last_date"] == "2026-03-02T06:40:00-05:00"
    assert call(c, "list_contacts", query="renee")["total"] == 0  # outside names are not guessed


def test_settings_and_contacts_reads_change_nothing():
    c = ctx()
    before = c.world.snapshot()
    call(c, "list_filters")
    call(c, "get_vacation")
    call(c, "list_contacts", query="priya")
    assert c.world.snapshot() == before
