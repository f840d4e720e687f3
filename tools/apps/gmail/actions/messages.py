"""Message actions: search the mailbox, read a message, send, reply, forward, and move a message to the trash."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.gmail._rules import (
    check_addresses,
    copy_attachments,
    deliver,
    find_message,
    forward_body,
    make_attachments,
    prefixed,
    read_attachments,
    refuse_pasted_file,
    reply_recipients,
    search,
)
from tools.apps.gmail._views import full_view, summary_view
from tools.apps.gmail.app import app
from tools.apps.gmail.state import GmailState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import LongText, SearchText, require_text

__all__ = ["forward_message", "get_message", "reply_to_message", "search_messages", "send_message", "trash_message"]


@app.action(read_only=True)
def search_messages(
    ctx: Context[GmailState], query: SearchText = "", page: Page = 1, page_size: PageSize = 20
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
    out = page_of(search(ctx, query), page, page_size)
    out["results"] = [summary_view(ctx, m) for m in out["results"]]
    return out


@app.action(read_only=True)
def get_message(
    ctx: Context[GmailState], message_id: str, body_offset: Annotated[int, Field(ge=0, le=10_000_000)] = 0
) -> dict[str, Any]:
    """Read one message in full: body, recipients and the list of its attachments.

    Reading does not mark the message as read; remove the UNREAD label with gmail modify-labels for that.
    A body longer than 20,000 characters comes in parts: body_next_offset says where the next part
    starts; pass it as body_offset to read on.

    Example:
        message_id="msg_0042" -> from, to, cc, subject, date, body, attachments [{id, filename, size}].

    Args:
        message_id: The message's id, from gmail search-messages.
        body_offset: Where in the body to start, in characters (from body_next_offset of an earlier read).

    Returns:
        {"id", "thread_id", "from", "to", "cc", "bcc", "subject", "date", "snippet", "labels",
        "has_attachments", "body" (at most 20,000 characters), "body_chars", "body_next_offset" (or null),
        "attachments": [{"id", "filename", "mime_type", "size" (bytes)}], "in_reply_to", "forwarded_from"}.
    """
    return full_view(ctx, find_message(ctx.state, message_id), body_offset)


@app.action(read_only=False)
def send_message(
    ctx: Context[GmailState],
    to: list[str],
    subject: str = "",
    body: LongText = "",
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
    body: LongText,
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
    note: LongText = "",
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
        attachments=copy_attachments(ctx, original.attachments),
        forwarded_from=original.id,
    )
    return full_view(ctx, msg)


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
