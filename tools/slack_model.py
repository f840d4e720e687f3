"""Chat records, the app object, and the rules every chat action shares (finding and showing things).

:mod:`tools.slack` declares the actions; this module keeps what they have in common, so that
each action reads as a list of checks followed by one change. Only :func:`new_message` changes the state.

Who may see what (as in the real product): public channels are readable by everyone, even
without joining; private channels and direct messages only by their members. Writing anywhere
(posting, reacting, pinning, uploading) needs membership, and an archived channel is read-only.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from typing import Any, Literal

from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.registry import App
from tools.kernel.world import AppState, Context, Record, format_instant, parse_date, parse_instant
from tools.kits.files import looks_encoded
from tools.kits.people import find_person
from tools.kits.text import fold

__all__ = [
    "DATE_RE",
    "Channel",
    "Message",
    "Reaction",
    "SlackFile",
    "SlackState",
    "Status",
    "channel_label",
    "channel_summary",
    "file_view",
    "find_channel",
    "find_file",
    "find_message",
    "is_member",
    "matches_text",
    "me",
    "message_view",
    "new_message",
    "people_emails",
    "person",
    "person_name",
    "reaction_name",
    "readable_ids",
    "refuse_encoded",
    "require_channel",
    "require_own",
    "require_writable",
    "status_emoji",
    "time_bound",
    "visible",
    "app",
]


class Reaction(Record):
    """One emoji reaction on a message and who added it."""

    name: str  # emoji name without colons, e.g. "eyes" or "+1"
    users: list[str] = []  # email addresses, in the order they reacted


class Channel(Record):
    """A channel or a direct-message conversation."""

    id: str
    name: str = ""  # "" for direct messages
    kind: Literal["public", "private", "dm", "group_dm"]
    topic: str = ""
    purpose: str = ""
    creator: str
    created: datetime
    members: list[str] = []  # email addresses
    archived: bool = False


class Message(Record):
    """A message in a channel or a direct-message conversation; a thread reply names its parent."""

    id: str
    channel_id: str
    user: str  # author's email address
    text: str = ""
    ts: datetime
    thread_id: str = ""  # id of the thread's first message; "" for a message in the channel itself
    broadcast: bool = False  # a thread reply also shown in the channel
    edited: datetime | None = None
    deleted: bool = False  # a thread's first message that was deleted while replies remain
    reactions: list[Reaction] = []
    pinned_by: str = ""
    pinned_at: datetime | None = None
    files: list[str] = []  # ids of files shared with this message


class SlackFile(Record):
    """A file shared in a conversation; its bytes are kept as a blob."""

    id: str
    name: str
    title: str = ""
    mime_type: str
    size: int
    blob: str
    user: str  # who shared it
    channel_id: str
    message_id: str = ""
    created: datetime


class Status(Record):
    """A person's status: a short text and an emoji, optionally clearing itself at ``expires``."""

    id: str  # the person's directory id, e.g. "priya.shah"
    email: str
    text: str = ""
    emoji: str = ""  # with colons, e.g. ":palm_tree:"
    expires: datetime | None = None


class SlackState(AppState):
    """Channels and direct messages, their messages, shared files and people's statuses, each keyed by id."""

    channels: dict[str, Channel] = {}
    messages: dict[str, Message] = {}
    files: dict[str, SlackFile] = {}
    statuses: dict[str, Status] = {}


app = App(
    "slack",
    SlackState,
    "The company chat: channels, direct messages, threads, reactions, pins, shared files and statuses.",
)

#: A calendar date as callers write it: YYYY-MM-DD (or YYYY/MM/DD).
DATE_RE = re.compile(r"^\d{4}[-/]\d{2}[-/]\d{2}$")


# ---- people ------------------------------------------------------------------------------------


def person(ctx: Context[SlackState], who: str, parameter: str) -> tuple[str, str]:
    """Resolve a colleague by email, directory id (``@priya.shah`` too) or full name; returns (email, name).

    Raises:
        NotFound: No one matches.
    """
    key = who.strip().lstrip("@").strip()
    if not key:
        raise InvalidArgument("must name a person by email address or full name", parameter)
    directory = ctx.other("directory")
    if directory is None:
        if "@" in key and "." in key.split("@")[-1]:
            return key.lower(), key.lower()
        raise NotFound(f"no one matches '{who}'; give an email address", parameter)
    found = find_person(directory, key, parameter)  # type: ignore[arg-type]
    return found.email.lower(), found.name


