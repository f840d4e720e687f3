import base64

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call, unchanged
from tests.tools.apps.gmail.conftest import MARCUS, PRIYA, data_of, only
from tools.apps.gmail import app
from tools.companies import NOW, USER
from tools.kernel.documents import extract_text, make_pdf, make_png
from tools.kernel.exceptions import InvalidArgument, NotFound

# --- search -------------------------------------------------------------------------------------


def test_search_combines_sender_attachment_and_subject():
    hit = only(app_ctx("gmail"), 'from:priya.shah has:attachment subject:"q1 budget"')
    assert hit["subject"] == "Q1 budget review - draft numbers"
    assert hit["from"] == PRIYA
    assert hit["has_attachments"] is True
    assert "Finance" in hit["labels"]


def test_search_quoted_phrase_and_sender_name_from_directory():
    c = app_ctx("gmail")
    out = call(c, "search_messages", query='"INV-20417"')
    assert {r["from"] for r in out["results"]} == {"billing@fabrikam.example", "tomas.rivera@northwind.example"}
    by_name = call(c, "search_messages", query='from:"Tomas Rivera" INV-20417')
    assert [r["subject"] for r in by_name["results"]] == ["Fabrikam invoice INV-20417 - any concerns before approval?"]


def test_search_is_newest_first_and_pages():
    c = app_ctx("gmail")
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
    c = app_ctx("gmail")
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
    c = app_ctx("gmail")
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
    c = app_ctx("gmail")
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
    err = unchanged(app_ctx("gmail"), "search_messages", InvalidArgument, query=query)
    assert err.parameter == "query"
    assert words in err.message


def test_search_older_than_counts_back_from_now():
    c = app_ctx("gmail")
    out = call(c, "search_messages", query="older_than:30d", page_size=100)
    cutoff = "2026-02-07T09:00"
    assert out["total"] > 10
    assert all(r["date"] < cutoff for r in out["results"])
    newer = call(c, "search_messages", query="newer_than:30d")["total"]
    assert out["total"] + newer == call(c, "search_messages")["total"]


def test_search_unknown_prefix_is_plain_text():
    assert call(app_ctx("gmail"), "search_messages", query="foo:bar")["total"] == 0


# --- reading ------------------------------------------------------------------------------------


def test_get_message_full_with_attachment_metadata():
    c = app_ctx("gmail")
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
    err = unchanged(app_ctx("gmail"), "get_message", NotFound, message_id="msg_9999")
    assert err.parameter == "message_id"
    assert "search-messages" in err.message


def test_read_only_actions_change_nothing():
    c = app_ctx("gmail")
    before = c.world.snapshot()
    hit = only(c, "filename:offsite_venues.csv")
    call(c, "get_message", message_id=hit["id"])
    call(c, "get_thread", thread_id=hit["thread_id"])
    call(c, "list_drafts")
    call(c, "list_labels")
    call(c, "get_attachment", message_id=hit["id"], attachment_id="offsite_venues.csv")
    assert c.world.snapshot() == before
    assert all(a.read_only == (a.name.startswith(("search", "get", "list"))) for a in app.actions.values())


# --- sending ------------------------------------------------------------------------------------


def test_send_message_stores_it_in_sent_mail():
    c = app_ctx("gmail")
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
    c = app_ctx("gmail")
    out = call(c, "send_message", to=["Alex.Morgan@northwind.example"], body="note to self")
    assert out["labels"] == ["SENT", "INBOX"]
    assert out["subject"] == ""


def test_send_message_attaches_workspace_files():
    files = MemoryFiles({"reports/q1.csv": b"dept,total\nSales,10\n"})
    c = app_ctx("gmail", files)
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
    err = unchanged(app_ctx("gmail"), "send_message", error, **args)
    assert err.parameter == param


def test_send_message_attaches_binary_files_of_any_kind():
    pdf, png = make_pdf("Board memo", ["Atlas cutover April 18"]), make_png(4, 4, (10, 20, 30))
    c = app_ctx("gmail", MemoryFiles({"memo.pdf": pdf, "img/logo.png": png}))
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
    c = app_ctx("gmail", MemoryFiles({"ok.txt": b"fine"}))
    err = unchanged(c, "send_message", NotFound, to=[PRIYA], subject="x", attachments=["ok.txt", "missing.csv"])
    assert "missing.csv" in err.message
    assert unchanged(c, "send_message", InvalidArgument, to=[PRIYA], subject="x", attachments=[""]).parameter == (
        "attachments"
    )


