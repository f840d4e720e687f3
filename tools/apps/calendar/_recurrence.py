"""Repeating events: the dates a rule produces, occurrence ids, and a plain-words description.

A series is one stored event whose ``recurrence`` is ``daily``, ``weekly`` (same weekday),
``weekdays`` (Monday to Friday) or ``monthly`` (same day of the month; months without that
day are skipped). It ends after ``recurrence_count`` occurrences, on ``recurrence_until``
(that day included), or never. Each occurrence keeps the series' wall-clock time in the
series' time zone, so a 09:00 meeting stays at 09:00 across daylight-saving changes.

An occurrence is named ``<series id>@<YYYY-MM-DD>`` after the date it has in the series.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

__all__ = ["RULES", "describe", "occurrence_id", "rule_days", "series_days", "split_id"]

#: The repeat rules a series may have.
RULES = ("daily", "weekly", "weekdays", "monthly")
_WEEKDAYS = ("Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays")


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


def rule_days(rule: str, first: date) -> Iterator[date]:
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
        rule: One of :data:`RULES`.
        count: Number of occurrences in all; 0 for no limit.
        until: Last date an occurrence may fall on; None for no limit.
        last: Stop after this date (the end of the window being looked at).
    """
    for n, day in enumerate(rule_days(rule, first), start=1):
        if (count and n > count) or (until is not None and day > until) or day > last:
            return
        yield day


def describe(event: Any, first: date) -> str:
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
