"""The calendar's records and the helpers its actions share: time zones, addresses, occurrences and views.

:mod:`tools.calendar` declares the app and its actions; the records live here so that the
room actions (:mod:`tools.calendar_rooms`) can share them without importing the app module.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tools.apps.calendar._recurrence import describe, occurrence_id, series_days, split_id
from tools.kernel.exceptions import InvalidArgument, NotFound
from tools.kernel.world import AppState, Context, Record, format_instant, parse_instant
from tools.kits.people import DirectoryState

__all__ = [
    "Attendee",
    "CalendarState",
    "Event",
    "Instance",
    "Recurrence",
    "Room",
    "all_instances",
    "attendee",
    "check_emails",
    "event_view",
    "event_zone",
    "exceptions_of",
    "find",
    "instances",
    "materialize",
    "occurrence_date",
    "parse_window",
    "series_last",
    "whole_series",
    "zone",
]

Response = Literal["needsAction", "accepted", "declined", "tentative"]
Recurrence = Literal["", "daily", "weekly", "weekdays", "monthly"]

_EMAIL_RE = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$")
#: How far ahead an endless series is checked for room clashes (days).
HORIZON_DAYS = 366


class Attendee(Record):
    """One person (or booked room) invited to an event, with their answer."""

    email: str
    response: Response = "needsAction"
    comment: str = ""
    resource: bool = False  # True for a booked room


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


# --- time zones and windows ---------------------------------------------------------------------


def zone(ctx: Context[CalendarState], name: str, parameter: str = "time_zone") -> ZoneInfo:
    """The zone named ``name`` (the company's when empty).

    Raises:
        InvalidArgument: Not an IANA time zone name.
    """
    text = name.strip()
    if not text:
        return ctx.tz
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidArgument(
            f"'{name}' is not a time zone name; use an IANA name such as America/New_York, America/Chicago, "
            "Europe/London or UTC",
            parameter,
        ) from None


def event_zone(ctx: Context[CalendarState], e: Event) -> ZoneInfo:
    """The zone a series keeps its wall-clock time in."""
    return ZoneInfo(e.time_zone) if e.time_zone else ctx.tz


#: Longest window a calendar read covers: a year, leap day included. Repeating events are expanded into
#: their occurrences inside the window, so an unbounded window lets one call run for minutes.
MAX_WINDOW = timedelta(days=366)


def parse_window(
    ctx: Context[CalendarState],
    start: str,
    end: str,
    tz: ZoneInfo,
    default: timedelta | None,
    *,
    from_now: bool = False,
) -> tuple[datetime, datetime]:
    """Parse an optional [start, end) window; times without an offset are read in ``tz``.

    ``default`` is the length when no end is given (None: up to the end of the fifth working day);
    ``from_now`` moves a start in the past up to now.

    Raises:
        InvalidArgument: a time is not ISO 8601, end is not after start, or the window is longer than
            :data:`MAX_WINDOW`.
    """
    lo = parse_instant(start, tz, "start") if start.strip() else ctx.now
    note = ""
    if from_now and lo < ctx.now:
        lo, note = ctx.now, " (times before now are never offered)"
    if end.strip():
        hi = parse_instant(end, tz, "end")
    elif default is not None:
        hi = lo + default
    else:
        hi = _after_working_days(lo.astimezone(tz).date(), 5, tz)
    if hi <= lo:
        raise InvalidArgument(
            f"end ({format_instant(hi, tz)}) must be after start ({format_instant(lo, tz)}){note}", "end"
        )
    if hi - lo > MAX_WINDOW:
        raise InvalidArgument(
            f"the window from {format_instant(lo, tz)} to {format_instant(hi, tz)} is longer than "
            f"{MAX_WINDOW.days} days; look at one year or less at a time",
            "end",
        )
    return lo, hi


def _after_working_days(day: date, count: int, tz: ZoneInfo) -> datetime:
    """Midnight after the ``count``-th weekday counted from ``day`` (``day`` included when a weekday)."""
    seen = 0
    while True:
        if day.weekday() < 5:
            seen += 1
            if seen == count:
                return datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz)
        day += timedelta(days=1)


# --- people -------------------------------------------------------------------------------------


def check_emails(
    ctx: Context[CalendarState], values: list[str], parameter: str, *, internal_only: bool = False
) -> list[str]:
    """Normalise a list of addresses; internal ones must be in the directory (when there is one).

    Raises:
        InvalidArgument: An entry is not an email address, is a room's address, or is external while
            ``internal_only``.
        NotFound: An internal address is not in the directory.
    """
    domain = ctx.user.rsplit("@", 1)[1]
    directory = ctx.other("directory")
    known = {p.email.lower() for p in directory.people.values()} if isinstance(directory, DirectoryState) else None
    rooms = {r.email: r.name for r in ctx.state.rooms.values()}
    out: list[str] = []
    for raw in values:
        email = raw.strip().lower()
        if not _EMAIL_RE.match(email):
            raise InvalidArgument(
                f"'{raw}' is not an email address; give addresses such as priya.shah@{domain} "
                "(directory search-people finds them)",
                parameter,
            )
        if email in rooms:
            raise InvalidArgument(f"'{raw}' is the {rooms[email]}; book a room with the room parameter", parameter)
        internal = email.endswith("@" + domain)
        if internal_only and not internal:
            raise InvalidArgument(
                f"free/busy times are only known for people at {domain}; leave '{raw}' out and ask them directly",
                parameter,
            )
        if internal and known is not None and email not in known:
            raise NotFound(
                f"no one at {domain} has the address '{raw}'; use directory search-people to find the right email",
                parameter,
            )
        if email not in out:
            out.append(email)
    return out


def attendee(event: Event, email: str) -> Attendee | None:
    """The attendee entry of ``email`` on ``event``, if any."""
    return next((a for a in event.attendees if a.email == email), None)


# --- occurrences --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """One time an event happens: a one-off event, a stored changed occurrence, or a series' occurrence.

    Attributes:
        id: The id callers use (``evt_n3`` or ``evt_n3@2026-03-16``).
        event: The stored record (for a series' occurrence, the series).
        start: When this time starts.
        end: When this time ends.
    """

    id: str
    event: Event
    start: datetime
    end: datetime

    @property
    def virtual(self) -> bool:
        """True for a series' occurrence that has no record of its own."""
        return self.id != self.event.id

    @property
    def series_id(self) -> str:
        """The series this time belongs to, or ``""``."""
        return self.event.id if self.virtual else self.event.series_id


def instances(ctx: Context[CalendarState], e: Event, lo: datetime, hi: datetime) -> Iterator[Instance]:
    """Every time ``e`` happens that overlaps [lo, hi), earliest first."""
    if not e.recurrence:
        if e.start < hi and e.end > lo:
            yield Instance(e.id, e, e.start, e.end)
        return
    tz = event_zone(ctx, e)
    local = e.start.astimezone(tz)
    length = e.end - e.start
    first_day = max(local.date(), (lo - length).astimezone(tz).date() - timedelta(days=1))
    for day in series_days(
        local.date(), e.recurrence, e.recurrence_count, e.recurrence_until, hi.astimezone(tz).date()
    ):
        if day < first_day or day in e.cancelled_dates:
            continue
        oid = occurrence_id(e.id, day)
        if oid in ctx.state.events:  # changed on its own: listed as its own record
            continue
        start = datetime.combine(day, local.time(), tzinfo=tz)
        if start < hi and start + length > lo:
            yield Instance(oid, e, start, start + length)


def all_instances(ctx: Context[CalendarState], lo: datetime, hi: datetime) -> list[Instance]:
    """Every time any event happens within [lo, hi), sorted by start, end and id."""
    found = [i for e in ctx.state.events.values() for i in instances(ctx, e, lo, hi)]
    found.sort(key=lambda i: (i.start, i.end, i.id))
    return found


def series_last(ctx: Context[CalendarState], e: Event) -> datetime:
    """When a series' last occurrence ends (a year past its start for an endless series)."""
    tz = event_zone(ctx, e)
    local = e.start.astimezone(tz)
    cap = local.date() + timedelta(days=HORIZON_DAYS)
    days = list(series_days(local.date(), e.recurrence, e.recurrence_count, e.recurrence_until, cap))
    last = days[-1] if days else local.date()
    return datetime.combine(last, local.time(), tzinfo=tz) + (e.end - e.start)


def find(ctx: Context[CalendarState], event_id: str, parameter: str = "event_id") -> Instance:
    """The event, series or occurrence an id names.

    Raises:
        NotFound: No such event, or the series has no occurrence on that date.
    """
    key = event_id.strip()
    state = ctx.state
    if key in state.events:
        e = state.events[key]
        return Instance(e.id, e, e.start, e.end)
    base, day = split_id(key)
    series = state.events.get(base)
    if series is None:
        raise NotFound(f"no event with id '{event_id}'; use calendar list-events to find ids", parameter)
    if day is None or not series.recurrence:
        raise NotFound(f"'{event_id}' is not an event id; '{base}' does not repeat, so use its id as it is", parameter)
    tz = event_zone(ctx, series)
    lo = datetime.combine(day, time(0), tzinfo=tz)
    hit = next((i for i in instances(ctx, series, lo, lo + timedelta(days=1)) if i.id == key), None)
    if hit is None:
        raise NotFound(
            f"the series '{series.title}' has no occurrence on {day.isoformat()} (it repeats "
            f"{describe(series, series.start.astimezone(tz).date())}); use calendar list-events to find occurrence ids",
            parameter,
        )
    return hit


# --- series -------------------------------------------------------------------------------------


def whole_series(ctx: Context[CalendarState], target: Instance, scope: str) -> Event | None:
    """The series a request changes as a whole (scope "all"), or None when it changes one event or occurrence.

    Raises:
        InvalidArgument: scope "this" with the id of a whole series.
    """
    e = target.event
    if e.recurrence and not target.virtual and scope == "this":
        raise InvalidArgument(
            f"'{e.id}' is a whole repeating series; give one occurrence's id such as {e.id}@"
            f"{e.start.astimezone(event_zone(ctx, e)).date().isoformat()} (list-events shows them), "
            "or scope=all to change every occurrence",
            "scope",
        )
    if scope != "all":
        return None
    if e.recurrence:
        return e
    return ctx.state.events.get(e.series_id) if e.series_id else None


def exceptions_of(ctx: Context[CalendarState], series: Event) -> list[Event]:
    """The occurrences of ``series`` that were changed on their own (each a record of its own)."""
    return [x for x in ctx.state.events.values() if x.series_id == series.id]


def materialize(target: Instance) -> Event:
    """A record of its own for one occurrence of a series, ready to be changed."""
    if not target.virtual:
        return target.event.model_copy(deep=True)
    return target.event.model_copy(
        deep=True,
        update={
            "id": target.id,
            "start": target.start,
            "end": target.end,
            "recurrence": "",
            "recurrence_count": 0,
            "recurrence_until": None,
            "cancelled_dates": [],
            "series_id": target.event.id,
            "original_start": target.start,
        },
    )


def occurrence_date(ctx: Context[CalendarState], target: Instance) -> date:
    """The date an occurrence has in its series (its id's date)."""
    _, day = split_id(target.id)
    if day is not None:
        return day
    series = ctx.state.events[target.event.series_id]
    return (target.event.original_start or target.start).astimezone(event_zone(ctx, series)).date()


# --- views --------------------------------------------------------------------------------------


def event_view(ctx: Context[CalendarState], i: Instance, tz: ZoneInfo, *, full: bool = False) -> dict[str, Any]:
    """An event (or occurrence) as list-events shows it; with ``full``, as get-event shows it."""
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
        if e.recurrence and not i.virtual:
            out["recurrence"] = e.recurrence
            out["recurrence_count"] = e.recurrence_count
            out["recurrence_until"] = e.recurrence_until.isoformat() if e.recurrence_until else ""
            out["cancelled_dates"] = [d.isoformat() for d in e.cancelled_dates]
    return out
