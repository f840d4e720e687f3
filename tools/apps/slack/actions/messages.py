"""Chat actions on messages: post, read a channel's history or a thread, reply, edit, delete, search."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.slack._rules import (
    Text,
    find_channel,
    find_message,
    message_tests,
    new_message,
    readable_ids,
    replies_of,
    require_own,
    require_writable,
    thread_parent,
    time_bound,
)
from tools.apps.slack._views import channel_ref, message_view
from tools.apps.slack.app import app
from tools.apps.slack.state import SlackState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, require_text

__all__ = [
    "delete_message",
    "edit_message",
    "get_history",
    "get_thread",
    "post_message",
    "reply_in_thread",
    "search_messages",
]


@app.action(read_only=False)
def post_message(ctx: Context[SlackState], channel: str, text: Text) -> dict[str, Any]:
    """Post a message in a channel you are a member of, or in a direct-message conversation.

    To answer inside a thread use reply-in-thread; to share a file use upload-file.

    Example:
        channel="#finance" text="Final Q1 numbers are in the deck; thanks all." -> the new message with its id.

    Args:
        channel: The channel's name (#finance or finance), its id, a DM id from open-dm, or @person for your DM.
        text: The message text (plain text; mention people as @Name).

    Returns:
        The new message: {"id", "channel_id", "channel", "user", "text", "ts", ...}.
    """
    ch = find_channel(ctx, channel)
    text = require_text(text, "text")
    require_writable(ctx, ch)
    return message_view(ctx, new_message(ctx, ch, text))


@app.action(read_only=True)
def get_history(
    ctx: Context[SlackState],
    channel: str,
    oldest: str = "",
    latest: str = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Read a channel's or DM's messages, newest first. Thread replies are counted, not listed.

    Public channels can be read without joining. A date alone in oldest means from the start of
    that day; in latest, up to the end of that day.

    Example:
        channel="#atlas-cutover" oldest="2026-03-02" latest="2026-03-06" -> that week's messages, newest first.

    Args:
        channel: The channel's name (#ops or ops), its id, a DM id, or @person for your DM with them.
        oldest: Only messages at or after this time: ISO 8601 date-time or date (YYYY-MM-DD).
        latest: Only messages before this time: ISO 8601 date-time or date (YYYY-MM-DD, that day included).
        page: Page number, starting at 1.
        page_size: Messages per page.

    Returns:
        {"channel": {"id", "name", "topic"}, "messages": [{"id", "user", "user_name", "text", "ts",
        "reply_count", "latest_reply", "reactions", "pinned", "edited", "files"}], "page", "page_size",
        "total", "next_page"}.
    """
    ch = find_channel(ctx, channel)
    lo = time_bound(ctx, oldest, "oldest", end=False)
    hi = time_bound(ctx, latest, "latest", end=True)
    if lo and hi and hi <= lo:
        raise InvalidArgument("latest must be after oldest", "latest")
    msgs = [
        m
        for m in ctx.state.messages.values()
        if m.channel_id == ch.id
        and (not m.thread_id or m.broadcast)
        and (lo is None or m.ts >= lo)
        and (hi is None or m.ts < hi)
    ]
    msgs.sort(key=lambda m: (m.ts, m.id), reverse=True)
    head = {**channel_ref(ctx, ch), "topic": ch.topic}
    return {"channel": head, **page_of(msgs, page, page_size, key="messages", view=lambda m: message_view(ctx, m))}


@app.action(read_only=True)
def get_thread(ctx: Context[SlackState], message_id: str, page: Page = 1, page_size: PageSize = 50) -> dict[str, Any]:
    """Read a thread: its first message and the replies, oldest reply first.

    Example:
        message_id="msg_0123" -> {"parent": {...}, "replies": [{"user_name": "Priya Shah", "text": ...}]}.

    Args:
        message_id: The id of the thread's first message or of any reply in it.
        page: Page number of replies, starting at 1.
        page_size: Replies per page.

    Returns:
        {"parent": message, "replies": [message], "page", "page_size", "total", "next_page"}.
    """
    msg = find_message(ctx, message_id)
    parent = thread_parent(ctx, msg)
    replies = [message_view(ctx, m) for m in replies_of(ctx.state, parent)]
    return {"parent": message_view(ctx, parent), **page_of(replies, page, page_size, key="replies")}


