"""Chat: channels, messages, threads and reactions (DMs, search, pins, files, statuses: :mod:`tools.slack_sharing`).

The records, the state and the ``app`` object live in :mod:`tools.slack_model`; importing this
module declares every action of the app.
"""

# ruff: noqa: D417  (an action's first parameter is the context, which callers never pass)

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold, require_text
from tools.slack_model import (
    Channel,
    Message,
    Reaction,
    SlackFile,
    SlackState,
    Status,
    app,
    channel_label,
    channel_summary,
    find_channel,
    find_message,
    is_member,
    matches_text,
    me,
    message_view,
    new_message,
    people_emails,
    person_name,
    reaction_name,
    require_channel,
    require_own,
    require_writable,
    time_bound,
    visible,
)

__all__ = ["Channel", "Message", "Reaction", "SlackFile", "SlackState", "Status", "app"]

Text = Annotated[str, Field(max_length=4000)]
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")


# ---- channels ---------------------------------------------------------------------------------


@app.action(read_only=True)
def list_channels(
    ctx: Context[SlackState],
    query: str = "",
    kind: Literal["", "public", "private", "dm"] = "",
    only_mine: bool = False,
    include_archived: bool = False,
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """List the channels you can see: every public channel and the private ones you are in.

    Sorted by name. Archived channels are left out unless asked for. kind="dm" lists your
    direct-message conversations instead.

    Example:
        query="atlas" -> [{"id": "ch_atlas_cutover", "name": "#atlas-cutover", "topic": ..., "is_member": true}].

    Args:
        query: Words to find in the channel's name, topic or purpose.
        kind: Only this kind: "public", "private", or "dm" (your direct messages); empty lists public and private.
        only_mine: Only channels you are a member of.
        include_archived: Also list archived channels.
        page: Page number, starting at 1.
        page_size: Channels per page.

    Returns:
        {"results": [{"id", "name", "kind", "topic", "purpose", "member_count", "is_member", "archived",
        "created"}], "page", "page_size", "total", "next_page"}.
    """
    kinds = {"": ("public", "private"), "public": ("public",), "private": ("private",), "dm": ("dm", "group_dm")}
    hits = []
    for ch in ctx.state.channels.values():
        if ch.kind not in kinds[kind] or not visible(ctx, ch):
            continue
        if (ch.archived and not include_archived) or (only_mine and not is_member(ctx, ch)):
            continue
        if query and not matches_text(query, ch.name, ch.topic, ch.purpose, channel_label(ctx, ch)):
            continue
        hits.append(ch)
    hits.sort(key=lambda c: (fold(channel_label(ctx, c)), c.id))
    return page_of([channel_summary(ctx, c) for c in hits], page, page_size)


@app.action(read_only=True)
def get_channel(ctx: Context[SlackState], channel: str) -> dict[str, Any]:
    """Show a channel's details: topic, purpose, who created it, how many members and pinned messages.

    Example:
        channel="#finance" -> {"id": "ch_finance", "topic": ..., "member_count": 6, "pinned_count": 2, ...}.

    Args:
        channel: The channel's name (#finance or finance), its id, or @person for your DM with them.

    Returns:
        The listing fields plus "creator", "creator_name", "pinned_count", "message_count" and
        "last_message_at".
    """
    ch = find_channel(ctx, channel)
    msgs = [m for m in ctx.state.messages.values() if m.channel_id == ch.id]
    last = max((m.ts for m in msgs), default=None)
    return {
        **channel_summary(ctx, ch),
        "creator": ch.creator,
        "creator_name": person_name(ctx, ch.creator),
        "pinned_count": sum(1 for m in msgs if m.pinned_by),
        "message_count": len(msgs),
        "last_message_at": format_instant(last, ctx.tz) if last else None,
    }


@app.action(read_only=True)
def list_members(ctx: Context[SlackState], channel: str, page: Page = 1, page_size: PageSize = 50) -> dict[str, Any]:
    """List who is in a channel, sorted by name.

    Example:
        channel="#leadership" -> [{"email": "dana.whitfield@northwind.example", "name": "Dana Whitfield"}, ...].

    Args:
        channel: The channel's name (#ops or ops), its id, or @person for your DM with them.
        page: Page number, starting at 1.
        page_size: Members per page.

    Returns:
        {"channel": {"id", "name"}, "results": [{"email", "name"}], "page", "page_size", "total", "next_page"}.
    """
    ch = find_channel(ctx, channel)
    people = sorted(({"email": m, "name": person_name(ctx, m)} for m in ch.members), key=lambda p: fold(p["name"]))
    return {"channel": {"id": ch.id, "name": channel_label(ctx, ch)}, **page_of(people, page, page_size)}


@app.action(read_only=False)
def create_channel(
    ctx: Context[SlackState],
    name: str,
    private: bool = False,
    topic: Annotated[str, Field(max_length=250)] = "",
    purpose: Annotated[str, Field(max_length=250)] = "",
    members: list[str] = [],  # noqa: B006 - never mutated; [] means "nobody else yet"
) -> dict[str, Any]:
    """Create a channel; you become its first member.

    Names are lower case: letters, digits, hyphens and underscores, at most 80 characters, and no
    other channel (archived ones included) may have the same name.

    Example:
        name="q2-planning" private=true purpose="Q2 planning" members=["Victor Alvarez"] -> the new channel.

    Args:
        name: The new channel's name without the #, e.g. "q2-planning".
        private: True for a private channel that only invited members can see.
        topic: Short text shown at the top of the channel.
        purpose: What the channel is for.
        members: People to add besides you: email addresses, @first.last ids or full names.

    Returns:
        The new channel's details (as get-channel) plus "members": [email].
    """
    key = name.strip().lstrip("#")
    if not _NAME_RE.match(key):
        hint = re.sub(r"[^a-z0-9_-]+", "-", key.lower()).strip("-_")[:80] or "team-updates"
        raise InvalidArgument(
            f"'{name}' is not a valid channel name; use lower-case letters, digits, - and _ (e.g. '{hint}')", "name"
        )
    taken = next((c for c in ctx.state.channels.values() if c.name == key), None)
    if taken is not None:
        state = "an archived" if taken.archived else "a"
        raise Conflict(f"there is already {state} channel named #{key} ({taken.id}); pick another name", "name")
    emails = [e for e in people_emails(ctx, members, "members") if e != me(ctx)]
    ch = Channel(
        id=ctx.new_id("ch"),
        name=key,
        kind="private" if private else "public",
        topic=topic.strip(),
        purpose=purpose.strip(),
        creator=me(ctx),
        created=ctx.now,
        members=[me(ctx), *emails],
    )
    ctx.state.channels[ch.id] = ch
    return {**get_channel(ctx, ch.id), "members": ch.members}


@app.action(read_only=False)
def join_channel(ctx: Context[SlackState], channel: str) -> dict[str, Any]:
    """Join a public channel so you can post in it. Private channels need an invitation from a member.

    Example:
        channel="#marketing" -> {"id": "ch_marketing", "name": "#marketing", "already_member": false, ...}.

    Args:
        channel: The channel's name (#sales or sales) or its id.

    Returns:
        {"id", "name", "already_member", "member_count"}.
    """
    ch = find_channel(ctx, channel)
    require_channel(ctx, ch)
    already = is_member(ctx, ch)
    if ch.archived:
        raise Conflict(f"#{ch.name} is archived; archived channels cannot be joined", "channel")
    if not already:
        ch.members = [*ch.members, me(ctx)]
    return {"id": ch.id, "name": channel_label(ctx, ch), "already_member": already, "member_count": len(ch.members)}


@app.action(read_only=False)
def leave_channel(ctx: Context[SlackState], channel: str) -> dict[str, Any]:
    """Leave a channel. Everyone stays in #general; a private channel can only be rejoined by invitation.

    Example:
        channel="#random" -> {"id": "ch_random", "name": "#random", "left": true}.

    Args:
        channel: The channel's name (#random or random) or its id.

    Returns:
        {"id", "name", "left": true, "member_count"}.
    """
    ch = find_channel(ctx, channel)
    require_channel(ctx, ch)
    if not is_member(ctx, ch):
        raise Conflict(f"you are not a member of #{ch.name}", "channel")
    if ch.name == "general":
        raise Conflict("everyone stays in #general; it cannot be left", "channel")
    ch.members = [m for m in ch.members if m.lower() != me(ctx)]
    return {"id": ch.id, "name": channel_label(ctx, ch), "left": True, "member_count": len(ch.members)}


@app.action(read_only=False)
def invite_to_channel(ctx: Context[SlackState], channel: str, people: list[str]) -> dict[str, Any]:
    """Add people to a channel you are a member of.

    Example:
        channel="#offsite-2026" people=["olivia.baker@northwind.example", "Isaac King"] -> who was added.

    Args:
        channel: The channel's name (#ops or ops) or its id.
        people: Who to add: email addresses, @first.last ids or full names (at least one).

    Returns:
        {"id", "name", "added": [email], "already_members": [email], "member_count"}.
    """
    ch = find_channel(ctx, channel)
    require_channel(ctx, ch)
    require_writable(ctx, ch)
    if not people:
        raise InvalidArgument("name at least one person to add", "people")
    emails = people_emails(ctx, people, "people")
    present = {m.lower() for m in ch.members}
    added = [e for e in emails if e not in present]
    already = [e for e in emails if e in present]
    if not added:
        raise Conflict(f"everyone named is already in #{ch.name}; nothing to add", "people")
    ch.members = [*ch.members, *added]
    return {
        "id": ch.id,
        "name": channel_label(ctx, ch),
        "added": added,
        "already_members": already,
        "member_count": len(ch.members),
    }


@app.action(read_only=False)
def set_channel_topic(
    ctx: Context[SlackState],
    channel: str,
    topic: Annotated[str, Field(max_length=250)] = "",
    purpose: Annotated[str, Field(max_length=250)] = "",
) -> dict[str, Any]:
    """Change a channel's topic, its purpose, or both. You must be a member.

    Example:
        channel="#atlas-cutover" topic="Cutover Sat April 18, 06:00-10:00 ET" -> the channel with the new topic.

    Args:
        channel: The channel's name (#ops or ops) or its id.
        topic: The new topic (short text shown at the top of the channel).
        purpose: The new purpose (what the channel is for).

    Returns:
        The channel's details (as get-channel) after the change.
    """
    ch = find_channel(ctx, channel)
    require_channel(ctx, ch)
    if not topic.strip() and not purpose.strip():
        raise InvalidArgument("give a new topic, a new purpose, or both", "topic")
    require_writable(ctx, ch)
    if topic.strip():
        ch.topic = topic.strip()
    if purpose.strip():
        ch.purpose = purpose.strip()
    return get_channel(ctx, ch.id)


@app.action(read_only=False)
def archive_channel(ctx: Context[SlackState], channel: str) -> dict[str, Any]:
    """Archive a channel: it stays readable and searchable, but no one can post in it any more.

    Example:
        channel="#offsite-2026" -> {"id": "ch_offsite_2026", "name": "#offsite-2026", "archived": true}.

    Args:
        channel: The channel's name or its id; you must be a member; #general cannot be archived.

    Returns:
        {"id", "name", "archived": true}.
    """
    ch = find_channel(ctx, channel)
    require_channel(ctx, ch)
    if ch.name == "general":
        raise Conflict("#general is the company-wide channel and cannot be archived", "channel")
    require_writable(ctx, ch)
    ch.archived = True
    return {"id": ch.id, "name": channel_label(ctx, ch), "archived": True}


# ---- messages ---------------------------------------------------------------------------------


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
    head = {"id": ch.id, "name": channel_label(ctx, ch), "topic": ch.topic}
    return {"channel": head, **page_of([message_view(ctx, m) for m in msgs], page, page_size, key="messages")}


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
    parent = ctx.state.messages[msg.thread_id] if msg.thread_id else msg
    replies = sorted((m for m in ctx.state.messages.values() if m.thread_id == parent.id), key=lambda m: (m.ts, m.id))
    return {"parent": message_view(ctx, parent), **page_of([message_view(ctx, m) for m in replies], page, page_size,
                                                           key="replies")}  # fmt: skip


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
    parent = ctx.state.messages[msg.thread_id] if msg.thread_id else msg
    require_writable(ctx, ctx.state.channels[parent.channel_id], "message_id")
    ch = ctx.state.channels[parent.channel_id]
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


@app.action(read_only=False)
def add_reaction(ctx: Context[SlackState], message_id: str, emoji: str) -> dict[str, Any]:
    """React to a message with an emoji.

    Example:
        message_id="msg_0123" emoji="white_check_mark" -> the message's reactions.

    Args:
        message_id: The id of the message.
        emoji: The emoji's name, with or without colons, e.g. "eyes", ":tada:" or "+1" (thumbsup is stored as +1).

    Returns:
        {"id", "reactions": [{"name", "count", "users"}]}.
    """
    msg = find_message(ctx, message_id)
    name = reaction_name(emoji)
    require_writable(ctx, ctx.state.channels[msg.channel_id], "message_id")
    if msg.deleted:
        raise Conflict(f"message '{msg.id}' has been deleted", "message_id")
    current = next((r for r in msg.reactions if r.name == name), None)
    if current is not None and me(ctx) in current.users:
        raise Conflict(f"you already reacted with :{name}: to this message", "emoji")
    if current is None:
        msg.reactions = [*msg.reactions, Reaction(name=name, users=[me(ctx)])]
    else:
        current.users = [*current.users, me(ctx)]
    return {"id": msg.id, "reactions": message_view(ctx, msg)["reactions"]}


@app.action(read_only=False)
def remove_reaction(ctx: Context[SlackState], message_id: str, emoji: str) -> dict[str, Any]:
    """Take back an emoji reaction you added.

    Example:
        message_id="msg_0123" emoji="eyes" -> the message's remaining reactions.

    Args:
        message_id: The id of the message.
        emoji: The emoji's name, with or without colons.

    Returns:
        {"id", "reactions": [{"name", "count", "users"}]}.
    """
    msg = find_message(ctx, message_id)
    name = reaction_name(emoji)
    current = next((r for r in msg.reactions if r.name == name), None)
    if current is None or me(ctx) not in current.users:
        raise Conflict(f"you have not reacted with :{name}: to this message", "emoji")
    require_writable(ctx, ctx.state.channels[msg.channel_id], "message_id")
    users = [u for u in current.users if u != me(ctx)]
    if users:
        current.users = users
    else:
        msg.reactions = [r for r in msg.reactions if r is not current]
    return {"id": msg.id, "reactions": message_view(ctx, msg)["reactions"]}


# The rest of the app's actions: direct messages, search, pins, files and statuses.
from tools import slack_sharing  # noqa: E402, F401  (declares its actions on the same app)