def person_name(ctx: Context[SlackState], email: str) -> str:
    """The full name of ``email`` from the directory, or the address itself."""
    directory = ctx.other("directory")
    cache: dict[str, str] = ctx._cache.setdefault("slack_names", {})
    if not cache and directory is not None:
        cache.update({p.email.lower(): p.name for p in getattr(directory, "people", {}).values()})
    return cache.get(email.lower(), email)


# ---- channels ----------------------------------------------------------------------------------


def channel_label(ctx: Context[SlackState], ch: Channel) -> str:
    """``#name`` for a channel, ``DM with <name>`` or ``Group DM with <names>`` for direct messages."""
    if ch.kind in ("public", "private"):
        return f"#{ch.name}"
    others = [person_name(ctx, m) for m in ch.members if m.lower() != ctx.user.lower()]
    lead = "DM with" if ch.kind == "dm" else "Group DM with"
    return f"{lead} {', '.join(others) or person_name(ctx, ctx.user)}"


def find_channel(ctx: Context[SlackState], ref: str, parameter: str = "channel") -> Channel:
    """The channel named by ``ref``: its id, ``#name`` / ``name``, or ``@person`` for your DM with them.

    Raises:
        NotFound: No such channel, or a direct message you are not part of.
        Conflict: A private channel you are not a member of (the message names someone to ask).
    """
    key = ref.strip()
    if not key:
        raise InvalidArgument("must name a channel, e.g. #general, or give a channel id", parameter)
    state = ctx.state
    ch = state.channels.get(key)
    if ch is None and key.startswith("@"):
        email, name = person(ctx, key, parameter)
        wanted = {email, ctx.user.lower()}
        ch = next((c for c in state.channels.values() if c.kind == "dm" and {m.lower() for m in c.members} == wanted),
                  None)  # fmt: skip
        if ch is None:
            raise NotFound(f"you have no direct messages with {name} yet; start one with slack open-dm", parameter)
    if ch is None:
        name = key.lstrip("#").lower()
        ch = next((c for c in state.channels.values() if c.kind in ("public", "private") and c.name == name), None)
    if ch is None or (ch.kind in ("dm", "group_dm") and not is_member(ctx, ch)):
        raise NotFound(f"no channel '{ref}'; use slack list-channels to see channel names and ids", parameter)
    if ch.kind == "private" and not is_member(ctx, ch):
        ask = ch.creator if ch.creator in ch.members else (ch.members[0] if ch.members else ch.creator)
        raise Conflict(
            f"#{ch.name} is a private channel you are not a member of; ask a member such as "
            f"{person_name(ctx, ask)} ({ask}) to invite you",
            parameter,
        )
    return ch


def require_writable(ctx: Context[SlackState], ch: Channel, parameter: str = "channel") -> None:
    """Refuse a change in ``ch`` when it is archived or you are not a member.

    Raises:
        Conflict: naming what to do instead.
    """
    label = channel_label(ctx, ch)
    if ch.archived:
        raise Conflict(f"{label} is archived and read-only; pick an active channel", parameter)
    if not is_member(ctx, ch):
        raise Conflict(f"you are not a member of {label}; join it first with slack join-channel", parameter)


def channel_summary(ctx: Context[SlackState], ch: Channel) -> dict[str, Any]:
    """What a channel listing shows."""
    return {
        "id": ch.id,
        "name": channel_label(ctx, ch),
        "kind": ch.kind,
        "topic": ch.topic,
        "purpose": ch.purpose,
        "member_count": len(ch.members),
        "is_member": is_member(ctx, ch),
        "archived": ch.archived,
        "created": format_instant(ch.created, ctx.tz),
    }


# ---- messages and files ------------------------------------------------------------------------


