"""The mailbox's records and the helpers every mail action shares: lookups, delivery and the views callers see.

:mod:`tools.gmail` declares the app and its actions; the records live here so that the
draft and settings actions (:mod:`tools.apps.gmail.actions.drafts`, :mod:`tools.apps.gmail.actions.settings`) can
share them without importing the app module.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from tools.apps.gmail._query import matches, parse_query
from tools.apps.gmail._rules import directory_names
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import AppState, Context, Record, format_instant
from tools.kits.text import fold

__all__ = [
    "AUTOMATIC_LABELS",
    "SYSTEM_LABELS",
    "Attachment",
    "Draft",
    "Filter",
    "GmailState",
    "Label",
    "Message",
    "Vacation",
    "deliver",
    "filter_query",
    "full_view",
    "find_draft",
    "find_message",
    "label_key",
    "make_attachments",
    "resolve_label",
]

#: Labels every mailbox has; SENT and DRAFT are set by sending and drafting only.
SYSTEM_LABELS = ("INBOX", "SENT", "DRAFT", "TRASH", "STARRED", "IMPORTANT", "UNREAD")
AUTOMATIC_LABELS = ("SENT", "DRAFT")


class Attachment(Record):
    """A file attached to a message or draft; its bytes are kept as a blob."""

    id: str
    filename: str
    mime_type: str = "application/octet-stream"
    size: int = 0  # bytes
    blob: str  # blob id of the file's bytes


class Message(Record):
    """One mail message in the mailbox, received or sent."""

    id: str
    thread_id: str
    sender: str
    to: list[str] = []
    cc: list[str] = []
    bcc: list[str] = []
    subject: str = ""
    body: str = ""
    date: datetime
    labels: list[str] = []
    attachments: list[Attachment] = []
    in_reply_to: str = ""  # id of the message this one answers
    forwarded_from: str = ""  # id of the message this one forwards


class Draft(Record):
    """An unsent message; once sent, ``sent_message_id`` names the message it became."""

    id: str
    thread_id: str = ""
    to: list[str] = []
    cc: list[str] = []
    bcc: list[str] = []
    subject: str = ""
    body: str = ""
    attachments: list[Attachment] = []
    in_reply_to: str = ""
    updated: datetime
    sent_message_id: str = ""


class Label(Record):
    """A label the user created (system labels are built in)."""

    id: str
    name: str


class Filter(Record):
    """A rule for incoming mail: every given criterion must match, then every action is taken."""

    id: str
    sender: str = ""
    to: str = ""
    subject: str = ""
    query: str = ""
    has_attachment: bool = False
    add_labels: list[str] = []
    archive: bool = False
    mark_read: bool = False
    forward_to: str = ""
    created: datetime


class Vacation(Record):
    """The automatic reply sent while the user is away (first and last day included)."""

    enabled: bool = False
    subject: str = ""
    body: str = ""
    start_date: date | None = None
    end_date: date | None = None
    company_only: bool = False
    updated: datetime | None = None


class GmailState(AppState):
    """The acting user's mailbox: messages, drafts, custom labels and filters keyed by id; the vacation reply."""

    messages: dict[str, Message] = {}
    drafts: dict[str, Draft] = {}
    labels: dict[str, Label] = {}
    filters: dict[str, Filter] = {}
    vacation: Vacation = Vacation()


# --- lookups ------------------------------------------------------------------------------------


def label_key(name: str) -> str:
    """A label name folded for comparison ("board-prep" and "Board Prep" are the same)."""
    return fold(name.replace("-", " "))


def resolve_label(state: GmailState, name: str, parameter: str) -> str:
    """The exact name of a system or user label written loosely.

    Raises:
        InvalidArgument: No such label (the message lists them).
    """
    key = label_key(name)
    for known in (*SYSTEM_LABELS, *(lab.name for lab in state.labels.values())):
        if label_key(known) == key:
            return known
    listing = ", ".join([*SYSTEM_LABELS, *sorted(lab.name for lab in state.labels.values())])
    raise InvalidArgument(
        f"there is no label '{name}'; labels are: {listing} (make a new one with gmail create-label)", parameter
    )


def find_message(state: GmailState, message_id: str, parameter: str = "message_id") -> Message:
    """The message with this id.

    Raises:
        NotFound: No such message.
    """
    msg = state.messages.get(message_id.strip())
    if msg is None:
        raise NotFound(f"no message with id '{message_id}'; use gmail search-messages to find ids", parameter)
    return msg


