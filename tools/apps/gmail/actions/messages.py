"""Mail: the acting user's mailbox with search, threads, drafts, labels, filters, a vacation reply and attachments."""

# ruff: noqa: D417  (an action's first parameter is the context, which callers never pass)

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.gmail._query import matches, parse_query, wants_trash
from tools.apps.gmail._rules import (
    check_addresses,
    directory_names,
    forward_body,
    prefixed,
    read_attachments,
    refuse_pasted_file,
)
from tools.apps.gmail.actions import drafts, settings
from tools.apps.gmail.actions.drafts import reply_recipients
from tools.apps.gmail.state import (
    AUTOMATIC_LABELS,
    SYSTEM_LABELS,
    Attachment,
    Draft,
    Filter,
    GmailState,
    Label,
    Message,
    Vacation,
    deliver,
    find_message,
    full_view,
    label_key,
    make_attachments,
    resolve_label,
    summary_view,
)
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.registry import App
from tools.kernel.world import Context
from tools.kits.files import deliver_file
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import require_text

__all__ = [
    "SYSTEM_LABELS",
    "Attachment",
    "Draft",
    "Filter",
    "GmailState",
    "Label",
    "Message",
    "Vacation",
    "app",
]

app = App(
    "gmail",
    GmailState,
    "Company mail: search, read, send, reply to and forward messages; drafts, labels, filters and a vacation reply.",
)


