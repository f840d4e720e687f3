"""Chat actions on reactions: react to a message with an emoji, take your reaction back."""

from __future__ import annotations

from typing import Any

from tools.apps.slack._rules import (
    find_message,
    me,
    reaction_name,
    require_live,
    require_writable,
)
from tools.apps.slack._views import message_view
from tools.apps.slack.app import app
from tools.apps.slack.state import Reaction, SlackState
from tools.kernel.exceptions import Conflict
from tools.kernel.world import Context

__all__ = ["add_reaction", "remove_reaction"]


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
    require_live(msg)
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
