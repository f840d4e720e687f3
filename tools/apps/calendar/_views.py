"""The JSON shapes the calendar's actions return: events, rooms and time spans."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tools.apps.calendar._rules import Instance, attendee, describe, event_zone
from tools.apps.calendar.state import CalendarState, Event, Room
from tools.kernel.world import Context, format_instant

__all__ = ["event_view", "record_view", "room_card", "span"]


def event_view(ctx: Context[CalendarState], i: Instance, tz: ZoneInfo, *, full: bool = False) -> dict[str, Any]:
    """An event (or occurrence) as list-events shows it; with ``full``, as get-event shows it.

    Args:
        ctx: The action's context (for the acting user and the rooms).
        i: The event, series or occurrence to show.
        tz: The zone to show times in.
        full: Add the description, every attendee field, the time zone and a series' rule.
    """
    e = i.event
    mine = attendee(e, ctx.user)
    room = ctx.state.rooms.get(e.room)
    out: dict[str, Any] = {
        "id": i.id,
        "title": e.title,
        "start": format_instant(i.start, tz),
        "end": format_instant(i.end, tz),
        "location": e.location,
        "room": room.name if room else "",
        "organizer": e.organizer,
        "attendees": [{"email": a.email, "response": a.response} for a in e.attendees],
        "my_response": mine.response if mine else None,
        "series_id": i.series_id,
        "repeats": describe(e, e.start.astimezone(event_zone(ctx, e)).date()),
    }
    if full:
        out["description"] = e.description
        out["attendees"] = [a.model_dump() for a in e.attendees]
        out["time_zone"] = e.time_zone or ctx.world.timezone
        if e.removed_attendees:  # the change record: guests taken off the list, oldest first
            out["removed_attendees"] = [
                {"email": r.email, "response": r.response, "removed_at": format_instant(r.removed_at, tz),
                 "removed_by": r.removed_by}
                for r in e.removed_attendees
            ]  # fmt: skip
        if e.recurrence and not i.virtual:
            out["recurrence"] = e.recurrence
            out["recurrence_count"] = e.recurrence_count
            out["recurrence_until"] = e.recurrence_until.isoformat() if e.recurrence_until else ""
            out["cancelled_dates"] = [d.isoformat() for d in e.cancelled_dates]
    return out


def room_card(room: Room) -> dict[str, Any]:
    """A meeting room as list-rooms shows it: every field of the record."""
    return room.model_dump()


def span(start: datetime, end: datetime, tz: ZoneInfo) -> dict[str, str]:
    """A time span (a search window or a free slot) as ``{"start", "end"}``, shown in ``tz``."""
    return {"start": format_instant(start, tz), "end": format_instant(end, tz)}


def record_view(ctx: Context[CalendarState], e: Event, tz: ZoneInfo) -> dict[str, Any]:
    """A stored record (event, series or changed occurrence) in full, as get-event shows it."""
    return event_view(ctx, Instance(e.id, e, e.start, e.end), tz, full=True)