def _copy_attachments(ctx: Context[GmailState], items: list[Attachment]) -> list[Attachment]:
    return [a.model_copy(update={"id": ctx.new_id("att")}) for a in items]


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
    terms = parse_query(query, ctx.tz, ctx.now, lambda name: resolve_label(state, name, "query"))
    names = directory_names(ctx)
    with_trash = wants_trash(terms)
    hits = [
        (m.date, n, m)
        for n, m in enumerate(state.messages.values())
        if (with_trash or "TRASH" not in m.labels) and matches(terms, m, names)
    ]
    hits.sort(key=lambda h: (h[0], h[1]), reverse=True)
    out = page_of([h[2] for h in hits], page, page_size)
    out["results"] = [summary_view(ctx, m) for m in out["results"]]
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
    return full_view(ctx, find_message(ctx.state, message_id))


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
    return {"thread_id": key, "subject": msgs[0].subject, "messages": [full_view(ctx, m) for m in msgs]}


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
        attachments: Workspace paths of files to attach, of any kind: PDF, spreadsheet, document, image or text
            (only where a workspace exists).

    Returns:
        The sent message, as gmail get-message shows it.
    """
    if not to:
        raise InvalidArgument("give at least one recipient address", "to")
    rec = {p: check_addresses(ctx, v, p) for p, v in (("to", to), ("cc", cc), ("bcc", bcc))}
    if not subject.strip() and not body.strip():
        raise InvalidArgument("give a subject or a body; an empty email cannot be sent", "body")
    refuse_pasted_file(body, "body")
    files = read_attachments(ctx, attachments, "attachments")
    msg = deliver(ctx, subject=subject.strip(), body=body, attachments=make_attachments(ctx, files), **rec)
    return full_view(ctx, msg)


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
        attachments: Workspace paths of files to attach, of any kind: PDF, spreadsheet, document, image or text
            (only where a workspace exists).

    Returns:
        The sent reply, as gmail get-message shows it.
    """
    original = find_message(ctx.state, message_id)
    text = require_text(body, "body")
    refuse_pasted_file(text, "body")
    to_list = reply_recipients(ctx.user, original)
    cc_list: list[str] = []
    if reply_all:
        to_list += [a for a in original.to if a != ctx.user and a not in to_list]
        cc_list = [a for a in original.cc if a != ctx.user and a not in to_list]
    cc_list += [a for a in check_addresses(ctx, cc, "cc") if a not in to_list and a not in cc_list]
    files = read_attachments(ctx, attachments, "attachments")
    msg = deliver(
        ctx,
        thread_id=original.thread_id,
        to=to_list,
        cc=cc_list,
        bcc=[],
        subject=prefixed("Re:", original.subject),
        body=text,
        attachments=make_attachments(ctx, files),
        in_reply_to=original.id,
    )
    return full_view(ctx, msg)


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
    original = find_message(ctx.state, message_id)
    if not to:
        raise InvalidArgument("give at least one recipient address", "to")
    to_list, cc_list = check_addresses(ctx, to, "to"), check_addresses(ctx, cc, "cc")
    refuse_pasted_file(note, "note")
    msg = deliver(
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
    return full_view(ctx, msg)


for _fn, _read_only in (
    (drafts.create_draft, False),
    (drafts.list_drafts, True),
    (drafts.update_draft, False),
    (drafts.delete_draft, False),
    (drafts.send_draft, False),
):
    app.action(read_only=_read_only)(_fn)


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
    clash = next((k for k in existing if label_key(k) == label_key(text)), None)
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
    msg = find_message(ctx.state, message_id)
    if not add and not remove:
        raise InvalidArgument("give at least one label in add or remove", "add")
    wanted: dict[str, list[str]] = {}
    for param, values in (("add", add), ("remove", remove)):
        wanted[param] = []
        for value in values:
            name = resolve_label(ctx.state, value, param)
            if name in AUTOMATIC_LABELS:
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


def _messages(ctx: Context[GmailState], message_ids: list[str]) -> list[Message]:
    if not message_ids:
        raise InvalidArgument("give at least one message id (from gmail search-messages)", "message_ids")
    found: list[Message] = []
    for mid in message_ids:
        msg = find_message(ctx.state, mid, "message_ids")
        if msg not in found:
            found.append(msg)
    return found


def _relabel(msgs: list[Message], add: str = "", remove: str = "") -> dict[str, Any]:
    changed, unchanged = [], []
    for msg in msgs:
        labels = [n for n in msg.labels if n != remove]
        if add and add not in labels:
            labels.append(add)
        (changed if labels != msg.labels else unchanged).append(msg.id)
        msg.labels = labels
    return {"changed": changed, "unchanged": unchanged}


@app.action(read_only=False)
def archive_message(
    ctx: Context[GmailState],
    message_ids: list[str],
) -> dict[str, Any]:
    """Archive messages: take them out of the inbox (remove INBOX) but keep them, searchable, with their labels.

    To bring a message back to the inbox, add INBOX with gmail modify-labels.

    Example:
        message_ids=["msg_0042", "msg_0043"] -> {"changed": ["msg_0042"], "unchanged": ["msg_0043"]}

    Args:
        message_ids: Ids of the messages to archive, from gmail search-messages.

    Returns:
        {"changed": [ids archived now], "unchanged": [ids that were not in the inbox]}.
    """
    return _relabel(_messages(ctx, message_ids), remove="INBOX")


@app.action(read_only=False)
def mark_read(
    ctx: Context[GmailState],
    message_ids: list[str],
) -> dict[str, Any]:
    """Mark messages as read (remove the UNREAD label).

    Example:
        message_ids=["msg_0042"] -> {"changed": ["msg_0042"], "unchanged": []}

    Args:
        message_ids: Ids of the messages, from gmail search-messages.

    Returns:
        {"changed": [ids marked read now], "unchanged": [ids that were already read]}.
    """
    return _relabel(_messages(ctx, message_ids), remove="UNREAD")


@app.action(read_only=False)
def mark_unread(
    ctx: Context[GmailState],
    message_ids: list[str],
) -> dict[str, Any]:
    """Mark messages as unread (add the UNREAD label), e.g. to come back to them later.

    Example:
        message_ids=["msg_0042"] -> {"changed": ["msg_0042"], "unchanged": []}

    Args:
        message_ids: Ids of the messages, from gmail search-messages.

    Returns:
        {"changed": [ids marked unread now], "unchanged": [ids that were already unread]}.
    """
    return _relabel(_messages(ctx, message_ids), add="UNREAD")


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
    msg = find_message(ctx.state, message_id)
    already = "TRASH" in msg.labels
    if not already:
        msg.labels = [*msg.labels, "TRASH"]
    return {"id": msg.id, "labels": msg.labels, "already_in_trash": already}


@app.action(read_only=True)
def get_attachment(ctx: Context[GmailState], message_id: str, attachment_id: str, save_as: str = "") -> dict[str, Any]:
    """Download a message's attachment, of any kind (PDF, spreadsheet, document, image or text).

    Where you have a workspace, the file is saved there (under downloads/ unless save_as says where)
    and only its path is returned; attach it elsewhere or upload it by that path. Without a
    workspace, text files are returned inline and other kinds cannot be opened.

    Example:
        message_id="msg_0102" attachment_id="att_0017" save_as="invoices/INV-20417.pdf"

    Args:
        message_id: The message's id, from gmail search-messages.
        attachment_id: The attachment's id (or its exact file name), from gmail get-message.
        save_as: Workspace path to save the file to.

    Returns:
        {"message_id", "attachment_id", "filename", "mime_type", "size" (bytes), and "saved_to" (path) or
        "content" (text)}.
    """
    msg = find_message(ctx.state, message_id)
    key = attachment_id.strip()
    att = next((a for a in msg.attachments if a.id == key), None) or next(
        (a for a in msg.attachments if a.filename.lower() == key.lower()), None
    )
    if att is None:
        names = ", ".join(f"{a.id} ({a.filename})" for a in msg.attachments) or "none"
        raise NotFound(f"message '{msg.id}' has no attachment '{attachment_id}'; it has: {names}", "attachment_id")
    got = deliver_file(ctx, att.filename, ctx.blobs.get(att.blob), save_as, "save_as")
    return {"message_id": msg.id, "attachment_id": att.id, "filename": att.filename, "mime_type": att.mime_type, **got}


for _fn, _read_only in (
    (settings.create_filter, False),
    (settings.list_filters, True),
    (settings.delete_filter, False),
    (settings.get_vacation, True),
    (settings.set_vacation, False),
    (settings.list_contacts, True),
):
    app.action(read_only=_read_only)(_fn)
