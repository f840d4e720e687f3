"""The calendar's records: events (one-off, series and changed occurrences), attendees and meeting rooms."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from tools.kernel.world import AppState, Record

__all__ = ["Attendee", "CalendarState", "Event", "Recurrence", "RemovedAttendee", "Response", "Room"]

#: An attendee's answer to an invitation.
Response = Literal["needsAction", "accepted", "declined", "tentative"]
#: How a series repeats; ``""`` for a one-off event.
Recurrence = Literal["", "daily", "weekly", "weekdays", "monthly"]


class Attendee(Record):
    """One person (or booked room) invited to an event, with their answer."""

    email: str
    response: Response = "needsAction"
    comment: str = ""
    resource: bool = False  # True for a booked room


class RemovedAttendee(Record):
    """A guest taken off an event's list: the answer they had given, and when and by whom they were removed."""

    email: str
    response: Response = "needsAction"
    removed_at: datetime
    removed_by: str


class Event(Record):
    """One calendar event, a repeating series, or one changed occurrence of a series.

    The organizer is also listed among the attendees. A series repeats by ``recurrence``;
    an occurrence changed on its own is stored under its occurrence id with ``series_id``
    and ``original_start`` (the start it had in the series).
    """

    id: str
    title: str
    start: datetime
    end: datetime
    location: str = ""
    description: str = ""
    organizer: str
    attendees: list[Attendee] = []
    removed_attendees: list[RemovedAttendee] = []  # the event's change record keeps every guest removed, oldest first
    room: str = ""  # id of the booked room
    time_zone: str = ""  # IANA zone the event was planned in; "" for the company's
    recurrence: Recurrence = ""
    recurrence_count: int = 0
    recurrence_until: date | None = None
    cancelled_dates: list[date] = []
    series_id: str = ""
    original_start: datetime | None = None


class Room(Record):
    """A meeting room that events can book."""

    id: str
    name: str
    email: str
    office: str
    floor: int
    capacity: int
    features: list[str] = []
    notes: str = ""


class CalendarState(AppState):
    """Every event and meeting room in the company, keyed by id."""

    events: dict[str, Event] = {}
    rooms: dict[str, Room] = {}
