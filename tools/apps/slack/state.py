"""The chat's records: channels and DMs, messages with their reactions, shared files, statuses, and the state."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from tools.kernel.world import AppState, Record

__all__ = ["Channel", "Message", "Reaction", "SlackFile", "SlackState", "Status"]


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
