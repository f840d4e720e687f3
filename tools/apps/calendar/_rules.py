"""Lookups and rules the calendar's actions share: time zones, windows, addresses, ids, series, rooms, free time."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tools.apps.calendar._recurrence import (
    Instance,
    all_instances,
    describe,
    event_zone,
    exceptions_of,
    instances,
    materialize,
    occurrence_date,
    series_last,
    split_id,
)
from tools.apps.calendar.state import Attendee, CalendarState, Event, Room
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant, matching, parse_date, parse_instant
from tools.kits.people import directory_of, known_emails
from tools.kits.text import fold

__all__ = [
    "FREE_WINDOW_DAYS",
    "WORKING_HOURS",
    "Instance",
    "Scope",
    "all_instances",
    "attendee",
    "check_emails",
    "check_room",
    "check_rule",
    "check_times",
    "colleague_zones",
    "describe",
    "event_zone",
    "exceptions_of",
    "find",
    "find_room",
    "free_slots",
    "materialize",
    "occurrence_date",
    "off_hours",
    "on_calendar",
    "organizer_only",
    "parse_window",
    "set_room",
    "whole_series",
    "zone",
]

#: Which occurrences of a series a change or an answer covers: the one named, or all of them.
Scope = Literal["this", "all"]

_EMAIL_RE = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$")


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


#: Longest window a calendar read covers: a year, leap day included. Repeating events are expanded into
#: their occurrences inside the window, so an unbounded window lets one call run for minutes.
_MAX_WINDOW = timedelta(days=366)


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
            :data:`_MAX_WINDOW`.
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
    if hi - lo > _MAX_WINDOW:
        raise InvalidArgument(
            f"the window from {format_instant(lo, tz)} to {format_instant(hi, tz)} is longer than "
            f"{_MAX_WINDOW.days} days; look at one year or less at a time",
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
    known = known_emails(ctx)
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


# --- events -------------------------------------------------------------------------------------


def on_calendar(event: Event, user: str) -> bool:
    """Whether ``event`` is on ``user``'s calendar: they organize it or are invited."""
    return event.organizer == user or attendee(event, user) is not None


def check_times(start: datetime, end: datetime, tz: ZoneInfo) -> None:
    """Refuse an end that is not after the start (times shown in ``tz``).

    Raises:
        InvalidArgument: ``end`` is at or before ``start``.
    """
    if end <= start:
        shown = f"end ({format_instant(end, tz)}) must be after start ({format_instant(start, tz)})"
        raise InvalidArgument(shown, "end")


#: The longest an event of each repeat rule may last, so that its occurrences never overlap.
_STEP = {"daily": timedelta(days=1), "weekdays": timedelta(days=1), "weekly": timedelta(days=7)}
_STEP["monthly"] = timedelta(days=28)


def check_rule(
    recurrence: str, count: int, until_text: str, start: datetime, end: datetime, tz: ZoneInfo
) -> tuple[int, date | None]:
    """Check a repeat rule against the first occurrence.

    Args:
        recurrence: The repeat rule; ``""`` for a one-off event.
        count: Number of occurrences in all (0: not limited by a count).
        until_text: Last date an occurrence may fall on, YYYY-MM-DD, or ``""``.
        start: When the first occurrence starts.
        end: When the first occurrence ends.
        tz: The zone the series keeps its wall-clock time in.

    Returns:
        The series' ``(recurrence_count, recurrence_until)``.

    Raises:
        InvalidArgument: A count or end date without a rule, both given, an end date before the first
            occurrence, a weekdays series starting on a weekend, or an event as long as its repeat interval.
    """
    if not recurrence:
        if count or until_text.strip():
            raise InvalidArgument(
                "recurrence_count and recurrence_until need a recurrence: daily, weekly, weekdays or monthly",
                "recurrence",
            )
        return 0, None
    if count and until_text.strip():
        raise InvalidArgument("give recurrence_count or recurrence_until, not both", "recurrence_until")
    first = start.astimezone(tz).date()
    until = parse_date(until_text, "recurrence_until") if until_text.strip() else None
    if until is not None and until < first:
        raise InvalidArgument(
            f"recurrence_until ({until.isoformat()}) is before the first occurrence ({first.isoformat()})",
            "recurrence_until",
        )
    if recurrence == "weekdays" and first.weekday() >= 5:
        raise InvalidArgument("a weekdays series must start on a Monday to Friday; move start", "start")
    if end - start >= _STEP[recurrence]:
        raise InvalidArgument(f"an event that repeats {recurrence} must be shorter than its repeat interval", "end")
    return count, until


