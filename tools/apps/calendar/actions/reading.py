"""Calendar actions that read events: list the events in a window, show one in full."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tools.apps.calendar._rules import all_instances, find, on_calendar, parse_window, zone
from tools.apps.calendar._views import event_view, span
from tools.apps.calendar.app import app
from tools.apps.calendar.state import CalendarState
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["get_event", "list_events"]


@app.action(read_only=True)
def list_events(
    ctx: Context[CalendarState],
    start: str = "",
    end: str = "",
    query: SearchText = "",
    time_zone: str = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List the events on your calendar between two times, earliest first; repeating events show each occurrence.

    Shows every event you organize or are invited to that overlaps the window [start, end),
    whatever your answer was (see my_response). An occurrence of a repeating series has its own
    id, the series id and the date, e.g. "evt_n3@2026-03-16", and names its series in series_id.
    A bare date means midnight.

    Example:
        start="2026-03-10" end="2026-03-11" query="budget" -> Tuesday's budget meetings with their attendees.

    Args:
        start: Beginning of the window, ISO 8601 date-time such as 2026-03-10T09:00 or a date 2026-03-10.
            Defaults to now.
        end: End of the window (exclusive), ISO 8601. Defaults to 7 days after start.
        query: Words that must all appear in the title, location, description or an attendee's address.
        time_zone: IANA time zone for times without an offset and for the times shown, e.g. America/Chicago.
            Defaults to the company's (America/New_York).
        page: Page number, starting at 1.
        page_size: Events per page.

    Returns:
        {"events": [{"id", "title", "start", "end", "location", "room", "organizer", "attendees": [{"email",
        "response"}], "my_response", "series_id", "repeats"}], "window": {"start", "end"}, "page", "page_size",
        "total", "next_page"}.
    """
    tz = zone(ctx, time_zone)
    lo, hi = parse_window(ctx, start, end, tz, timedelta(days=7))
    words = fold(query).split()
    hits = []
    for i in all_instances(ctx, lo, hi):
        e = i.event
        if not on_calendar(e, ctx.user):
            continue
        text = fold(" ".join([e.title, e.location, e.description, e.organizer, *(a.email for a in e.attendees)]))
        if all(w in text for w in words):
            hits.append(i)
    out = page_of([event_view(ctx, i, tz) for i in hits], page, page_size, key="events")
    out["window"] = span(lo, hi, tz)
    return out


@app.action(read_only=True)
def get_event(ctx: Context[CalendarState], event_id: str, time_zone: str = "") -> dict[str, Any]:
    """Show one event, series or occurrence in full: times, place, room, description and everyone's answers.

    Example:
        event_id="evt_050" -> the Contoso renewal call with its agenda and who accepted.

    Args:
        event_id: The event's id, as shown by list-events (an occurrence id such as evt_n3@2026-03-16 works too).
        time_zone: IANA time zone to show the times in, e.g. Europe/London. Defaults to the company's.

    Returns:
        {"id", "title", "start", "end", "location", "room", "organizer", "attendees": [{"email", "response",
        "comment", "resource"}], "my_response", "series_id", "repeats", "description", "time_zone"}; a series also
        has "recurrence", "recurrence_count", "recurrence_until" and "cancelled_dates".
    """
    tz = zone(ctx, time_zone)
    return event_view(ctx, find(ctx, event_id), tz, full=True)
