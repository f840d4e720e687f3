"""Calendar actions on free/busy time: when you and colleagues are all free."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from pydantic import Field

from tools.apps.calendar._rules import (
    FREE_WINDOW_DAYS,
    WORKING_HOURS,
    all_instances,
    check_emails,
    colleague_zones,
    free_slots,
    off_hours,
    parse_window,
)
from tools.apps.calendar._views import span
from tools.apps.calendar.app import app
from tools.apps.calendar.state import CalendarState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context

__all__ = ["find_free_slots"]


@app.action(read_only=True)
def find_free_slots(
    ctx: Context[CalendarState],
    people: list[str] = [],  # noqa: B006 - never mutated
    duration_minutes: Annotated[int, Field(ge=15, le=480)] = 30,
    start: str = "",
    end: str = "",
    max_results: Annotated[int, Field(ge=1, le=50)] = 10,
) -> dict[str, Any]:
    """Find times when you and colleagues are all free, within working hours.

    Working hours are 09:00-17:00 Monday to Friday in the company's time zone, and in each
    colleague's own time zone too (a colleague in another office is never offered their night).
    Someone is busy during every event (and every occurrence of a series) they are invited
    to and have not declined. Slots start on the quarter hour, do not overlap, and never
    start before now; you are always included.

    Example:
        people=["priya.shah@northwind.example", "owen.bell@northwind.example"] duration_minutes=60
        -> the first free hours for all three of you this week.

    Args:
        people: Email addresses of colleagues who must be free (you are included automatically).
        duration_minutes: Length of the meeting in minutes.
        start: Beginning of the search window, ISO 8601. Defaults to now; a start in the past counts from now.
        end: End of the search window, ISO 8601, at most 31 days after start. Defaults to the end of the
            fifth working day counted from start.
        max_results: Most slots to return.

    Returns:
        {"people": [emails], "duration_minutes", "window": {"start", "end"}, "working_hours",
        "slots": [{"start", "end"}]}.
    """
    who = check_emails(ctx, [ctx.user, *people], "people", internal_only=True)
    lo, hi = parse_window(ctx, start, end, ctx.tz, None, from_now=True)
    if hi - lo > timedelta(days=FREE_WINDOW_DAYS):
        raise InvalidArgument(f"the window may span at most {FREE_WINDOW_DAYS} days; give an earlier end", "end")
    busy = [
        (i.start, i.end)
        for i in all_instances(ctx, lo, hi)
        if any(a.email in who and a.response != "declined" for a in i.event.attendees)
    ]
    busy += off_hours(colleague_zones(ctx, who), lo, hi)
    length = timedelta(minutes=duration_minutes)
    slots = free_slots(busy, lo, hi, ctx.tz, length, max_results)
    return {
        "people": who,
        "duration_minutes": duration_minutes,
        "window": span(lo, hi, ctx.tz),
        "working_hours": f"{WORKING_HOURS}, {ctx.world.timezone}",
        "slots": [span(s, e, ctx.tz) for s, e in slots],
    }
