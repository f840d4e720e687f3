"""Chat actions on pins: pin and unpin a message, list a channel's pinned messages."""

from __future__ import annotations

from typing import Any

from tools.apps.slack._rules import channel_label, find_channel, find_message, me, require_live, require_writable
from tools.apps.slack._views import channel_ref, pin_view
from tools.apps.slack.app import app
from tools.apps.slack.state import SlackState
from tools.kernel.exceptions import Conflict
from tools.kernel.world import Context

__all__ = ["list_pins", "pin_message", "unpin_message"]


@app.action(read_only=False)
def pin_message(ctx: Context[SlackState], message_id: str) -> dict[str, Any]:
    """Pin a message to its channel so everyone finds it in the channel's pinned items.

    Example:
        message_id="msg_0123" -> {"id": "msg_0123", "pinned": true, "channel": "#atlas-cutover"}.

    Args:
        message_id: The id of the message to pin.

    Returns:
        {"id", "channel_id", "channel", "pinned": true}.
    """
    msg = find_message(ctx, message_id)
    ch = ctx.state.channels[msg.channel_id]
    require_writable(ctx, ch, "message_id")
    require_live(msg)
    if msg.pinned_by:
        raise Conflict(f"message '{msg.id}' is already pinned in {channel_label(ctx, ch)}", "message_id")
    msg.pinned_by, msg.pinned_at = me(ctx), ctx.now
    return {"id": msg.id, "channel_id": ch.id, "channel": channel_label(ctx, ch), "pinned": True}


@app.action(read_only=False)
def unpin_message(ctx: Context[SlackState], message_id: str) -> dict[str, Any]:
    """Unpin a pinned message; the message itself stays.

    Example:
        message_id="msg_0123" -> {"id": "msg_0123", "pinned": false}.

    Args:
        message_id: The id of the pinned message.

    Returns:
        {"id", "channel_id", "channel", "pinned": false}.
    """
    msg = find_message(ctx, message_id)
    ch = ctx.state.channels[msg.channel_id]
    if not msg.pinned_by:
        raise Conflict(f"message '{msg.id}' is not pinned; see slack list-pins", "message_id")
    require_writable(ctx, ch, "message_id")
    msg.pinned_by, msg.pinned_at = "", None
    return {"id": msg.id, "channel_id": ch.id, "channel": channel_label(ctx, ch), "pinned": False}


@app.action(read_only=True)
def list_pins(ctx: Context[SlackState], channel: str) -> dict[str, Any]:
    """List a channel's pinned messages, most recently pinned first.

    Example:
        channel="#atlas-cutover" -> [{"message": {...the runbook post...}, "pinned_by": ..., "pinned_at": ...}].

    Args:
        channel: The channel's name (#ops or ops), its id, or @person for your DM with them.

    Returns:
        {"channel": {"id", "name"}, "pins": [{"message", "pinned_by", "pinned_at"}]}.
    """
    ch = find_channel(ctx, channel)
    pinned = [m for m in ctx.state.messages.values() if m.channel_id == ch.id and m.pinned_by]
    pinned.sort(key=lambda m: (m.pinned_at or m.ts, m.id), reverse=True)
    return {"channel": channel_ref(ctx, ch), "pins": [pin_view(ctx, m) for m in pinned]}
