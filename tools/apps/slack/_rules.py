"""The rules the chat's actions share: finding people, channels, messages and files, and who may do what."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, time, timedelta
from pathlib import PurePosixPath
from typing import Annotated, Literal

from pydantic import Field

from tools.apps.slack._query import compile_query
from tools.apps.slack.state import Channel, Message, SlackFile, SlackState
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, parse_date, parse_instant
from tools.kits.folders import check_name
from tools.kits.people import Person, directory_of, find_person
from tools.kits.text import fold

__all__ = [
    "MAX_FILE_BYTES",
    "Text",
    "channel_label",
    "find_channel",
    "find_dm",
    "find_file",
    "find_message",
    "is_member",
    "matches_text",
    "me",
    "message_tests",
    "new_channel_name",
    "new_message",
    "people_emails",
    "person",
    "person_card",
    "person_name",
    "reaction_name",
    "readable_ids",
    "replies_of",
    "require_channel",
    "require_live",
    "require_own",
    "require_writable",
    "shared_file_name",
    "status_emoji",
    "thread_parent",
    "time_bound",
    "visible",
]

# Who may see what (as in the real product): public channels are readable by everyone, even
# without joining; private channels and direct messages only by their members. Writing anywhere
# (posting, reacting, pinning, uploading) needs membership, and an archived channel is read-only.
# Only new_message changes the state.

#: A message's text as callers send it: at most 4,000 characters.
Text = Annotated[str, Field(max_length=4000)]
#: Largest file that can be shared (bytes): 50 MB.
MAX_FILE_BYTES = 50 * 1024 * 1024

#: A calendar date as callers write it: YYYY-MM-DD (or YYYY/MM/DD).
_DATE_RE = re.compile(r"^\d{4}[-/]\d{2}[-/]\d{2}$")
_CHANNEL_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
_EMOJI_RE = re.compile(r"^[a-z0-9_+'-]{1,64}$")
#: Names the product stores under another name.
_ALIASES = {"thumbsup": "+1", "thumbs_up": "+1", "thumbsdown": "-1", "thumbs_down": "-1"}


# ---- people ------------------------------------------------------------------------------------


def me(ctx: Context[SlackState]) -> str:
    """The acting user's email address, lower case."""
    return ctx.user.lower()


def person(ctx: Context[SlackState], who: str, parameter: str) -> tuple[str, str]:
    """Resolve a colleague by email, directory id (``@priya.shah`` too) or full name.

    Args:
        ctx: The action's context.
        who: What the caller wrote.
        parameter: The parameter it came in, named in errors.

    Returns:
        ``(email, name)``; the email lower-cased.

    Raises:
        InvalidArgument: ``who`` is empty.
        NotFound: No one matches.
    """
    key = who.strip().lstrip("@").strip()
    if not key:
        raise InvalidArgument("must name a person by email address or full name", parameter)
    directory = directory_of(ctx)
    if directory is None:
        if "@" in key and "." in key.split("@")[-1]:
            return key.lower(), key.lower()
        raise NotFound(f"no one matches '{who}'; give an email address", parameter)
    found = find_person(directory, key, parameter)
    return found.email.lower(), found.name


def person_name(ctx: Context[SlackState], email: str) -> str:
    """The full name of ``email`` from the directory, or the address itself."""
    directory = directory_of(ctx)
    cache: dict[str, str] = ctx._cache.setdefault("slack_names", {})
    if not cache and directory is not None:
        cache.update({p.email.lower(): p.name for p in directory.people.values()})
    return cache.get(email.lower(), email)


def person_card(ctx: Context[SlackState], email: str) -> Person | None:
    """The directory record of ``email`` (lower case), or None when there is none."""
    directory = directory_of(ctx)
    people = directory.people.values() if directory is not None else []
    return next((p for p in people if p.email.lower() == email), None)


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


# ---- channels ----------------------------------------------------------------------------------


def is_member(ctx: Context[SlackState], ch: Channel) -> bool:
    """True when the acting user is in ``ch``."""
    return me(ctx) in (m.lower() for m in ch.members)


def visible(ctx: Context[SlackState], ch: Channel) -> bool:
    """True when the acting user may read ``ch``: public, or a member."""
    return ch.kind == "public" or is_member(ctx, ch)


def readable_ids(ctx: Context[SlackState]) -> set[str]:
    """Ids of every conversation the acting user may read."""
    return {c.id for c in ctx.state.channels.values() if visible(ctx, c)}


