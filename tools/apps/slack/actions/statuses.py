"""Chat actions on statuses: read a colleague's status and local time, set or clear your own."""

from __future__ import annotations

from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import Field

from tools.apps.slack._rules import me, person, person_card, person_name, status_emoji, time_bound
from tools.apps.slack._views import status_view
from tools.apps.slack.app import app
from tools.apps.slack.state import SlackState, Status
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context, format_instant

__all__ = ["get_user_status", "set_my_status"]


@app.action(read_only=True)
def get_user_status(ctx: Context[SlackState], user: str) -> dict[str, Any]:
    """Show a colleague's status (e.g. out of office, on call) with their title and local time.

    Example:
        user="Mia Thompson" -> {"status_text": ..., "status_emoji": ":pager:", "local_time": ...}.

    Args:
        user: The colleague's email address, @first.last id or full name.

    Returns:
        {"email", "name", "title", "status_text", "status_emoji", "status_expires", "timezone", "local_time"}.
    """
    email, name = person(ctx, user, "user")
    out = status_view(ctx, email, name)
    card = person_card(ctx, email)
    tz_name = card.timezone if card else ctx.world.timezone
    out.update(
        title=card.title if card else "",
        timezone=tz_name,
        local_time=format_instant(ctx.now, ZoneInfo(tz_name)),
    )
    return out


@app.action(read_only=False)
def set_my_status(
    ctx: Context[SlackState],
    text: Annotated[str, Field(max_length=100)] = "",
    emoji: str = "",
    expires: str = "",
    clear: bool = False,
) -> dict[str, Any]:
    """Set your own status text and emoji, optionally clearing itself at a given time; or clear it.

    A status with text but no emoji gets :speech_balloon:.

    Example:
        text="Out sick" emoji=":face_with_thermometer:" expires="2026-03-10" -> your new status.

    Args:
        text: Status text, e.g. "Out sick" or "In Chicago until Thursday".
        emoji: Emoji name with or without colons, e.g. ":palm_tree:" or "palm_tree".
        expires: When the status clears itself: ISO 8601 date-time (a date alone means the end of that day).
        clear: True to clear your status (give nothing else).

    Returns:
        {"email", "name", "status_text", "status_emoji", "status_expires"}.
    """
    mine = me(ctx)
    pid = mine.split("@")[0]
    if clear:
        if text or emoji or expires:
            raise InvalidArgument("clear=true takes no text, emoji or expires", "clear")
        rec = ctx.state.statuses.get(pid)
        if rec is not None and (rec.text or rec.emoji or rec.expires):
            rec.text, rec.emoji, rec.expires = "", "", None
        return status_view(ctx, mine, person_name(ctx, mine))
    if not text.strip() and not emoji.strip():
        raise InvalidArgument("give a status text and/or an emoji, or clear=true to remove your status", "text")
    face = status_emoji(emoji) if emoji.strip() else ":speech_balloon:"
    until = time_bound(ctx, expires, "expires", end=True)
    if until is not None and until <= ctx.now:
        raise InvalidArgument(f"expires must be in the future (now is {format_instant(ctx.now, ctx.tz)})", "expires")
    rec = ctx.state.statuses.get(pid)
    if rec is None:
        ctx.state.statuses[pid] = Status(id=pid, email=mine, text=text.strip(), emoji=face, expires=until)
    else:
        rec.text, rec.emoji, rec.expires = text.strip(), face, until
    return status_view(ctx, mine, person_name(ctx, mine))
