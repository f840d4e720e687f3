"""The mailbox's records: messages, drafts, attachments, labels, filters and the vacation reply, and the GmailState."""

from __future__ import annotations

from datetime import date, datetime

from tools.kernel.world import AppState, Record

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
]

#: Labels every mailbox has; SENT and DRAFT are set by sending and drafting only.
SYSTEM_LABELS = ("INBOX", "SENT", "DRAFT", "TRASH", "STARRED", "IMPORTANT", "UNREAD")
#: The system labels only sending and drafting set (never by hand or by a filter).
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