def find_message(ctx: Context[SlackState], message_id: str, parameter: str = "message_id") -> Message:
    """A message you can read, by id.

    Raises:
        NotFound: No such message in a conversation you can read.
    """
    msg = ctx.state.messages.get(message_id.strip())
    if msg is None:
        raise NotFound(
            f"no message with id '{message_id}'; use slack get-history or slack search-messages to find ids", parameter
        )
    ch = ctx.state.channels[msg.channel_id]
    try:
        find_channel(ctx, ch.id, parameter)
    except (NotFound, Conflict):
        raise NotFound(f"no message with id '{message_id}' in a conversation you can read", parameter) from None
    return msg


def find_file(ctx: Context[SlackState], file_id: str, parameter: str = "file_id") -> SlackFile:
    """A shared file you can see, by id.

    Raises:
        NotFound: No such file in a conversation you can read.
    """
    f = ctx.state.files.get(file_id.strip())
    if f is None:
        raise NotFound(f"no file with id '{file_id}'; use slack list-files to find file ids", parameter)
    try:
        find_channel(ctx, f.channel_id, parameter)
    except (NotFound, Conflict):
        raise NotFound(f"no file with id '{file_id}' in a conversation you can read", parameter) from None
    return f


def file_view(ctx: Context[SlackState], f: SlackFile) -> dict[str, Any]:
    """What a file listing shows."""
    ch = ctx.state.channels.get(f.channel_id)
    return {
        "id": f.id,
        "name": f.name,
        "title": f.title or f.name,
        "mime_type": f.mime_type,
        "size": f.size,
        "user": f.user,
        "user_name": person_name(ctx, f.user),
        "channel_id": f.channel_id,
        "channel": channel_label(ctx, ch) if ch else "",
        "message_id": f.message_id,
        "created": format_instant(f.created, ctx.tz),
    }


def _replies(state: SlackState, msg: Message) -> list[Message]:
    return sorted((m for m in state.messages.values() if m.thread_id == msg.id), key=lambda m: (m.ts, m.id))


def message_view(ctx: Context[SlackState], msg: Message) -> dict[str, Any]:
    """A message as every reading action shows it (thread counts are computed, never stored)."""
    ch = ctx.state.channels[msg.channel_id]
    out: dict[str, Any] = {
        "id": msg.id,
        "channel_id": msg.channel_id,
        "channel": channel_label(ctx, ch),
        "user": msg.user,
        "user_name": person_name(ctx, msg.user),
        "text": "This message was deleted." if msg.deleted else msg.text,
        "ts": format_instant(msg.ts, ctx.tz),
        "thread_id": msg.thread_id or None,
    }
    if msg.thread_id:
        out["also_in_channel"] = msg.broadcast
    else:
        replies = _replies(ctx.state, msg)
        out["reply_count"] = len(replies)
        out["latest_reply"] = format_instant(replies[-1].ts, ctx.tz) if replies else None
    out.update(
        reactions=[{"name": r.name, "count": len(r.users), "users": r.users} for r in msg.reactions],
        pinned=bool(msg.pinned_by),
        edited=format_instant(msg.edited, ctx.tz) if msg.edited else None,
        files=[
            {"id": f.id, "name": f.name, "mime_type": f.mime_type, "size": f.size}
            for f in (ctx.state.files.get(fid) for fid in msg.files)
            if f is not None
        ],
    )
    if msg.deleted:
        out["deleted"] = True
    return out


# ---- emoji and file content --------------------------------------------------------------------

_EMOJI_RE = re.compile(r"^[a-z0-9_+'-]{1,64}$")
#: Names the product stores under another name.
_ALIASES = {"thumbsup": "+1", "thumbs_up": "+1", "thumbsdown": "-1", "thumbs_down": "-1"}


def reaction_name(emoji: str, parameter: str = "emoji") -> str:
    """An emoji name as reactions store it: lower case, no colons; thumbsup becomes ``+1``.

    Raises:
        InvalidArgument: Not an emoji name.
    """
    name = emoji.strip().strip(":").strip().lower()
    if not _EMOJI_RE.match(name):
        raise InvalidArgument(
            f"'{emoji}' is not an emoji name; use a name such as eyes, tada, white_check_mark or +1", parameter
        )
    return _ALIASES.get(name, name)


