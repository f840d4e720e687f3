"""Rules the mail actions share: lookups, recipient and attachment checks, search, filters and delivery."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any
from zoneinfo import ZoneInfo

from tools.apps.gmail._query import Term, matches, parse_query, wants_trash
from tools.apps.gmail.state import SYSTEM_LABELS, Attachment, Draft, Filter, GmailState, Message
from tools.kernel.documents import MIME_TYPES
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.files import receive_file, refuse_encoded
from tools.kits.people import directory_of, find_person, known_emails
from tools.kits.text import fold

__all__ = [
    "Contact",
    "check_addresses",
    "check_filter_labels",
    "contacts_of",
    "copy_attachments",
    "deliver",
    "directory_names",
    "filter_labels",
    "filter_matches",
    "filter_query",
    "find_attachment",
    "find_draft",
    "find_message",
    "find_messages",
    "forward_body",
    "label_key",
    "make_attachments",
    "prefixed",
    "query_terms",
    "read_attachments",
    "refuse_pasted_file",
    "relabel",
    "reply_recipients",
    "resolve_label",
    "search",
]

_EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")
_NAMED = re.compile(r"^(.*)<([^<>]+)>\s*$")
_MIME = {
    **MIME_TYPES,
    ".tsv": "text/tab-separated-values",
    ".ics": "text/calendar",
    ".xml": "application/xml",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".zip": "application/zip",
    ".gif": "image/gif",
    ".jpeg": "image/jpeg",
}
#: Largest total size of the files attached to one message (bytes), as in common mail services.
_MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024
#: A block of base64 inside longer text (a body with a file pasted into it).
_PASTED = re.compile(r"[A-Za-z0-9+/]{120,}={0,2}")
#: What the pasted-file refusal tells the caller to pass instead.
_ATTACH_INSTEAD = 'its path in attachments, e.g. attachments=["downloads/INV-20417.pdf"]'
#: Labels a filter may not add: they describe where mail is, not how it is filed.
_NOT_BY_FILTER = {
    "INBOX": "a filter cannot move mail into the inbox",
    "SENT": "SENT is set by sending",
    "DRAFT": "DRAFT is set by drafting",
    "UNREAD": "use mark_read=false (the default) to leave mail unread",
    "TRASH": "a filter here cannot delete mail; use archive=true to keep it out of the inbox",
}


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
    msg: Message | None = state.messages.get(message_id.strip())
    if msg is None:
        raise NotFound(f"no message with id '{message_id}'; use gmail search-messages to find ids", parameter)
    return msg


def find_messages(state: GmailState, message_ids: list[str]) -> list[Message]:
    """The messages with these ids (parameter ``message_ids``), each once, in the order given.

    Raises:
        InvalidArgument: No id given.
        NotFound: An id no message has.
    """
    if not message_ids:
        raise InvalidArgument("give at least one message id (from gmail search-messages)", "message_ids")
    found: list[Message] = []
    for mid in message_ids:
        msg = find_message(state, mid, "message_ids")
        if msg not in found:
            found.append(msg)
    return found


def find_attachment(msg: Message, attachment_id: str) -> Attachment:
    """The message's attachment with this id or, failing that, this exact file name (any case).

    Raises:
        NotFound: The message has no such attachment (the message lists its attachments).
    """
    key = attachment_id.strip()
    att = next((a for a in msg.attachments if a.id == key), None) or next(
        (a for a in msg.attachments if a.filename.lower() == key.lower()), None
    )
    if att is None:
        names = ", ".join(f"{a.id} ({a.filename})" for a in msg.attachments) or "none"
        raise NotFound(f"message '{msg.id}' has no attachment '{attachment_id}'; it has: {names}", "attachment_id")
    return att


def find_draft(state: GmailState, draft_id: str) -> Draft:
    """The unsent draft with this id.

    Raises:
        NotFound: No such draft.
        Conflict: The draft was already sent.
    """
    draft: Draft | None = state.drafts.get(draft_id.strip())
    if draft is None:
        raise NotFound(f"no draft with id '{draft_id}'; use gmail list-drafts to find ids", "draft_id")
    if draft.sent_message_id:
        raise Conflict(f"draft '{draft_id}' was already sent as message '{draft.sent_message_id}'", "draft_id")
    return draft


def directory_names(ctx: Context[GmailState]) -> dict[str, str]:
    """Email address to full name for everyone in the directory (empty when the directory is absent)."""
    directory = directory_of(ctx)
    if directory is None:
        return {}
    return {p.email.lower(): p.name for p in directory.people.values()}


# --- search -------------------------------------------------------------------------------------


def query_terms(ctx: Context[GmailState], query: str) -> list[Term]:
    """The terms of a search query, its labels resolved in this mailbox.

    Raises:
        InvalidArgument: (parameter ``query``) an unusable operator value or an unknown label.
    """
    state = ctx.state
    return parse_query(query, ctx.tz, ctx.now, lambda name: resolve_label(state, name, "query"))


def search(ctx: Context[GmailState], query: str) -> list[Message]:
    """The messages matching ``query``, newest first; trashed mail only when the query asks for it.

    Raises:
        InvalidArgument: (parameter ``query``) the query does not parse.
    """
    terms = query_terms(ctx, query)
    names = directory_names(ctx)
    with_trash = wants_trash(terms)
    hits = [
        (m.date, n, m)
        for n, m in enumerate(ctx.state.messages.values())
        if (with_trash or "TRASH" not in m.labels) and matches(terms, m, names)
    ]
    hits.sort(key=lambda h: (h[0], h[1]), reverse=True)
    return [h[2] for h in hits]


# --- writing mail -------------------------------------------------------------------------------


def refuse_pasted_file(value: str, parameter: str) -> None:
    """Refuse file content pasted as a ``data:`` URI or as base64 text, whole or as a block inside longer text.

    Raises:
        InvalidArgument: naming ``parameter`` and the way to send a file instead (attachments).
    """
    text = value.strip()
    refuse_encoded(text, parameter, instead=_ATTACH_INSTEAD)
    block = _PASTED.search(text)  # a pasted block inside a longer body counts too
    if block:
        refuse_encoded(block[0], parameter, instead=_ATTACH_INSTEAD)


def check_addresses(ctx: Context[GmailState], values: list[str], parameter: str) -> list[str]:
    """Check and normalise recipient addresses.

    ``Name <address>`` keeps the address; a colleague's full name or directory id becomes their
    address. Addresses at the company's own domain must belong to someone in the directory.

    Args:
        ctx: The action's context (its user's domain is the company's).
        values: Addresses as the caller wrote them.
        parameter: Parameter name for errors.

    Returns:
        Lower-case addresses, duplicates dropped, in the order given.

    Raises:
        InvalidArgument: Something that is not an address.
        NotFound: A company address or name no one in the directory has.
    """
    directory = directory_of(ctx)
    emails = known_emails(ctx)
    domain = ctx.user.rsplit("@", 1)[-1].lower()
    out: list[str] = []
    for raw in values:
        text = raw.strip()
        named = _NAMED.match(text)
        if named:
            text = named[2].strip()
        if not text:
            raise InvalidArgument(f"contains an empty address; give addresses such as priya.shah@{domain}", parameter)
        if "@" in text:
            addr = text.lower()
            if not _EMAIL.match(addr):
                raise InvalidArgument(f"'{raw}' is not an email address; write it like priya.shah@{domain}", parameter)
            if emails is not None and addr.endswith("@" + domain) and addr not in emails:
                raise NotFound(
                    f"no one at {domain} has the address '{raw}'; use directory search-people to find the right email",
                    parameter,
                )
        elif directory is not None:
            addr = find_person(directory, text, parameter).email.lower()
        else:
            raise InvalidArgument(f"'{raw}' is not an email address; write it like name@{domain}", parameter)
        if addr not in out:
            out.append(addr)
    return out


def _mime_type_of(filename: str) -> str:
    return _MIME.get(PurePosixPath(filename.lower()).suffix, "application/octet-stream")


def read_attachments(ctx: Context[GmailState], paths: list[str], parameter: str) -> list[tuple[str, str, bytes]]:
    """Read workspace files of any kind (text, PDF, spreadsheets, images...) to attach.

    Args:
        ctx: The action's context; ``ctx.files`` is the workspace, ``None`` when there is none.
        paths: Workspace paths.
        parameter: Parameter name for errors.

    Returns:
        ``(filename, mime_type, bytes)`` for each path, in order.

    Raises:
        InvalidArgument: No workspace, an empty path, pasted content instead of a path, a path outside the
            workspace, or more than 25 MB in all.
        NotFound: No file at a path.
    """
    if paths and ctx.files is None:
        raise InvalidArgument(
            "there is no workspace to attach files from here; put the text in the body instead", parameter
        )
    out: list[tuple[str, str, bytes]] = []
    for path in (p.strip() for p in paths):
        if not path:
            raise InvalidArgument("contains an empty path; give workspace file paths such as reports/q1.csv", parameter)
        refuse_pasted_file(path, parameter)
        data = receive_file(ctx, "", path, content_param=parameter, path_param=parameter)
        name = PurePosixPath(path).name
        out.append((name, _mime_type_of(name), data))
    total = sum(len(data) for _, _, data in out)
    if total > _MAX_ATTACHMENT_BYTES:
        raise InvalidArgument(
            f"the files come to {total} bytes; one message carries at most {_MAX_ATTACHMENT_BYTES} bytes "
            "(25 MB) of attachments. Upload large files to Drive and send a link instead",
            parameter,
        )
    return out


def make_attachments(ctx: Context[GmailState], files: list[tuple[str, str, bytes]]) -> list[Attachment]:
    """Store each ``(filename, mime_type, bytes)`` as a blob and return the attachment records."""
    return [
        Attachment(id=ctx.new_id("att"), filename=n, mime_type=t, size=len(data), blob=ctx.blobs.put(data))
        for n, t, data in files
    ]


def copy_attachments(ctx: Context[GmailState], items: list[Attachment]) -> list[Attachment]:
    """The same files as new attachment records (fresh ids, the same blobs), e.g. for a forward."""
    return [a.model_copy(update={"id": ctx.new_id("att")}) for a in items]


def reply_recipients(user: str, original: Message) -> list[str]:
    """Whom a plain reply goes to: the sender, or the original recipients when the user sent it."""
    return list(original.to) if original.sender == user else [original.sender]


def prefixed(prefix: str, subject: str) -> str:
    """``subject`` with ``prefix`` ("Re:" or "Fwd:") in front, unless it already starts with it."""
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


def forward_body(note: str, sender: str, date: datetime, subject: str, to: list[str], body: str, tz: ZoneInfo) -> str:
    """The text of a forward: the note, then the original message's header lines and text."""
    quoted = (
        "---------- Forwarded message ----------\n"
        f"From: {sender}\nDate: {format_instant(date, tz)}\nSubject: {subject}\nTo: {', '.join(to)}\n\n{body}"
    )
    return f"{note.strip()}\n\n{quoted}" if note.strip() else quoted