def channel_label(ctx: Context[SlackState], ch: Channel) -> str:
    """``#name`` for a channel, ``DM with <name>`` or ``Group DM with <names>`` for direct messages."""
    if ch.kind in ("public", "private"):
        return f"#{ch.name}"
    others = [person_name(ctx, m) for m in ch.members if m.lower() != ctx.user.lower()]
    lead = "DM with" if ch.kind == "dm" else "Group DM with"
    return f"{lead} {', '.join(others) or person_name(ctx, ctx.user)}"


def find_dm(ctx: Context[SlackState], members: set[str], kind: Literal["dm", "group_dm"]) -> Channel | None:
    """The direct-message conversation of ``kind`` whose members are exactly ``members`` (lower case), if any."""
    return next(
        (c for c in ctx.state.channels.values() if c.kind == kind and {m.lower() for m in c.members} == members),
        None,
    )


def find_channel(ctx: Context[SlackState], ref: str, parameter: str = "channel") -> Channel:
    """The channel named by ``ref``: its id, ``#name`` / ``name``, or ``@person`` for your DM with them.

    Raises:
        InvalidArgument: ``ref`` is empty.
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
        ch = find_dm(ctx, {email, me(ctx)}, "dm")
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


def new_channel_name(ctx: Context[SlackState], name: str) -> str:
    """The name of a channel about to be created, without its ``#``.

    Raises:
        InvalidArgument: Not lower-case letters, digits, ``-`` and ``_`` (the message suggests one that is).
        Conflict: Another channel, archived ones included, has the name.
    """
    key = name.strip().lstrip("#")
    if not _CHANNEL_NAME_RE.match(key):
        hint = re.sub(r"[^a-z0-9_-]+", "-", key.lower()).strip("-_")[:80] or "team-updates"
        raise InvalidArgument(
            f"'{name}' is not a valid channel name; use lower-case letters, digits, - and _ (e.g. '{hint}')", "name"
        )
    taken = next((c for c in ctx.state.channels.values() if c.name == key), None)
    if taken is not None:
        state = "an archived" if taken.archived else "a"
        raise Conflict(f"there is already {state} channel named #{key} ({taken.id}); pick another name", "name")
    return key


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


def message_tests(ctx: Context[SlackState], query: str) -> list[Callable[[Message], bool]]:
    """The tests a message must pass to match a search query (the language of ``_query.compile_query``).

    Raises:
        InvalidArgument: (parameter ``query``) a term the language refuses.
        NotFound: An ``in:`` channel that does not exist or that you cannot see.
        Conflict: An ``in:`` private channel you are not a member of.
    """
    return compile_query(ctx, query, lambda ref: find_channel(ctx, ref, "query"))


def thread_parent(ctx: Context[SlackState], msg: Message) -> Message:
    """The first message of ``msg``'s thread: ``msg`` itself unless it is a reply."""
    return ctx.state.messages[msg.thread_id] if msg.thread_id else msg


def replies_of(state: SlackState, msg: Message) -> list[Message]:
    """The replies in the thread ``msg`` starts, oldest first."""
    return sorted((m for m in state.messages.values() if m.thread_id == msg.id), key=lambda m: (m.ts, m.id))


def require_live(msg: Message) -> None:
    """Refuse to act on a thread's first message that has been deleted.

    Raises:
        Conflict: The message has been deleted.
    """
    if msg.deleted:
        raise Conflict(f"message '{msg.id}' has been deleted", "message_id")


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
    require_live(msg)


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


def shared_file_name(filename: str, path: str) -> str:
    """The name a file is shared under: ``filename``, else the last part of the workspace ``path``.

    Raises:
        InvalidArgument: (parameter ``filename``) no name at all, or one the file-name rule refuses.
    """
    name = filename.strip() or PurePosixPath(path.strip()).name
    if not name:
        raise InvalidArgument("give the file's name, e.g. notes.md, when sharing text content", "filename")
    return check_name(name, "filename")


# ---- emoji, text and time ----------------------------------------------------------------------


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


def matches_text(needle: str, *hay: str) -> bool:
    """True when every folded word of ``needle`` appears in one of ``hay``."""
    text = " ".join(fold(h) for h in hay)
    return all(w in text for w in fold(needle).split())


def time_bound(ctx: Context[SlackState], value: str, parameter: str, end: bool) -> datetime | None:
    """Parse a date-time or a date (the start of that day, or with ``end`` the start of the next); None if empty.

    Raises:
        InvalidArgument: Neither an ISO 8601 date-time nor a date.
    """
    text = value.strip()
    if not text:
        return None
    if _DATE_RE.match(text):
        start = datetime.combine(parse_date(text, parameter), time(0), tzinfo=ctx.tz)
        return start + timedelta(days=1) if end else start
    return parse_instant(text, ctx.tz, parameter)
