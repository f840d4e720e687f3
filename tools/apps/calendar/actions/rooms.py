"""Calendar actions about meeting rooms: list them, and find the ones free for a whole window.

A booked room appears on its event as ``room`` (the room's id) and as an attendee with
``resource: true`` that has accepted. A room holds one event at a time, and an event
in a room may not invite more people than the room seats; the booking rules live in ``_rules``.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.calendar._rules import all_instances, parse_window, zone
from tools.apps.calendar._views import room_card, span
from tools.apps.calendar.app import app
from tools.apps.calendar.state import CalendarState
from tools.kernel.world import Context
from tools.kits.text import fold

__all__ = ["find_available_rooms", "list_rooms"]


@app.action(read_only=True)
def list_rooms(
    ctx: Context[CalendarState],
    office: str = "",
    min_capacity: Annotated[int, Field(ge=0, le=500)] = 0,
) -> dict[str, Any]:
    """List the meeting rooms you can book, with their size, floor and equipment.

    Example:
        office="New York" min_capacity=10 -> Room 4B, Harbor Room, Hudson Room, Boardroom and Main Hall.

    Args:
        office: Part of an office name: "New York", "Chicago" or "San Francisco".
        min_capacity: Only rooms seating at least this many people (0: any size).

    Returns:
        {"rooms": [{"id", "name", "email", "office", "floor", "capacity", "features", "notes"}]} sorted by office,
        then capacity, then name.
    """
    want = fold(office)
    rooms = [r for r in ctx.state.rooms.values() if want in fold(r.office) and r.capacity >= min_capacity]
    rooms.sort(key=lambda r: (r.office, r.capacity, r.name))
    return {"rooms": [room_card(r) for r in rooms]}


@app.action(read_only=True)
def find_available_rooms(
    ctx: Context[CalendarState],
    start: str,
    end: str,
    min_capacity: Annotated[int, Field(ge=0, le=500)] = 0,
    office: str = "",
    feature: str = "",
    time_zone: str = "",
) -> dict[str, Any]:
    """Find the rooms that are free for a whole time window, smallest fitting room first.

    Example:
        start="2026-03-17T14:00" end="2026-03-17T15:00" min_capacity=8 office="New York" feature="video"
        -> the New York rooms seating 8 or more with video that nobody holds then.

    Args:
        start: Beginning of the window, ISO 8601 such as 2026-03-17T14:00.
        end: End of the window, ISO 8601; must be after start.
        min_capacity: Only rooms seating at least this many people (0: any size).
        office: Part of an office name: "New York", "Chicago" or "San Francisco".
        feature: Part of a feature the room must have, e.g. "video" or "whiteboard".
        time_zone: IANA time zone for times without an offset and for the answer, e.g. America/Chicago.
            Defaults to the company's.

    Returns:
        {"window": {"start", "end"}, "rooms": [room as list-rooms shows it]}.
    """
    tz = zone(ctx, time_zone)
    lo, hi = parse_window(ctx, start, end, tz, None)
    taken = {i.event.room for i in all_instances(ctx, lo, hi) if i.event.room}
    want_office, want_feature = fold(office), fold(feature)
    rooms = [
        r
        for r in ctx.state.rooms.values()
        if r.id not in taken
        and r.capacity >= min_capacity
        and want_office in fold(r.office)
        and (not want_feature or any(want_feature in fold(f) for f in r.features))
    ]
    rooms.sort(key=lambda r: (r.capacity, r.office, r.name))
    return {
        "window": span(lo, hi, tz),
        "rooms": [room_card(r) for r in rooms],
    }
