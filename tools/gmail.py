"""Mail: the acting user's mailbox with search, threads, drafts, labels, trash and attachments."""

# ruff: noqa: D417  (an action's first parameter is the context, which callers never pass)

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import Field

from tools.common import Page, PageSize, deliver_file, fold, page_of, require_text
from tools.exceptions import Conflict, InvalidArgument, NotFound
from tools.gmail_compose import check_addresses, directory_names, forward_body, prefixed, read_attachments
from tools.gmail_query import matches, parse_query, wants_trash
from tools.registry import App
from tools.world import AppState, Context, Record, format_instant

__all__ = ["SYSTEM_LABELS", "Attachment", "Draft", "GmailState", "Label", "Message", "app"]

#: Labels every mailbox has; SENT and DRAFT are set by sending and drafting only.
SYSTEM_LABELS = ("INBOX", "SENT", "DRAFT", "TRASH", "STARRED", "IMPORTANT", "UNREAD")
_AUTOMATIC = ("SENT", "DRAFT")


class Attachment(Record):
    """A file attached to a message or draft (text content)."""

    id: str
    filename: str
    mime_type: str = "text/plain"
    content: str = ""


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


class GmailState(AppState):
    """The acting user's mailbox: messages, drafts and custom labels, each keyed by id."""

    messages: dict[str, Message] = {}
    drafts: dict[str, Draft] = {}
    labels: dict[str, Label] = {}


app = App("gmail", GmailState, "Company mail: search, read, send, reply to and forward messages; drafts and labels.")


def _label_key(name: str) -> str:
    return fold(name.replace("-", " "))


def _resolve_label(state: GmailState, name: str, parameter: str) -> str:
    key = _label_key(name)
    for known in (*SYSTEM_LABELS, *(lab.name for lab in state.labels.values())):
        if _label_key(known) == key:
            return known
    listing = ", ".join([*SYSTEM_LABELS, *sorted(lab.name for lab in state.labels.values())])
    raise InvalidArgument(
        f"there is no label '{name}'; labels are: {listing} (make a new one with gmail create-label)", parameter
    )


def _message(state: GmailState, message_id: str, parameter: str = "message_id") -> Message:
    msg = state.messages.get(message_id.strip())
    if msg is None:
        raise NotFound(f"no message with id '{message_id}'; use gmail search-messages to find ids", parameter)
    return msg


def _draft(state: GmailState, draft_id: str) -> Draft:
    draft = state.drafts.get(draft_id.strip())
    if draft is None:
        raise NotFound(f"no draft with id '{draft_id}'; use gmail list-drafts to find ids", "draft_id")
    if draft.sent_message_id:
        raise Conflict(f"draft '{draft_id}' was already sent as message '{draft.sent_message_id}'", "draft_id")
    return draft


def _attach(ctx: Context[GmailState], files: list[tuple[str, str, str]]) -> list[Attachment]:
    return [Attachment(id=ctx.new_id("att"), filename=n, mime_type=t, content=c) for n, t, c in files]


def _copy_attachments(ctx: Context[GmailState], items: list[Attachment]) -> list[Attachment]:
    return [a.model_copy(update={"id": ctx.new_id("att")}) for a in items]


def _reply_to(ctx: Context[GmailState], original: Message) -> list[str]:
    """Whom a plain reply goes to: the sender, or the original recipients when the user sent it."""
    return list(original.to) if original.sender == ctx.user else [original.sender]


def _deliver(ctx: Context[GmailState], **fields: Any) -> Message:
    """Store a message sent by the acting user now and return it."""
    labels = ["SENT"]
    if ctx.user in (*fields["to"], *fields["cc"], *fields["bcc"]):
        labels.append("INBOX")
    msg_id = ctx.new_id("msg")
    thread_id = fields.pop("thread_id", "") or ctx.new_id("thr")
    msg = Message(id=msg_id, thread_id=thread_id, sender=ctx.user, date=ctx.now, labels=labels, **fields)
    ctx.state.messages[msg.id] = msg
    return msg


def _files_meta(items: list[Attachment]) -> list[dict[str, Any]]:
    return [
        {"id": a.id, "filename": a.filename, "mime_type": a.mime_type, "size": len(a.content.encode("utf-8"))}
        for a in items
    ]


def _summary(ctx: Context[GmailState], m: Message) -> dict[str, Any]:
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