def find_draft(state: GmailState, draft_id: str) -> Draft:
    """The unsent draft with this id.

    Raises:
        NotFound: No such draft.
        Conflict: The draft was already sent.
    """
    draft = state.drafts.get(draft_id.strip())
    if draft is None:
        raise NotFound(f"no draft with id '{draft_id}'; use gmail list-drafts to find ids", "draft_id")
    if draft.sent_message_id:
        raise Conflict(f"draft '{draft_id}' was already sent as message '{draft.sent_message_id}'", "draft_id")
    return draft


def make_attachments(ctx: Context[GmailState], files: list[tuple[str, str, bytes]]) -> list[Attachment]:
    """Store each ``(filename, mime_type, bytes)`` as a blob and return the attachment records."""
    return [
        Attachment(id=ctx.new_id("att"), filename=n, mime_type=t, size=len(data), blob=ctx.blobs.put(data))
        for n, t, data in files
    ]


# --- filters --------------------------------------------------------------------------------------


def _quoted(value: str) -> str:
    return '"' + value.replace('"', " ").strip() + '"'


def filter_query(f: Filter) -> str:
    """The search query a filter stands for, e.g. ``from:"billing@fabrikam.example" has:attachment``."""
    parts = []
    if f.sender:
        parts.append(f"from:{_quoted(f.sender)}")
    if f.to:
        parts.append(f"to:{_quoted(f.to)}")
    if f.subject:
        parts.append(f"subject:{_quoted(f.subject)}")
    if f.has_attachment:
        parts.append("has:attachment")
    if f.query:
        parts.append(f.query)
    return " ".join(parts)


def filter_matches(ctx: Context[GmailState], f: Filter, msg: Message) -> bool:
    """True when ``msg`` meets every criterion of ``f`` (trashed mail never does)."""
    if "TRASH" in msg.labels:
        return False
    terms = parse_query(filter_query(f), ctx.tz, ctx.now, lambda n: resolve_label(ctx.state, n, "query"))
    return matches(terms, msg, directory_names(ctx))


def filter_labels(f: Filter, labels: list[str]) -> list[str]:
    """The labels a message ends up with after the filter's label, archive and mark-read actions."""
    out = [n for n in labels if not (f.archive and n == "INBOX") and not (f.mark_read and n == "UNREAD")]
    return out + [n for n in f.add_labels if n not in out]


# --- delivery -------------------------------------------------------------------------------------


def deliver(ctx: Context[GmailState], **fields: Any) -> Message:
    """Store a message sent by the acting user now and return it.

    A copy to oneself also arrives in the inbox, where the user's filters sort it.
    """
    labels = ["SENT"]
    if ctx.user in (*fields["to"], *fields["cc"], *fields["bcc"]):
        labels.append("INBOX")
    msg_id = ctx.new_id("msg")
    thread_id = fields.pop("thread_id", "") or ctx.new_id("thr")
    msg = Message(id=msg_id, thread_id=thread_id, sender=ctx.user, date=ctx.now, labels=labels, **fields)
    if "INBOX" in labels:
        for f in ctx.state.filters.values():
            if filter_matches(ctx, f, msg):
                msg.labels = ["SENT", *(n for n in filter_labels(f, msg.labels) if n != "SENT")]
    ctx.state.messages[msg.id] = msg
    return msg


# --- views ----------------------------------------------------------------------------------------


def files_view(items: list[Attachment]) -> list[dict[str, Any]]:
    """Attachment metadata: ``[{"id", "filename", "mime_type", "size"}]``."""
    return [{"id": a.id, "filename": a.filename, "mime_type": a.mime_type, "size": a.size} for a in items]


def summary_view(ctx: Context[GmailState], m: Message) -> dict[str, Any]:
    """A message as search results show it."""
    return {
        "id": m.id,
        "thread_id": m.thread_id,
        "from": m.sender,
        "to": m.to,
        "subject": m.subject,
        "date": format_instant(m.date, ctx.tz),
        "snippet": " ".join(m.body.split())[:120],
        "labels": m.labels,
        "has_attachments": bool(m.attachments),
    }


def full_view(ctx: Context[GmailState], m: Message) -> dict[str, Any]:
    """A message in full, as get-message shows it."""
    return {
        **summary_view(ctx, m),
        "cc": m.cc,
        "bcc": m.bcc,
        "body": m.body,
        "attachments": files_view(m.attachments),
        "in_reply_to": m.in_reply_to,
        "forwarded_from": m.forwarded_from,
    }


def draft_view(ctx: Context[GmailState], d: Draft) -> dict[str, Any]:
    """A draft as list-drafts shows it."""
    fields = d.model_dump(exclude={"attachments", "updated", "sent_message_id"})
    return {**fields, "attachments": files_view(d.attachments), "updated": format_instant(d.updated, ctx.tz)}
