"""Chat actions on channels: list, show, members, create, join, leave, invite, topic, archive, open a DM."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from tools.apps.slack._rules import (
    channel_label,
    find_channel,
    find_dm,
    is_member,
    matches_text,
    me,
    new_channel_name,
    people_emails,
    require_channel,
    require_writable,
    visible,
)
from tools.apps.slack._views import channel_details, channel_ref, channel_summary, member_view
from tools.apps.slack.app import app
from tools.apps.slack.state import Channel, SlackState
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = [
    "archive_channel",
    "create_channel",
    "get_channel",
    "invite_to_channel",
    "join_channel",
    "leave_channel",
    "list_channels",
    "list_members",
    "open_dm",
    "set_channel_topic",
]


@app.action(read_only=True)
def list_channels(
    ctx: Context[SlackState],
    query: SearchText = "",
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
    return channel_details(ctx, find_channel(ctx, channel))


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
    people = sorted((member_view(ctx, m) for m in ch.members), key=lambda p: fold(p["name"]))
    return {"channel": channel_ref(ctx, ch), **page_of(people, page, page_size)}


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
    key = new_channel_name(ctx, name)
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
    return {**channel_details(ctx, ch), "members": ch.members}


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
    return channel_details(ctx, ch)


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


@app.action(read_only=False)
def open_dm(ctx: Context[SlackState], people: list[str]) -> dict[str, Any]:
    """Find your direct-message conversation with one or more people, starting it if there is none yet.

    One person gives a DM; two to eight give a group DM. Post in it with post-message.

    Example:
        people=["priya.shah@northwind.example"] -> {"id": "dm_priya", "name": "DM with Priya Shah", "created": false}.

    Args:
        people: Who to talk to: email addresses, @first.last ids or full names (not yourself).

    Returns:
        {"id", "name", "kind", "members": [{"email", "name"}], "created": true when it is new}.
    """
    emails = [e for e in people_emails(ctx, people, "people") if e != me(ctx)]
    if not emails:
        raise InvalidArgument("name at least one other person", "people")
    if len(emails) > 8:
        raise InvalidArgument(f"a group DM holds at most 8 other people; got {len(emails)}; create a channel", "people")
    wanted = {*emails, me(ctx)}
    kind: Literal["dm", "group_dm"] = "dm" if len(emails) == 1 else "group_dm"
    ch = find_dm(ctx, wanted, kind)
    created = ch is None
    if ch is None:
        ch = Channel(id=ctx.new_id("dm"), kind=kind, creator=me(ctx), created=ctx.now, members=[me(ctx), *emails])
        ctx.state.channels[ch.id] = ch
    members = [member_view(ctx, m) for m in ch.members]
    return {"id": ch.id, "name": channel_label(ctx, ch), "kind": ch.kind, "members": members, "created": created}