def _full(ctx: Context[GmailState], m: Message) -> dict[str, Any]:
    return {
        **_summary(ctx, m),
        "cc": m.cc,
        "bcc": m.bcc,
        "body": m.body,
        "attachments": _files_meta(m.attachments),
        "in_reply_to": m.in_reply_to,
        "forwarded_from": m.forwarded_from,
    }


def _draft_view(ctx: Context[GmailState], d: Draft) -> dict[str, Any]:
    fields = d.model_dump(exclude={"attachments", "updated", "sent_message_id"})
    return {**fields, "attachments": _files_meta(d.attachments), "updated": format_instant(d.updated, ctx.tz)}


@app.action(read_only=True)
def search_messages(
    ctx: Context[GmailState], query: str = "", page: Page = 1, page_size: PageSize = 20
) -> dict[str, Any]:
    """Search your mailbox, newest first.

    Every term must match. Plain words and "quoted phrases" are looked for in the sender, recipients,
    subject, body and attachment names. Operators: from:, to:, cc:, subject:, filename:, label:
    (e.g. label:Finance), has:attachment, is:unread, is:read, is:starred, is:important, in:inbox,
    in:sent, in:trash, in:anywhere, after:YYYY/MM/DD (that day included), before:YYYY/MM/DD (that
    day excluded), newer_than:7d, older_than:1m. Put a - in front of a term to exclude it. Messages
    in the trash are left out unless you search in:trash or in:anywhere. An empty query lists all mail.

    Example:
        query='from:priya.shah subject:"Q1 budget" after:2026/03/01' -> Priya's Q1 budget mail since March 1.

    Args:
        query: Search words and operators, as described above.
        page: Page number, starting at 1.
        page_size: Messages per page.

    Returns:
        {"results": [{"id", "thread_id", "from", "to", "subject", "date", "snippet", "labels",
        "has_attachments"}], "page", "page_size", "total", "next_page"}.
    """
    state = ctx.state
    terms = parse_query(query, ctx.tz, ctx.now, lambda name: _resolve_label(state, name, "query"))
    names = directory_names(ctx)
    with_trash = wants_trash(terms)
    hits = [
        (m.date, n, m)
        for n, m in enumerate(state.messages.values())
        if (with_trash or "TRASH" not in m.labels) and matches(terms, m, names)
    ]
    hits.sort(key=lambda h: (h[0], h[1]), reverse=True)
    out = page_of([h[2] for h in hits], page, page_size)
    out["results"] = [_summary(ctx, m) for m in out["results"]]
    return out


@app.action(read_only=True)
def get_message(ctx: Context[GmailState], message_id: str) -> dict[str, Any]:
    """Read one message in full: body, recipients and the list of its attachments.

    Reading does not mark the message as read; remove the UNREAD label with gmail modify-labels for that.

    Example:
        message_id="msg_0042" -> from, to, cc, subject, date, body, attachments [{id, filename, size}].

    Args:
        message_id: The message's id, from gmail search-messages.

    Returns:
        {"id", "thread_id", "from", "to", "cc", "bcc", "subject", "date", "snippet", "labels",
        "has_attachments", "body", "attachments": [{"id", "filename", "mime_type", "size" (bytes)}],
        "in_reply_to", "forwarded_from"}.
    """
    return _full(ctx, _message(ctx.state, message_id))


@app.action(read_only=True)
def get_thread(ctx: Context[GmailState], thread_id: str) -> dict[str, Any]:
    """Read a whole conversation, oldest message first.

    Example:
        thread_id="thr_0007" -> every message of that conversation with its body.

    Args:
        thread_id: The thread's id (the thread_id of any message in it), or the id of one of its messages.

    Returns:
        {"thread_id", "subject", "messages": [full message as gmail get-message shows it]}.
    """
    key = thread_id.strip()
    state = ctx.state
    if key in state.messages:
        key = state.messages[key].thread_id
    msgs = sorted((m for m in state.messages.values() if m.thread_id == key), key=lambda m: m.date)
    if not msgs:
        raise NotFound(f"no thread with id '{thread_id}'; use gmail search-messages to find thread ids", "thread_id")
    return {"thread_id": key, "subject": msgs[0].subject, "messages": [_full(ctx, m) for m in msgs]}