def organizer_only(ctx: Context[CalendarState], event: Event, verb: Literal["change", "cancel"]) -> None:
    """Refuse a change (or a cancellation) of ``event`` by anyone but its organizer.

    Raises:
        Conflict: The acting user does not organize ``event``; the message says what they can do instead.
    """
    if event.organizer == ctx.user:
        return
    if verb == "cancel":
        raise Conflict(
            f"only the organizer ({event.organizer}) can cancel '{event.title}'; to take it off your calendar, "
            "use calendar respond-to-event with response=declined",
            "event_id",
        )
    raise Conflict(
        f"only the organizer ({event.organizer}) can change '{event.title}'; ask them to make the change, "
        "or answer the invitation with calendar respond-to-event",
        "event_id",
    )


# --- ids and series -----------------------------------------------------------------------------


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


def whole_series(ctx: Context[CalendarState], target: Instance, scope: Scope) -> Event | None:
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


# --- rooms --------------------------------------------------------------------------------------


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
        others = matching(ctx.state.events, lambda o: o.room == room.id and o.id not in skip)  # noqa: B023 (run now)
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


# --- free time ----------------------------------------------------------------------------------

#: Working hours used to suggest meeting times, in the company's time zone, Monday to Friday.
_DAY_START, _DAY_END = time(9, 0), time(17, 0)
#: The working hours in words, as find-free-slots shows them (before the zone's name).
WORKING_HOURS = "09:00-17:00 Monday to Friday"
_GRID_MINUTES = 15
#: Longest window find-free-slots searches (days).
FREE_WINDOW_DAYS = 31


def off_hours(zones: list[ZoneInfo], lo: datetime, hi: datetime) -> list[tuple[datetime, datetime]]:
    """The times outside working hours in each of ``zones`` between ``lo`` and ``hi``: nights and weekends.

    A colleague in another office is as busy at their night as in a meeting, so find-free-slots counts
    these spans as busy for them.

    Returns:
        (start, end) spans, aware, in each zone's own clock.
    """
    spans: list[tuple[datetime, datetime]] = []
    for zone in zones:
        day = lo.astimezone(zone).date() - timedelta(days=1)
        while day <= hi.astimezone(zone).date() + timedelta(days=1):
            midnight = datetime.combine(day, time(0), tzinfo=zone)
            following = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone)
            if day.weekday() >= 5:
                spans.append((midnight, following))
            else:
                spans.append((midnight, datetime.combine(day, _DAY_START, tzinfo=zone)))
                spans.append((datetime.combine(day, _DAY_END, tzinfo=zone), following))
            day += timedelta(days=1)
    return spans


def colleague_zones(ctx: Context[CalendarState], emails: list[str]) -> list[ZoneInfo]:
    """The time zones, other than the company's, of the people with ``emails`` (sorted; unknown zones skipped)."""
    directory = directory_of(ctx)
    if directory is None:
        return []
    wanted = {e.lower() for e in emails}
    names = sorted({p.timezone for p in directory.people.values() if p.email.lower() in wanted})
    zones = []
    for name in names:
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        if zone.key != getattr(ctx.tz, "key", None):
            zones.append(zone)
    return zones


def free_slots(
    busy: list[tuple[datetime, datetime]],
    lo: datetime,
    hi: datetime,
    tz: ZoneInfo,
    length: timedelta,
    max_results: int,
) -> list[tuple[datetime, datetime]]:
    """The first free slots of ``length`` within [lo, hi) and working hours, earliest first.

    Slots start on the quarter hour, do not overlap and clash with no busy time.

    Args:
        busy: The (start, end) of every time someone who must be free is busy.
        lo: Beginning of the search window.
        hi: End of the search window.
        tz: The zone whose working hours count.
        length: How long each slot lasts.
        max_results: Most slots to return.

    Returns:
        Up to ``max_results`` (start, end) pairs.
    """
    slots: list[tuple[datetime, datetime]] = []
    day = lo.astimezone(tz).date()
    while day <= hi.astimezone(tz).date() and len(slots) < max_results:
        if day.weekday() < 5:
            open_from = max(datetime.combine(day, _DAY_START, tzinfo=tz), lo)
            open_to = min(datetime.combine(day, _DAY_END, tzinfo=tz), hi)
            cursor = _round_up(open_from.astimezone(tz))
            while cursor + length <= open_to and len(slots) < max_results:
                clash = next((b_end for b_start, b_end in busy if b_start < cursor + length and b_end > cursor), None)
                if clash is None:
                    slots.append((cursor, cursor + length))
                    cursor += length
                else:
                    cursor = _round_up(max(clash.astimezone(tz), cursor))
        day += timedelta(days=1)
    return slots


def _round_up(moment: datetime) -> datetime:
    """The first quarter hour at or after ``moment`` (seconds dropped)."""
    base = moment.replace(second=0, microsecond=0)
    if base < moment:
        base += timedelta(minutes=1)
    extra = -base.minute % _GRID_MINUTES
    return base + timedelta(minutes=extra)