def test_pasted_base64_and_data_uris_are_refused_with_the_workspace_way():
    c = app_ctx("gmail", MemoryFiles({"ok.txt": b"fine"}))
    pasted = base64.b64encode(make_pdf("x", ["y"])).decode()
    for args in (
        {"attachments": [pasted]},
        {"attachments": ["data:application/pdf;base64,JVBERi0xLjQK"]},
        {"body": f"Here it is: {pasted}"},
    ):
        err = unchanged(c, "send_message", InvalidArgument, to=[PRIYA], subject="x", **args)
        assert err.message == (
            "looks like file content pasted as base64 or a data: URI; files are not pasted as text: save the file "
            'in your workspace and pass its path in attachments, e.g. attachments=["downloads/INV-20417.pdf"] instead'
        )
        assert err.parameter == next(iter(args))
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    err = unchanged(c, "reply_to_message", InvalidArgument, message_id=hit["id"], body="data:text/plain;base64,aGk=")
    assert err.parameter == "body"
    assert unchanged(c, "create_draft", InvalidArgument, body=pasted).parameter == "body"
    err = unchanged(c, "forward_message", InvalidArgument, message_id=hit["id"], to=[PRIYA], note=pasted)
    assert err.parameter == "note"


def test_attachments_over_25_mb_are_refused():
    big = b"x" * (13 * 1024 * 1024)
    c = app_ctx("gmail", MemoryFiles({"a.bin": big, "b.bin": big}))
    err = unchanged(c, "send_message", InvalidArgument, to=[PRIYA], subject="x", attachments=["a.bin", "b.bin"])
    assert err.parameter == "attachments" and "25 MB" in err.message
    out = call(c, "send_message", to=[PRIYA], subject="x", attachments=["a.bin"])
    assert out["attachments"][0]["mime_type"] == "application/octet-stream"


def test_reply_goes_to_sender_in_same_thread():
    c = app_ctx("gmail")
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    out = call(c, "reply_to_message", message_id=hit["id"], body="Approved.")
    msg = c.state.messages[out["id"]]
    assert msg.to == ["tomas.rivera@northwind.example"]
    assert msg.cc == []
    assert msg.subject == "Re: Fabrikam invoice INV-20417 - any concerns before approval?"
    assert (msg.thread_id, msg.in_reply_to) == (hit["thread_id"], hit["id"])
    assert msg.labels == ["SENT"]


def test_reply_all_includes_everyone_but_me():
    c = app_ctx("gmail")
    hit = only(c, 'subject:"Atlas migration: cutover plan" from:liam.chen')
    out = call(c, "reply_to_message", message_id=hit["id"], body="Thanks.", reply_all=True, cc=["Owen Bell"])
    msg = c.state.messages[out["id"]]
    assert msg.to == ["liam.chen@northwind.example", "elena.petrova@northwind.example"]
    assert msg.cc == ["mia.thompson@northwind.example", "owen.bell@northwind.example"]
    assert msg.subject == "Re: Atlas migration: cutover plan for April 18"


def test_reply_to_my_own_message_goes_to_its_recipients():
    c = app_ctx("gmail")
    hit = only(c, 'in:sent subject:"Staff meeting agenda - Tuesday"')
    msg = call(c, "reply_to_message", message_id=hit["id"], body="Adding the lease decision.")
    assert msg["to"] == c.state.messages[hit["id"]].to
    assert len(msg["to"]) == 5


def test_reply_errors_change_nothing():
    c = app_ctx("gmail")
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    assert unchanged(c, "reply_to_message", InvalidArgument, message_id=hit["id"], body="  ").parameter == "body"
    assert unchanged(c, "reply_to_message", NotFound, message_id="nope", body="hi").parameter == "message_id"
    err = unchanged(c, "reply_to_message", NotFound, message_id=hit["id"], body="hi", cc=["ghost@northwind.example"])
    assert err.parameter == "cc"


def test_forward_keeps_attachments_and_quotes_original():
    c = app_ctx("gmail")
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
    c = app_ctx("gmail")
    hit = only(c, "subject:INV-20417 from:billing@fabrikam")
    assert unchanged(c, "forward_message", InvalidArgument, message_id=hit["id"], to=[]).parameter == "to"
    assert unchanged(c, "forward_message", NotFound, message_id="msg_0", to=[PRIYA]).parameter == "message_id"


def test_a_long_body_comes_in_parts_and_threads_show_a_shorter_part():
    c = app_ctx("gmail")
    body = "".join(f"line {n:05d} of the long report\n" for n in range(1_400))  # 43,400 characters
    sent = call(c, "send_message", to=["priya.shah@northwind.example"], subject="Long report", body=body)
    first = call(c, "get_message", message_id=sent["id"])
    assert first["body"] == body[:20_000] and first["body_chars"] == len(body) and first["body_next_offset"] == 20_000
    parts = [first["body"]]
    offset = first["body_next_offset"]
    while offset is not None:
        more = call(c, "get_message", message_id=sent["id"], body_offset=offset)
        parts.append(more["body"])
        offset = more["body_next_offset"]
    assert "".join(parts) == body
    thread = call(c, "get_thread", thread_id=sent["id"])
    assert len(thread["messages"][0]["body"]) == 5_000 and thread["messages"][0]["body_next_offset"] == 5_000


# --- trash --------------------------------------------------------------------------------------


def test_trash_hides_from_search_and_can_be_restored():
    c = app_ctx("gmail")
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
