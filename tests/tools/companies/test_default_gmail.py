import json
from datetime import datetime

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.gmail.conftest import only
from tools.apps.gmail import GmailState, app
from tools.companies import NOW, USER
from tools.companies.default.gmail import build
from tools.companies.default.people import people_records
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell

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
    text += " ".join(a.description + json.dumps(a.input_schema) for a in app.actions.values()).lower()
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


def test_fixture_documents_are_real_and_agree_with_the_company_facts():
    files = MemoryFiles()
    c = app_ctx("gmail", files)
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
