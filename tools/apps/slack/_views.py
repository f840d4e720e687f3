"""The JSON shapes the chat's actions return: channels, messages, pins, files, members and statuses."""

from __future__ import annotations

from typing import Any

from tools.apps.slack._rules import channel_label, is_member, person_name, replies_of
from tools.apps.slack.state import Channel, Message, SlackFile, SlackState
from tools.kernel.world import Context, format_instant, matching, view

__all__ = [
    "channel_details",
    "channel_ref",
    "channel_summary",
    "file_view",
    "member_view",
    "message_view",
    "pin_view",
    "status_view",
]


def channel_ref(ctx: Context[SlackState], ch: Channel) -> dict[str, Any]:
    """A channel named in another answer: ``{"id", "name"}``."""
    return {"id": ch.id, "name": channel_label(ctx, ch)}


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


def channel_details(ctx: Context[SlackState], ch: Channel) -> dict[str, Any]:
    """A channel's listing fields plus its creator, pinned and message counts and its last message time."""
    msgs = matching(ctx.state.messages, lambda m: m.channel_id == ch.id)
    last = max((m.ts for m in msgs), default=None)
    return {
        **channel_summary(ctx, ch),
        "creator": ch.creator,
        "creator_name": person_name(ctx, ch.creator),
        "pinned_count": sum(1 for m in msgs if m.pinned_by),
        "message_count": len(msgs),
        "last_message_at": format_instant(last, ctx.tz) if last else None,
    }


def member_view(ctx: Context[SlackState], email: str) -> dict[str, Any]:
    """A conversation member: ``{"email", "name"}``."""
    return {"email": email, "name": person_name(ctx, email)}


@view
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
        replies = replies_of(ctx.state, msg)
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


def pin_view(ctx: Context[SlackState], msg: Message) -> dict[str, Any]:
    """A pinned message with who pinned it and when."""
    return {
        "message": message_view(ctx, msg),
        "pinned_by": msg.pinned_by,
        "pinned_at": format_instant(msg.pinned_at, ctx.tz) if msg.pinned_at else None,
    }


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


def status_view(ctx: Context[SlackState], email: str, name: str) -> dict[str, Any]:
    """A person's status as it reads now: an expired status reads as empty."""
    pid = email.split("@")[0]
    rec = ctx.state.statuses.get(pid)
    live = rec is not None and (rec.expires is None or rec.expires > ctx.now)
    return {
        "email": email,
        "name": name,
        "status_text": rec.text if rec and live else "",
        "status_emoji": rec.emoji if rec and live else "",
        "status_expires": format_instant(rec.expires, ctx.tz) if rec and live and rec.expires else None,
    }
