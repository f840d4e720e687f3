"""Repeating events: the dates a rule produces, occurrence ids, each time an event happens, and the rule in words.

A series is one stored event whose ``recurrence`` is ``daily``, ``weekly`` (same weekday),
``weekdays`` (Monday to Friday) or ``monthly`` (same day of the month; months without that
day are skipped). It ends after ``recurrence_count`` occurrences, on ``recurrence_until``
(that day included), or never. Each occurrence keeps the series' wall-clock time in the
series' time zone, so a 09:00 meeting stays at 09:00 across daylight-saving changes.

An occurrence is named ``<series id>@<YYYY-MM-DD>`` after the date it has in the series.
An occurrence changed on its own is stored as a record of its own under that id
(see :func:`materialize`); the series then skips that date when it is expanded.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from tools.apps.calendar.state import CalendarState, Event
from tools.kernel.world import Context, matching

__all__ = [
    "Instance",
    "all_instances",
    "describe",
    "event_zone",
    "exceptions_of",
    "instances",
    "materialize",
    "occurrence_date",
    "occurrence_id",
    "series_days",
    "series_last",
    "split_id",
]

_WEEKDAYS = ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays")
#: How far ahead an endless series is looked at when its last occurrence is needed (days).
_HORIZON_DAYS = 366


def occurrence_id(series_id: str, day: date) -> str:
    """The id of a series' occurrence on ``day``, e.g. ``evt_n3@2026-03-16``."""
    return f"{series_id}@{day.isoformat()}"


def split_id(event_id: str) -> tuple[str, date | None]:
    """``("evt_n3", date(2026, 3, 16))`` for an occurrence id; ``(event_id, None)`` for any other id."""
    base, sep, tail = event_id.partition("@")
    if not sep:
        return event_id, None
    try:
        return base, date.fromisoformat(tail)
    except ValueError:
        return event_id, None


def _rule_days(rule: str, first: date) -> Iterator[date]:
    """Every date ``rule`` produces from ``first`` on (``first`` itself when it fits), without end."""
    if rule == "monthly":
        year, month = first.year, first.month
        while True:
            if first.day <= monthrange(year, month)[1]:  # months without that day (e.g. April 31) are skipped
                yield date(year, month, first.day)
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    step = timedelta(days=7 if rule == "weekly" else 1)
    day = first
    while True:
        if rule != "weekdays" or day.weekday() < 5:
            yield day
        day += step


def series_days(first: date, rule: str, count: int, until: date | None, last: date) -> Iterator[date]:
    """The dates of a series up to ``last`` (included), honouring its count and end date.

    Args:
        first: Date of the series' first occurrence.
        rule: ``daily``, ``weekly``, ``weekdays`` or ``monthly``.
        count: Number of occurrences in all; 0 for no limit.
        until: Last date an occurrence may fall on; None for no limit.
        last: Stop after this date (the end of the window being looked at).
    """
    for n, day in enumerate(_rule_days(rule, first), start=1):
        if (count and n > count) or (until is not None and day > until) or day > last:
            return
        yield day


def describe(event: Event, first: date) -> str:
    """The series' rule in words, e.g. ``"weekly on Mondays, 5 times"``; ``""`` for a one-off event."""
    rule = event.recurrence
    if not rule:
        return ""
    words = {
        "daily": "every day",
        "weekly": f"weekly on {_WEEKDAYS[first.weekday()]}",
        "weekdays": "every weekday (Monday to Friday)",
        "monthly": f"monthly on day {first.day}",
    }[rule]
    if event.recurrence_count:
        words += f", {event.recurrence_count} times"
    elif event.recurrence_until is not None:
        words += f", until {event.recurrence_until.isoformat()}"
    return words


# --- occurrences --------------------------------------------------------------------------------


def event_zone(ctx: Context[CalendarState], e: Event) -> ZoneInfo:
    """The zone a series keeps its wall-clock time in."""
    return ZoneInfo(e.time_zone) if e.time_zone else ctx.tz


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
    cap = local.date() + timedelta(days=_HORIZON_DAYS)
    days = list(series_days(local.date(), e.recurrence, e.recurrence_count, e.recurrence_until, cap))
    last = days[-1] if days else local.date()
    return datetime.combine(last, local.time(), tzinfo=tz) + (e.end - e.start)


def exceptions_of(ctx: Context[CalendarState], series: Event) -> list[Event]:
    """The occurrences of ``series`` that were changed on their own (each a record of its own)."""
    return matching(ctx.state.events, lambda x: x.series_id == series.id)


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