# --- labels -------------------------------------------------------------------------------------


def relabel(msgs: list[Message], add: str = "", remove: str = "") -> tuple[list[str], list[str]]:
    """Put label ``add`` on and take label ``remove`` off each message.

    Returns:
        The ids of the messages that changed, and of those that did not.
    """
    changed: list[str] = []
    unchanged: list[str] = []
    for msg in msgs:
        labels = [n for n in msg.labels if n != remove]
        if add and add not in labels:
            labels.append(add)
        (changed if labels != msg.labels else unchanged).append(msg.id)
        msg.labels = labels
    return changed, unchanged


# --- filters ------------------------------------------------------------------------------------


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
    return matches(query_terms(ctx, filter_query(f)), msg, directory_names(ctx))


def filter_labels(f: Filter, labels: list[str]) -> list[str]:
    """The labels a message ends up with after the filter's label, archive and mark-read actions."""
    out = [n for n in labels if not (f.archive and n == "INBOX") and not (f.mark_read and n == "UNREAD")]
    return out + [n for n in f.add_labels if n not in out]


def check_filter_labels(state: GmailState, values: list[str]) -> list[str]:
    """The exact names of the labels a filter is to add (parameter ``add_labels``), each once.

    Raises:
        InvalidArgument: An unknown label, or one a filter may not add (INBOX, SENT, DRAFT, UNREAD, TRASH).
    """
    labels: list[str] = []
    for value in values:
        name = resolve_label(state, value, "add_labels")
        if name in _NOT_BY_FILTER:
            raise InvalidArgument(f"{_NOT_BY_FILTER[name]} ({name})", "add_labels")
        if name not in labels:
            labels.append(name)
    return labels


# --- delivery -----------------------------------------------------------------------------------


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


# --- contacts -----------------------------------------------------------------------------------


@dataclass
class Contact:
    """Someone the user exchanged mail with: how many messages each way, and the latest one's date."""

    address: str
    received: int
    sent: int
    last: datetime


def contacts_of(ctx: Context[GmailState]) -> list[Contact]:
    """Everyone in the mailbox but the user: senders of mail received, recipients (to, cc, bcc) of mail sent.

    Returns:
        One contact per address, in the order each first appears in the mailbox.
    """
    seen: dict[str, Contact] = {}

    def bump(address: str, sent: bool, when: datetime) -> None:
        row = seen.setdefault(address, Contact(address, 0, 0, when))
        if sent:
            row.sent += 1
        else:
            row.received += 1
        row.last = max(row.last, when)

    for m in ctx.state.messages.values():
        if m.sender == ctx.user:
            for address in dict.fromkeys([*m.to, *m.cc, *m.bcc]):
                if address != ctx.user:
                    bump(address, True, m.date)
        else:
            bump(m.sender, False, m.date)
    return list(seen.values())
