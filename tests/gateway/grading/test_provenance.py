"""Files are judged by provenance: ``same_bytes_as`` holds when a file carries the bytes of a named source."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from gateway.grading import grade, validate_checks
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import make_pdf

SIGNED = make_pdf("Equipment loan agreement EQ-12345", ["Employee: Ana Lopez", "Signed by Ana Lopez"])
DRAFT = make_pdf("Equipment loan agreement EQ-12345", ["Employee: Ana Lopez", "DRAFT - not signed"])
#: What the agent typed under the signed form's name: the right words, none of the mailed bytes.
TYPED = b"Equipment loan agreement EQ-12345\nEmployee: Ana Lopez\nSigned by Ana Lopez"
NAME = "Equipment_Loan_Agreement_EQ-12345_signed.pdf"


def _world(blobs: BlobStore) -> dict[str, Any]:
    mail = {
        "msg_signed": {"id": "msg_signed", "subject": "Signed form",
                       "attachments": [{"id": "att_signed", "filename": NAME, "blob": blobs.put(SIGNED)}]},
        "msg_draft": {"id": "msg_draft", "subject": "Draft form",
                      "attachments": [{"id": "att_draft", "filename": "draft.pdf", "blob": blobs.put(DRAFT)}]},
    }  # fmt: skip
    return {"gmail": {"messages": mail}, "helpdesk": {"attachments": {}}}


def _attached(initial: dict[str, Any], blobs: BlobStore, data: bytes, name: str = NAME) -> dict[str, Any]:
    att = {"id": "att_new", "ticket_id": "HD-1", "name": name, "blob": blobs.put(data), "size": len(data)}
    return {**initial, "helpdesk": {"attachments": {"att_new": att}}}


def _check(source: Any) -> list[dict[str, Any]]:
    where = {"ticket_id": "HD-1", "blob": {"same_bytes_as": source}}
    return [{"name": "attached", "kind": "record", "app": "helpdesk", "collection": "attachments", "where": where}]


ALLOW = [{"app": "helpdesk", "collection": "attachments", "kinds": ["add"]}]
REFERENCE = {"app": "gmail", "collection": "messages", "id": "msg_signed", "attachment": "att_signed"}


@pytest.mark.parametrize(
    ("data", "passes"),
    [(SIGNED, True), (TYPED, False), (DRAFT, False), (SIGNED + b"\n", False)],
    ids=["same-bytes", "typed-text-under-the-name", "another-attachment", "one-byte-more"],
)
@pytest.mark.parametrize(
    "source",
    [
        REFERENCE,
        {**REFERENCE, "attachment": NAME},  # the attachment by its file name
        {"app": "gmail", "collection": "messages", "id": "msg_signed", "field": "attachments.0.blob"},
        "blob id",  # the blob id, known when the row is built
        {"blob": "blob id"},
    ],
    ids=["by-attachment-id", "by-attachment-name", "by-field", "blob-id", "blob-object"],
)
def test_same_bytes_as_passes_only_the_source_bytes(data, passes, source):
    blobs = BlobStore()
    initial = _world(blobs)
    signed_blob = initial["gmail"]["messages"]["msg_signed"]["attachments"][0]["blob"]
    if source == "blob id":
        source = signed_blob
    elif source == {"blob": "blob id"}:
        source = {"blob": signed_blob}
    final = _attached(initial, blobs, data)
    assert grade(_check(source), ALLOW,
                 initial, final, None, blobs).reward == (1.0 if passes else 0.0)  # fmt: skip


def test_the_source_is_read_in_the_seed_world_not_the_final_one():
    blobs = BlobStore()
    initial = _world(blobs)
    final = _attached(initial, blobs, TYPED)
    # the agent also swaps the mailed attachment for its typed text: the seed still says what was mailed
    msg = final["gmail"]["messages"]["msg_signed"]
    forged = {**msg, "attachments": [{**msg["attachments"][0], "blob": blobs.put(TYPED)}]}
    final = {**final, "gmail": {"messages": {**final["gmail"]["messages"], "msg_signed": forged}}}
    assert grade(_check(REFERENCE), [], initial, final, None, blobs).checks[0].passed is False


def test_a_source_that_is_not_there_never_passes():
    blobs = BlobStore()
    initial = _world(blobs)
    final = _attached(initial, blobs, SIGNED)
    for source in (
        {**REFERENCE, "id": "msg_missing"},
        {**REFERENCE, "attachment": "att_missing"},
        {"app": "gmail", "collection": "messages", "id": "msg_signed", "field": "subject"},
        "sha256:" + "0" * 64,
    ):
        assert grade(_check(source), [], initial, final, None, blobs).checks[0].passed is False, source


def test_the_declared_text_transform():
    """``"as": "text"``: a text file holding the source document's text (drive read-file's conversion)."""
    from tools.kernel.documents import extract_text

    blobs = BlobStore()
    initial = _world(blobs)
    source = {**REFERENCE, "as": "text"}
    text = extract_text(SIGNED).encode()
    assert grade(_check(source), ALLOW, initial, _attached(initial, blobs, text, "form.txt"), None, blobs).reward == 1.0
    assert grade(_check(source), ALLOW, initial, _attached(initial, blobs, SIGNED), None, blobs).reward == 0.0
    draft_text = extract_text(DRAFT).encode()
    assert grade(_check(source), ALLOW, initial, _attached(initial, blobs, draft_text), None, blobs).reward == 0.0


def test_typed_text_never_passes_whatever_a_text_check_says():
    """The exploit: typed text named ..._signed.pdf passed a text check; it cannot pass a provenance check."""
    blobs = BlobStore()
    initial = _world(blobs)
    final = _attached(initial, blobs, TYPED)
    by_text = [{"name": "attached", "kind": "record", "app": "helpdesk", "collection": "attachments",
                "where": {"blob": {"text": {"contains": "Signed by Ana Lopez"}}}}]  # fmt: skip
    assert grade(by_text, ALLOW, initial, final, None, blobs).reward == 1.0  # what the old check let through
    assert grade(_check(REFERENCE), ALLOW, initial, final, None, blobs).reward == 0.0


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("INV-20417.pdf", "a blob id"),
        ({"app": "gmail", "collection": "messages"}, "'id'"),
        ({**REFERENCE, "field": "attachments.0.blob"}, "not both"),
        ({**REFERENCE, "as": "pdf"}, "'as'"),
        ({**REFERENCE, "version": 2}, "unknown keys"),
        ({"blob": "sha256:" + "0" * 64, "app": "gmail"}, "either"),
    ],
)
def test_bad_sources_are_refused_when_the_row_loads(source, error):
    task = SimpleNamespace(apps=["gmail", "helpdesk"], checks=_check(source), allowed_changes=[])
    with pytest.raises(ValueError, match="same_bytes_as") as err:
        validate_checks(task)
    assert error in str(err.value)


def test_good_sources_load():
    for source in (REFERENCE, {**REFERENCE, "as": "text"}, "sha256:" + "0" * 64, {"blob": "sha256:" + "a" * 64}):
        validate_checks(SimpleNamespace(apps=["gmail", "helpdesk"], checks=_check(source), allowed_changes=[]))