@app.action(read_only=False)
def send_message(
    ctx: Context[GmailState],
    to: list[str],
    subject: str = "",
    body: str = "",
    cc: list[str] = [],  # noqa: B006 - never mutated; the registry copies defaults
    bcc: list[str] = [],  # noqa: B006
    attachments: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Send a new email from your address; it is kept in your sent mail (label SENT).

    Example:
        to=["priya.shah@northwind.example"] subject="Q1 numbers" body="Hi Priya, ..." attachments=["q1.csv"]

    Args:
        to: Recipient email addresses (at least one). A colleague's full name also works.
        subject: The subject line.
        body: The message text.
        cc: Addresses to copy.
        bcc: Addresses to copy without the others seeing them.
        attachments: Paths of text files in your workspace to attach (only where a workspace exists).

    Returns:
        The sent message, as gmail get-message shows it.
    """
    if not to:
        raise InvalidArgument("give at least one recipient address", "to")
    rec = {p: check_addresses(ctx, v, p) for p, v in (("to", to), ("cc", cc), ("bcc", bcc))}
    if not subject.strip() and not body.strip():
        raise InvalidArgument("give a subject or a body; an empty email cannot be sent", "body")
    files = read_attachments(ctx, attachments, "attachments")
    msg = _deliver(ctx, subject=subject.strip(), body=body, attachments=_attach(ctx, files), **rec)
    return _full(ctx, msg)


@app.action(read_only=False)
def reply_to_message(
    ctx: Context[GmailState],
    message_id: str,
    body: str,
    reply_all: bool = False,
    cc: list[str] = [],  # noqa: B006
    attachments: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Reply to a message, in the same conversation.

    The reply goes to the sender (or, for a message you sent, to its recipients); with reply_all it
    also goes to everyone else on the original, except you. The subject gets "Re: ".

    Example:
        message_id="msg_0042" body="Thanks, approved." reply_all=true

    Args:
        message_id: The id of the message to answer, from gmail search-messages.
        body: Your reply text.
        reply_all: Also reply to every other recipient of the original.
        cc: More addresses to copy.
        attachments: Paths of text files in your workspace to attach (only where a workspace exists).

    Returns:
        The sent reply, as gmail get-message shows it.
    """
    original = _message(ctx.state, message_id)
    text = require_text(body, "body")
    to_list = _reply_to(ctx, original)
    cc_list: list[str] = []
    if reply_all:
        to_list += [a for a in original.to if a != ctx.user and a not in to_list]
        cc_list = [a for a in original.cc if a != ctx.user and a not in to_list]
    cc_list += [a for a in check_addresses(ctx, cc, "cc") if a not in to_list and a not in cc_list]
    files = read_attachments(ctx, attachments, "attachments")
    msg = _deliver(
        ctx,
        thread_id=original.thread_id,
        to=to_list,
        cc=cc_list,
        bcc=[],
        subject=prefixed("Re:", original.subject),
        body=text,
        attachments=_attach(ctx, files),
        in_reply_to=original.id,
    )
    return _full(ctx, msg)


@app.action(read_only=False)
def forward_message(
    ctx: Context[GmailState],
    message_id: str,
    to: list[str],
    note: str = "",
    cc: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Forward a message, with its attachments, to other people.

    Your note comes first, then the original message (sender, date, subject, recipients and text).
    The subject gets "Fwd: ".

    Example:
        message_id="msg_0042" to=["owen.bell@northwind.example"] note="Owen, can you pay this by Friday?"

    Args:
        message_id: The id of the message to forward, from gmail search-messages.
        to: Recipient email addresses (at least one).
        note: Your text above the forwarded message.
        cc: Addresses to copy.

    Returns:
        The sent message, as gmail get-message shows it.
    """
    original = _message(ctx.state, message_id)
    if not to:
        raise InvalidArgument("give at least one recipient address", "to")
    to_list, cc_list = check_addresses(ctx, to, "to"), check_addresses(ctx, cc, "cc")
    msg = _deliver(
        ctx,
        thread_id=original.thread_id,
        to=to_list,
        cc=cc_list,
        bcc=[],
        subject=prefixed("Fwd:", original.subject),
        body=forward_body(note, original.sender, original.date, original.subject, original.to, original.body, ctx.tz),
        attachments=_copy_attachments(ctx, original.attachments),
        forwarded_from=original.id,
    )
    return _full(ctx, msg)


@app.action(read_only=False)
def create_draft(
    ctx: Context[GmailState],
    to: list[str] = [],  # noqa: B006
    subject: str = "",
    body: str = "",
    cc: list[str] = [],  # noqa: B006
    bcc: list[str] = [],  # noqa: B006
    attachments: list[str] = [],  # noqa: B006
    reply_to_message_id: str = "",
) -> dict[str, Any]:
    """Save an email as a draft to send later with gmail send-draft.

    With reply_to_message_id the draft answers that message: it joins its conversation, and the
    recipients and subject default to those of a reply.

    Example:
        to=["nora.patel@northwind.example"] subject="Q2 headcount" body="Draft numbers below..."

    Args:
        to: Recipient email addresses (may be left empty for now).
        subject: The subject line.
        body: The message text.
        cc: Addresses to copy.
        bcc: Addresses to copy without the others seeing them.
        attachments: Paths of text files in your workspace to attach (only where a workspace exists).
        reply_to_message_id: Id of a message this draft replies to.

    Returns:
        The draft: {"id", "thread_id", "to", "cc", "bcc", "subject", "body", "attachments", "in_reply_to", "updated"}.
    """
    original = _message(ctx.state, reply_to_message_id, "reply_to_message_id") if reply_to_message_id else None
    rec = {p: check_addresses(ctx, v, p) for p, v in (("to", to), ("cc", cc), ("bcc", bcc))}
    files = read_attachments(ctx, attachments, "attachments")
    if original is not None:
        rec["to"] = rec["to"] or _reply_to(ctx, original)
        subject = subject.strip() or prefixed("Re:", original.subject)
    draft = Draft(
        id=ctx.new_id("draft"),
        thread_id=original.thread_id if original else "",
        subject=subject.strip(),
        body=body,
        attachments=_attach(ctx, files),
        in_reply_to=original.id if original else "",
        updated=ctx.now,
        **rec,
    )
    ctx.state.drafts[draft.id] = draft
    return _draft_view(ctx, draft)


@app.action(read_only=True)
def list_drafts(ctx: Context[GmailState], page: Page = 1, page_size: PageSize = 20) -> dict[str, Any]:
    """List your unsent drafts, most recently edited first.

    Example:
        (no parameters) -> [{"id": "draft_0001", "to": [...], "subject": "...", "body": "..."}, ...]

    Args:
        page: Page number, starting at 1.
        page_size: Drafts per page.

    Returns:
        {"drafts": [{"id", "thread_id", "to", "cc", "bcc", "subject", "body", "attachments", "in_reply_to",
        "updated"}], "page", "page_size", "total", "next_page"}.
    """
    drafts = [(d.updated, n, d) for n, d in enumerate(ctx.state.drafts.values()) if not d.sent_message_id]
    drafts.sort(key=lambda h: (h[0], h[1]), reverse=True)
    out = page_of([h[2] for h in drafts], page, page_size, key="drafts")
    out["drafts"] = [_draft_view(ctx, d) for d in out["drafts"]]
    return out


@app.action(read_only=False)
def update_draft(
    ctx: Context[GmailState],
    draft_id: str,
    to: list[str] = [],  # noqa: B006
    subject: str = "",
    body: str = "",
    cc: list[str] = [],  # noqa: B006
    bcc: list[str] = [],  # noqa: B006
    attachments: list[str] = [],  # noqa: B006
    remove_attachments: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Change an unsent draft; only the fields you give change.

    A given to, cc or bcc list replaces the old one. To empty a field, delete the draft and create a new one.

    Example:
        draft_id="draft_0002" body="Revised text..." cc=["marcus.reed@northwind.example"]

    Args:
        draft_id: The draft's id, from gmail list-drafts.
        to: New recipient addresses (replace the old ones).
        subject: New subject line.
        body: New message text.
        cc: New addresses to copy (replace the old ones).
        bcc: New blind-copy addresses (replace the old ones).
        attachments: Paths of more workspace text files to attach (only where a workspace exists).
        remove_attachments: Ids or file names of attachments to drop from the draft.

    Returns:
        The updated draft, as gmail list-drafts shows it.
    """
    draft = _draft(ctx.state, draft_id)
    changes: dict[str, Any] = {p: check_addresses(ctx, v, p) for p, v in (("to", to), ("cc", cc), ("bcc", bcc)) if v}
    drop: set[str] = set()
    for item in remove_attachments:
        hit = next((a.id for a in draft.attachments if item.strip() in (a.id, a.filename)), None)
        if hit is None:
            names = ", ".join(f"{a.id} ({a.filename})" for a in draft.attachments) or "none"
            raise NotFound(f"the draft has no attachment '{item}'; its attachments: {names}", "remove_attachments")
        drop.add(hit)
    files = read_attachments(ctx, attachments, "attachments")
    if subject.strip():
        changes["subject"] = subject.strip()
    if body:
        changes["body"] = body
    kept = [a for a in draft.attachments if a.id not in drop]
    if files or drop:
        changes["attachments"] = kept + _attach(ctx, files)
    if not changes:
        raise InvalidArgument(
            "give at least one thing to change: to, subject, body, cc, bcc or attachments", "draft_id"
        )
    updated = draft.model_copy(update={**changes, "updated": ctx.now})
    ctx.state.drafts[draft.id] = Draft.model_validate(updated.model_dump())
    return _draft_view(ctx, ctx.state.drafts[draft.id])


@app.action(read_only=False)
def delete_draft(ctx: Context[GmailState], draft_id: str) -> dict[str, Any]:
    """Throw away an unsent draft.

    Example:
        draft_id="draft_0003" -> {"deleted": "draft_0003"}

    Args:
        draft_id: The draft's id, from gmail list-drafts.

    Returns:
        {"deleted": draft id}.
    """
    draft = _draft(ctx.state, draft_id)
    del ctx.state.drafts[draft.id]
    return {"deleted": draft.id}


@app.action(read_only=False)
def send_draft(ctx: Context[GmailState], draft_id: str) -> dict[str, Any]:
    """Send a saved draft as it stands; it then leaves your drafts and appears in your sent mail.

    Example:
        draft_id="draft_0001" -> the sent message.

    Args:
        draft_id: The draft's id, from gmail list-drafts.

    Returns:
        The sent message, as gmail get-message shows it, plus "draft_id".
    """
    draft = _draft(ctx.state, draft_id)
    if not (draft.to or draft.cc or draft.bcc):
        raise Conflict(f"draft '{draft.id}' has no recipients; add them with gmail update-draft first", "draft_id")
    if not draft.subject.strip() and not draft.body.strip():
        raise Conflict(f"draft '{draft.id}' is empty; add a subject or body with gmail update-draft first", "draft_id")
    msg = _deliver(
        ctx,
        thread_id=draft.thread_id,
        to=draft.to,
        cc=draft.cc,
        bcc=draft.bcc,
        subject=draft.subject,
        body=draft.body,
        attachments=list(draft.attachments),
        in_reply_to=draft.in_reply_to,
    )
    draft.sent_message_id = msg.id
    return {**_full(ctx, msg), "draft_id": draft.id}


@app.action(read_only=True)
def list_labels(ctx: Context[GmailState]) -> dict[str, Any]:
    """List every label with how many messages carry it.

    System labels: INBOX, SENT, DRAFT, TRASH, STARRED, IMPORTANT, UNREAD. Counts leave out trashed
    messages (except for TRASH itself); DRAFT counts unsent drafts.

    Example:
        (no parameters) -> [{"name": "INBOX", "type": "system", "messages": 118, "unread": 17}, ...]

    Returns:
        {"labels": [{"name", "type" ("system" or "user"), "messages", "unread"}]}: system labels first,
        then yours by name.
    """
    state = ctx.state
    names = [*SYSTEM_LABELS, *sorted(lab.name for lab in state.labels.values())]
    out = []
    for name in names:
        if name == "DRAFT":
            count, unread = sum(1 for d in state.drafts.values() if not d.sent_message_id), 0
        else:
            tagged = [
                m for m in state.messages.values() if name in m.labels and (name == "TRASH" or "TRASH" not in m.labels)
            ]
            count, unread = len(tagged), sum(1 for m in tagged if "UNREAD" in m.labels)
        kind = "system" if name in SYSTEM_LABELS else "user"
        out.append({"name": name, "type": kind, "messages": count, "unread": unread})
    return {"labels": out}


@app.action(read_only=False)
def create_label(ctx: Context[GmailState], name: Annotated[str, Field(min_length=1, max_length=100)]) -> dict[str, Any]:
    """Create a label of your own to file messages under (then use gmail modify-labels).

    Example:
        name="Board prep" -> {"id": "label_n1", "name": "Board prep", "type": "user"}

    Args:
        name: The label's name, e.g. "Contracts" or "Finance/Invoices".

    Returns:
        {"id", "name", "type": "user"}.
    """
    text = " ".join(require_text(name, "name").split())
    existing = (*SYSTEM_LABELS, *(lab.name for lab in ctx.state.labels.values()))
    clash = next((k for k in existing if _label_key(k) == _label_key(text)), None)
    if clash is not None:
        raise Conflict(f"a label named '{clash}' already exists; use it with gmail modify-labels", "name")
    label = Label(id=ctx.new_id("label"), name=text)
    ctx.state.labels[label.id] = label
    return {"id": label.id, "name": label.name, "type": "user"}


@app.action(read_only=False)
def modify_labels(
    ctx: Context[GmailState],
    message_id: str,
    add: list[str] = [],  # noqa: B006
    remove: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Add labels to a message or take them off: file it, star it, archive it or mark it read.

    Archive = remove INBOX; mark read = remove UNREAD; mark unread = add UNREAD; star = add STARRED.
    SENT and DRAFT cannot be changed by hand. Label names are not case-sensitive.

    Example:
        message_id="msg_0042" add=["Finance", "STARRED"] remove=["UNREAD", "INBOX"]

    Args:
        message_id: The message's id, from gmail search-messages.
        add: Labels to put on the message (see gmail list-labels).
        remove: Labels to take off the message.

    Returns:
        {"id", "labels": the message's labels now, "added": [...], "removed": [...]}.
    """
    msg = _message(ctx.state, message_id)
    if not add and not remove:
        raise InvalidArgument("give at least one label in add or remove", "add")
    wanted: dict[str, list[str]] = {}
    for param, values in (("add", add), ("remove", remove)):
        wanted[param] = []
        for value in values:
            name = _resolve_label(ctx.state, value, param)
            if name in _AUTOMATIC:
                raise InvalidArgument(f"{name} is set by sending or drafting and cannot be changed by hand", param)
            if name not in wanted[param]:
                wanted[param].append(name)
    both = [n for n in wanted["add"] if n in wanted["remove"]]
    if both:
        raise InvalidArgument(f"'{both[0]}' is in both add and remove; keep it in one of them", "remove")
    removed = [n for n in wanted["remove"] if n in msg.labels]
    added = [n for n in wanted["add"] if n not in msg.labels]
    msg.labels = [n for n in msg.labels if n not in removed] + added
    return {"id": msg.id, "labels": msg.labels, "added": added, "removed": removed}


@app.action(read_only=False)
def trash_message(ctx: Context[GmailState], message_id: str) -> dict[str, Any]:
    """Move a message to the trash (label TRASH); it then no longer shows in searches unless you search in:trash.

    To restore it, remove the TRASH label with gmail modify-labels.

    Example:
        message_id="msg_0042" -> {"id": "msg_0042", "labels": [..., "TRASH"], "already_in_trash": false}

    Args:
        message_id: The message's id, from gmail search-messages.

    Returns:
        {"id", "labels", "already_in_trash": true when it was in the trash before}.
    """
    msg = _message(ctx.state, message_id)
    already = "TRASH" in msg.labels
    if not already:
        msg.labels = [*msg.labels, "TRASH"]
    return {"id": msg.id, "labels": msg.labels, "already_in_trash": already}


@app.action(read_only=True)
def get_attachment(ctx: Context[GmailState], message_id: str, attachment_id: str, save_as: str = "") -> dict[str, Any]:
    """Download a message's attachment.

    Where you have a workspace, the file is saved there (under downloads/ unless save_as says where)
    and only its path is returned; otherwise its text is returned.

    Example:
        message_id="msg_0042" attachment_id="att_0007" save_as="invoices/INV-20417.txt"

    Args:
        message_id: The message's id, from gmail search-messages.
        attachment_id: The attachment's id (or its exact file name), from gmail get-message.
        save_as: Workspace path to save the file to.

    Returns:
        {"message_id", "attachment_id", "filename", "mime_type", "size" (bytes), and "saved_to" (path) or
        "content" (text)}.
    """
    msg = _message(ctx.state, message_id)
    key = attachment_id.strip()
    att = next((a for a in msg.attachments if a.id == key), None) or next(
        (a for a in msg.attachments if a.filename.lower() == key.lower()), None
    )
    if att is None:
        names = ", ".join(f"{a.id} ({a.filename})" for a in msg.attachments) or "none"
        raise NotFound(f"message '{msg.id}' has no attachment '{attachment_id}'; it has: {names}", "attachment_id")
    got = deliver_file(ctx, att.filename, att.content.encode("utf-8"), save_as, "save_as")
    return {"message_id": msg.id, "attachment_id": att.id, "filename": att.filename, "mime_type": att.mime_type, **got}
