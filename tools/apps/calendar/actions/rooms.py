"""Meeting rooms: finding them, booking them on events, and which are free when.

A booked room appears on its event as ``room`` (the room's id) and as an attendee with
``resource: true`` that has accepted. A room holds one event at a time, and an event
in a room may not invite more people than the room seats. ``list_rooms`` and
``find_available_rooms`` are declared as actions by :mod:`tools.calendar`.
"""

# ruff: noqa: D417  (an action's first parameter is the context, which callers never pass)

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.calendar._rules import (
    Attendee,
    CalendarState,
    Event,
    Room,
    all_instances,
    instances,
    parse_window,
    series_last,
    zone,
)
from tools.kernel.exceptions import Conflict, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.text import fold

__all__ = ["check_room", "find_available_rooms", "find_room", "list_rooms", "set_room"]


def find_room(ctx: Context[CalendarState], name: str, parameter: str = "room") -> Room:
    """A room by id, name ("Room 4B", "4B", "hudson room") or address.

    Raises:
        NotFound: No such room (the message lists them).
    """
    key = fold(name)
    for room in ctx.state.rooms.values():
        short = fold(room.name.removeprefix("Room "))
        if key in (room.id.lower(), fold(room.name), short, room.email.lower()):
            return room
    listing = ", ".join(sorted(r.name for r in ctx.state.rooms.values()))
    raise NotFound(f"there is no room '{name}'; rooms: {listing} (calendar list-rooms shows them)", parameter)


def _card(room: Room) -> dict[str, Any]:
    return room.model_dump()


def set_room(event: Event, room: Room | None, old: Room | None) -> None:
    """Put ``room`` on ``event`` (None takes the room off), keeping the attendee list and location in step."""
    people = [a for a in event.attendees if not a.resource]
    if room is None:
        event.room = ""
        event.attendees = people
        if old is not None and event.location == old.name:
            event.location = ""
        return
    event.room = room.id
    event.attendees = [*people, Attendee(email=room.email, response="accepted", resource=True)]
    if not event.location or (old is not None and event.location == old.name):
        event.location = room.name


def check_room(ctx: Context[CalendarState], changed: list[Event], replacing: set[str], parameter: str = "room") -> None:
    """Refuse when a changed event's room is too small or already taken while it happens.

    Args:
        ctx: The action's context.
        changed: The events as they would be stored (new or changed copies); only those with a room are checked.
        replacing: Ids of stored records and occurrences these copies replace (they do not count as taken).
        parameter: Parameter to name in the error.

    Raises:
        Conflict: The room seats fewer people than are invited, or another event holds it.
    """
    skip = replacing | {e.id for e in changed}
    for cand in changed:
        room = ctx.state.rooms.get(cand.room)
        if room is None:
            continue
        people = sum(1 for a in cand.attendees if not a.resource)
        if people > room.capacity:
            raise Conflict(
                f"{room.name} seats {room.capacity} but {people} people are invited; pick a larger room "
                f"(calendar find-available-rooms with min_capacity={people})",
                parameter,
            )
        hi = series_last(ctx, cand) if cand.recurrence else cand.end
        others = [o for o in ctx.state.events.values() if o.room == room.id and o.id not in skip]
        busy = [(i, o) for o in others for i in instances(ctx, o, cand.start, hi) if i.id not in skip]
        for mine in instances(ctx, cand, cand.start, hi):
            clash = next(((i, o) for i, o in busy if i.start < mine.end and i.end > mine.start), None)
            if clash is not None:
                taken, other = clash
                raise Conflict(
                    f"{room.name} is taken from {format_instant(taken.start, ctx.tz)} to "
                    f"{format_instant(taken.end, ctx.tz)} by '{other.title}'; pick another time or room "
                    "(calendar find-available-rooms lists free ones)",
                    parameter,
                )


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
    return {"rooms": [_card(r) for r in rooms]}


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
        "window": {"start": format_instant(lo, tz), "end": format_instant(hi, tz)},
        "rooms": [_card(r) for r in rooms],
    }