@app.action(read_only=False)
def reply_in_thread(
    ctx: Context[SlackState], message_id: str, text: Text, also_send_to_channel: bool = False
) -> dict[str, Any]:
    """Reply to a message in its thread (starting the thread if it has none).

    Example:
        message_id="msg_0123" text="Thanks - I'll take a look today." -> the reply with its id.

    Args:
        message_id: The id of the message to answer (a reply's id answers in the same thread).
        text: The reply text.
        also_send_to_channel: Also show the reply in the channel itself.

    Returns:
        The new reply (its "thread_id" is the thread's first message).
    """
    msg = find_message(ctx, message_id)
    text = require_text(text, "text")
    parent = thread_parent(ctx, msg)
    ch = ctx.state.channels[parent.channel_id]
    require_writable(ctx, ch, "message_id")
    return message_view(ctx, new_message(ctx, ch, text, parent.id, also_send_to_channel))


@app.action(read_only=False)
def edit_message(ctx: Context[SlackState], message_id: str, text: Text) -> dict[str, Any]:
    """Change the text of one of your own messages; it is marked as edited.

    Example:
        message_id="msg_0201" text="Corrected: the dry run is Wednesday March 11 at 16:00 ET." -> the edited message.

    Args:
        message_id: The id of your message.
        text: The new text.

    Returns:
        The message after the edit.
    """
    msg = find_message(ctx, message_id)
    text = require_text(text, "text")
    require_own(ctx, msg, "edit")
    require_writable(ctx, ctx.state.channels[msg.channel_id], "message_id")
    if text != msg.text:
        msg.text = text
        msg.edited = ctx.now
    return message_view(ctx, msg)


@app.action(read_only=False)
def delete_message(ctx: Context[SlackState], message_id: str) -> dict[str, Any]:
    """Delete one of your own messages. A thread's first message leaves a placeholder while replies remain.

    Files shared with the message stay in the channel's files.

    Example:
        message_id="msg_0201" -> {"id": "msg_0201", "deleted": true}.

    Args:
        message_id: The id of your message.

    Returns:
        {"id", "channel_id", "deleted": true}.
    """
    msg = find_message(ctx, message_id)
    require_own(ctx, msg, "delete")
    require_writable(ctx, ctx.state.channels[msg.channel_id], "message_id")
    has_replies = any(m.thread_id == msg.id for m in ctx.state.messages.values())
    if has_replies:
        msg.deleted = True
        msg.text = ""
        msg.reactions = []
        msg.pinned_by, msg.pinned_at = "", None
    else:
        del ctx.state.messages[msg.id]
    for f in ctx.state.files.values():
        if f.message_id == msg.id and not has_replies:
            f.message_id = ""
    return {"id": msg.id, "channel_id": msg.channel_id, "deleted": True}


@app.action(read_only=True)
def search_messages(
    ctx: Context[SlackState],
    query: SearchText,
    sort: Literal["newest", "oldest"] = "newest",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Search the messages you can read (public channels, your private channels and DMs), replies included.

    Every term must match; "-word" excludes. Terms: words and "quoted phrases" (text and file names);
    in:#channel, in:@person (your DMs with them); from:@first.last, from:me; before:YYYY-MM-DD and
    after:YYYY-MM-DD (that day excluded), on:YYYY-MM-DD; has:file, has:pin, has:reaction, has:link;
    is:thread (thread replies only). Dates are in the company's time zone.

    Example:
        query="dry run in:#atlas-cutover from:@mia.thompson after:2026-03-01" -> matching messages, newest first.

    Args:
        query: The search terms, e.g. "cutover in:#atlas-cutover has:pin".
        sort: "newest" first (default) or "oldest" first.
        page: Page number, starting at 1.
        page_size: Messages per page.

    Returns:
        {"results": [message with "channel" and "thread_id"], "page", "page_size", "total", "next_page"}.
    """
    require_text(query, "query")
    tests = message_tests(ctx, query)
    readable = readable_ids(ctx)
    hits = [
        m
        for m in ctx.state.messages.values()
        if m.channel_id in readable and not m.deleted and all(t(m) for t in tests)
    ]
    hits.sort(key=lambda m: (m.ts, m.id), reverse=sort == "newest")
    return page_of(hits, page, page_size, view=lambda m: message_view(ctx, m))