def status_emoji(emoji: str, parameter: str = "emoji") -> str:
    """An emoji as a status stores it, with colons: ``palm_tree`` becomes ``:palm_tree:``."""
    return f":{reaction_name(emoji, parameter)}:"




def refuse_encoded(content: str, parameter: str = "content") -> None:
    """Refuse file bytes pasted as base64 or as a ``data:`` URI; text content passes.

    Raises:
        InvalidArgument: naming the workspace path alternative.
    """
    if looks_encoded(content):
        raise InvalidArgument(
            "looks like base64 or a data: URI; files are not pasted as text: save the file in your workspace "
            "and pass path=<its path> instead",
            parameter,
        )


def matches_text(needle: str, *hay: str) -> bool:
    """True when every folded word of ``needle`` appears in one of ``hay``."""
    text = " ".join(fold(h) for h in hay)
    return all(w in text for w in fold(needle).split())


# ---- shared by the actions ----------------------------------------------------------------------


def me(ctx: Context[SlackState]) -> str:
    """The acting user's email address, lower case."""
    return ctx.user.lower()


def is_member(ctx: Context[SlackState], ch: Channel) -> bool:
    """True when the acting user is in ``ch``."""
    return me(ctx) in (m.lower() for m in ch.members)


def require_channel(ctx: Context[SlackState], ch: Channel, parameter: str = "channel") -> None:
    """Refuse a direct-message conversation where only a channel will do.

    Raises:
        InvalidArgument: ``ch`` is a DM or group DM.
    """
    if ch.kind not in ("public", "private"):
        raise InvalidArgument(
            f"{channel_label(ctx, ch)} is a direct-message conversation, not a channel; "
            "use slack open-dm to talk to a different set of people",
            parameter,
        )


def time_bound(ctx: Context[SlackState], value: str, parameter: str, end: bool) -> datetime | None:
    """Parse a date-time or a date (the start of that day, or with ``end`` the start of the next); None if empty.

    Raises:
        InvalidArgument: Neither an ISO 8601 date-time nor a date.
    """
    text = value.strip()
    if not text:
        return None
    if DATE_RE.match(text):
        start = datetime.combine(parse_date(text, parameter), time(0), tzinfo=ctx.tz)
        return start + timedelta(days=1) if end else start
    return parse_instant(text, ctx.tz, parameter)


def visible(ctx: Context[SlackState], ch: Channel) -> bool:
    """True when the acting user may read ``ch``: public, or a member."""
    return ch.kind == "public" or is_member(ctx, ch)


def readable_ids(ctx: Context[SlackState]) -> set[str]:
    """Ids of every conversation the acting user may read."""
    return {c.id for c in ctx.state.channels.values() if visible(ctx, c)}


def new_message(
    ctx: Context[SlackState], ch: Channel, text: str, thread_id: str = "", broadcast: bool = False
) -> Message:
    """Store a new message by the acting user, posted now, and return it."""
    msg = Message(
        id=ctx.new_id("msg"),
        channel_id=ch.id,
        user=me(ctx),
        text=text,
        ts=ctx.now,
        thread_id=thread_id,
        broadcast=broadcast,
    )
    ctx.state.messages[msg.id] = msg
    return msg


def require_own(ctx: Context[SlackState], msg: Message, verb: str) -> None:
    """Refuse to change a message someone else wrote, or one already deleted.

    Raises:
        Conflict: naming the author.
    """
    if msg.user.lower() != me(ctx):
        raise Conflict(
            f"message '{msg.id}' was written by {person_name(ctx, msg.user)}; you can only {verb} your own messages",
            "message_id",
        )
    if msg.deleted:
        raise Conflict(f"message '{msg.id}' has been deleted", "message_id")


def people_emails(ctx: Context[SlackState], people: list[str], parameter: str) -> list[str]:
    """Resolve each person (email, @id or full name) to an email address, without repeats.

    Raises:
        NotFound: Someone matches no one in the directory.
    """
    out: list[str] = []
    for who in people:
        email, _ = person(ctx, who, parameter)
        if email not in out:
            out.append(email)
    return out
