"""The company calendar: meetings, invitations, responses and free time."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.common import Page, PageSize, fold, page_of, require_text
from tools.directory import DirectoryState
from tools.exceptions import Conflict, InvalidArgument, NotFound
from tools.registry import App
from tools.world import AppState, Context, Record, format_instant, parse_instant

__all__ = ["Attendee", "CalendarState", "Event", "app"]

Response = Literal["needsAction", "accepted", "declined", "tentative"]

_EMAIL_RE = re.compile(r"^[^@\s,;]+@[^@\s,;]+\.[^@\s,;]+$")
#: Working hours used to suggest meeting times, in the company's time zone, Monday to Friday.
_DAY_START, _DAY_END = time(9, 0), time(17, 0)
_GRID_MINUTES = 15
_MAX_WINDOW_DAYS = 31


class Attendee(Record):
    """One person invited to an event, with their answer."""

    email: str
    response: Response = "needsAction"
    comment: str = ""


class Event(Record):
    """One calendar event; the organizer is also listed among the attendees."""

    id: str
    title: str
    start: datetime
    end: datetime
    location: str = ""
    description: str = ""
    organizer: str
    attendees: list[Attendee] = []


class CalendarState(AppState):
    """Every event in the company, keyed by event id."""

    events: dict[str, Event] = {}


app = App("calendar", CalendarState, "The company calendar: meetings, invitations, responses and free time.")


# --- helpers -------------------------------------------------------------------------------------


def _attendee(event: Event, email: str) -> Attendee | None:
    return next((a for a in event.attendees if a.email == email), None)


def _on_calendar(event: Event, user: str) -> bool:
    return event.organizer == user or _attendee(event, user) is not None


def _get(ctx: Context[CalendarState], event_id: str) -> Event:
    event = ctx.state.events.get(event_id.strip())
    if event is None:
        raise NotFound(f"no event with id '{event_id}'; use calendar list-events to find ids", "event_id")
    return event


def _summary(ctx: Context[CalendarState], e: Event) -> dict[str, Any]:
    mine = _attendee(e, ctx.user)
    return {
        "id": e.id,
        "title": e.title,
        "start": format_instant(e.start, ctx.tz),
        "end": format_instant(e.end, ctx.tz),
        "location": e.location,
        "organizer": e.organizer,
        "attendees": [{"email": a.email, "response": a.response} for a in e.attendees],
        "my_response": mine.response if mine else None,
    }


def _full(ctx: Context[CalendarState], e: Event) -> dict[str, Any]:
    out = _summary(ctx, e)
    out["description"] = e.description
    out["attendees"] = [a.model_dump() for a in e.attendees]
    return out


def _emails(
    ctx: Context[CalendarState], values: list[str], parameter: str, *, internal_only: bool = False
) -> list[str]:
    """Normalise a list of addresses; internal ones must be in the directory (when there is one).

    Raises:
        InvalidArgument: An entry is not an email address (or is external while ``internal_only``).
        NotFound: An internal address is not in the directory.
    """
    domain = ctx.user.rsplit("@", 1)[1]
    directory = ctx.other("directory")
    known = {p.email.lower() for p in directory.people.values()} if isinstance(directory, DirectoryState) else None
    out: list[str] = []
    for raw in values:
        email = raw.strip().lower()
        if not _EMAIL_RE.match(email):
            raise InvalidArgument(
                f"'{raw}' is not an email address; give addresses such as priya.shah@{domain} "
                "(directory search-people finds them)",
                parameter,
            )
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


def _window(
    ctx: Context[CalendarState], start: str, end: str, default: timedelta | None, *, from_now: bool = False
) -> tuple[datetime, datetime]:
    """Parse an optional [start, end) window.

    ``default`` is the length when no end is given (None: up to the end of the fifth working day);
    ``from_now`` moves a start in the past up to now.
    """
    lo = parse_instant(start, ctx.tz, "start") if start.strip() else ctx.now
    note = ""
    if from_now and lo < ctx.now:
        lo, note = ctx.now, " (times before now are never offered)"
    if end.strip():
        hi = parse_instant(end, ctx.tz, "end")
    elif default is not None:
        hi = lo + default
    else:
        hi = _after_working_days(lo.astimezone(ctx.tz).date(), 5, ctx)
    if hi <= lo:
        raise InvalidArgument(
            f"end ({format_instant(hi, ctx.tz)}) must be after start ({format_instant(lo, ctx.tz)}){note}", "end"
        )
    return lo, hi


def _after_working_days(day: date, count: int, ctx: Context[CalendarState]) -> datetime:
    """Midnight after the ``count``-th weekday counted from ``day`` (``day`` included when a weekday)."""
    seen = 0
    while True:
        if day.weekday() < 5:
            seen += 1
            if seen == count:
                return datetime.combine(day + timedelta(days=1), time(0), tzinfo=ctx.tz)
        day += timedelta(days=1)


def _new_times(ctx: Context[CalendarState], event: Event, start: str, end: str) -> tuple[datetime, datetime]:
    new_start = parse_instant(start, ctx.tz, "start") if start.strip() else event.start
    # Moving only the start keeps the event's length.
    new_end = parse_instant(end, ctx.tz, "end") if end.strip() else new_start + (event.end - event.start)
    if new_end <= new_start:
        raise InvalidArgument(
            f"end ({format_instant(new_end, ctx.tz)}) must be after start ({format_instant(new_start, ctx.tz)})", "end"
        )
    return new_start, new_end


# --- actions -------------------------------------------------------------------------------------


@app.action(read_only=True)
def list_events(  # noqa: D417
    ctx: Context[CalendarState],
    start: str = "",
    end: str = "",
    query: str = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List the events on your calendar between two times, earliest first.

    Shows every event you organize or are invited to that overlaps the window
    [start, end), whatever your answer was (see my_response). Times without an
    offset are read in the company's time zone; a bare date means midnight.

    Example:
        start="2026-03-10" end="2026-03-11" query="budget" -> Tuesday's budget meetings with their attendees.

    Args:
        start: Beginning of the window, ISO 8601 date-time such as 2026-03-10T09:00 or a date 2026-03-10.
            Defaults to now.
        end: End of the window (exclusive), ISO 8601. Defaults to 7 days after start.
        query: Words that must all appear in the title, location, description or an attendee's address.
        page: Page number, starting at 1.
        page_size: Events per page.

    Returns:
        {"events": [{"id", "title", "start", "end", "location", "organizer", "attendees": [{"email", "response"}],
        "my_response"}], "window": {"start", "end"}, "page", "page_size", "total", "next_page"}.
    """
    lo, hi = _window(ctx, start, end, timedelta(days=7))
    words = fold(query).split()
    hits = []
    for e in ctx.state.events.values():
        if not _on_calendar(e, ctx.user) or not (e.start < hi and e.end > lo):
            continue
        text = fold(" ".join([e.title, e.location, e.description, e.organizer, *(a.email for a in e.attendees)]))
        if all(w in text for w in words):
            hits.append(e)
    hits.sort(key=lambda e: (e.start, e.end, e.id))
    out = page_of([_summary(ctx, e) for e in hits], page, page_size, key="events")
    out["window"] = {"start": format_instant(lo, ctx.tz), "end": format_instant(hi, ctx.tz)}
    return out


@app.action(read_only=True)
def get_event(ctx: Context[CalendarState], event_id: str) -> dict[str, Any]:  # noqa: D417
    """Show one event in full: times, place, description and everyone's answers.

    Example:
        event_id="evt_050" -> the Contoso renewal call with its agenda and who accepted.

    Args:
        event_id: The event's id, as shown by list-events.

    Returns:
        {"id", "title", "start", "end", "location", "organizer", "attendees": [{"email", "response", "comment"}],
        "my_response", "description"}.
    """
    return _full(ctx, _get(ctx, event_id))


@app.action(read_only=False)
def create_event(  # noqa: D417
    ctx: Context[CalendarState],
    title: str,
    start: str,
    end: str,
    attendees: list[str] = [],  # noqa: B006 - never mutated; the schema shows [] as "not given"
    location: str = "",
    description: str = "",
) -> dict[str, Any]:
    """Put a new event on your calendar and invite people to it.

    You become the organizer (answer "accepted"); each invitee starts with the
    answer "needsAction" until they respond. Times without an offset are read
    in the company's time zone. People outside the company may be invited by
    address; colleagues must be in the directory.

    Example:
        title="Q2 hiring sync" start="2026-03-12T10:00" end="2026-03-12T10:30"
        attendees=["nora.patel@northwind.example"] location="Room 4B" -> the new event with its id.

    Args:
        title: What the event is called.
        start: When it starts, ISO 8601 such as 2026-03-12T10:00 or 2026-03-12T10:00:00-04:00.
        end: When it ends, ISO 8601; must be after start.
        attendees: Email addresses of the people to invite (you are added automatically).
        location: A room such as "Hudson Room" or "Room 4B", an address, or "Video call".
        description: Agenda or notes shown to everyone invited.

    Returns:
        The new event, as get-event shows it.
    """
    title = require_text(title, "title")
    lo = parse_instant(start, ctx.tz, "start")
    hi = parse_instant(end, ctx.tz, "end")
    if hi <= lo:
        raise InvalidArgument(
            f"end ({format_instant(hi, ctx.tz)}) must be after start ({format_instant(lo, ctx.tz)})", "end"
        )
    guests = [e for e in _emails(ctx, attendees, "attendees") if e != ctx.user]
    event = Event(
        id=ctx.new_id("evt"),
        title=title,
        start=lo,
        end=hi,
        location=location.strip(),
        description=description.strip(),
        organizer=ctx.user,
        attendees=[Attendee(email=ctx.user, response="accepted")] + [Attendee(email=g) for g in guests],
    )
    ctx.state.events[event.id] = event
    return _full(ctx, event)


@app.action(read_only=False)
def update_event(  # noqa: D417
    ctx: Context[CalendarState],
    event_id: str,
    title: str = "",
    start: str = "",
    end: str = "",
    location: str = "",
    description: str = "",
    add_attendees: list[str] = [],  # noqa: B006 - never mutated
    remove_attendees: list[str] = [],  # noqa: B006 - never mutated
) -> dict[str, Any]:
    """Change an event you organize: its title, time, place, description or guest list.

    Only the parameters you give are changed. Moving the start without giving
    an end keeps the event's length. Only the organizer can change an event; for
    someone else's event, ask the organizer (or answer it with respond-to-event).

    Example:
        event_id="evt_061" start="2026-03-23T15:00" add_attendees=["isaac.king@northwind.example"]
        -> the event moved to 15:00 (same length) with Isaac invited.

    Args:
        event_id: The event's id, as shown by list-events.
        title: New title.
        start: New start, ISO 8601 such as 2026-03-19T15:00.
        end: New end, ISO 8601; the event must still end after it starts.
        location: New location, e.g. "Hudson Room".
        description: New description (replaces the old one).
        add_attendees: Email addresses to invite.
        remove_attendees: Email addresses to take off the guest list (not the organizer).

    Returns:
        The updated event, as get-event shows it.
    """
    event = _get(ctx, event_id)
    if event.organizer != ctx.user:
        raise Conflict(
            f"only the organizer ({event.organizer}) can change '{event.title}'; ask them to make the change, "
            "or answer the invitation with calendar respond-to-event",
            "event_id",
        )
    if not any(v.strip() for v in (title, start, end, location, description)) and not (
        add_attendees or remove_attendees
    ):
        raise InvalidArgument(
            "nothing to change; give at least one of title, start, end, location, description, "
            "add_attendees or remove_attendees"
        )
    new_title = require_text(title, "title") if title.strip() else event.title
    new_start, new_end = _new_times(ctx, event, start, end)
    added = _emails(ctx, add_attendees, "add_attendees")
    removing = _emails(ctx, remove_attendees, "remove_attendees")
    for email in removing:
        if email in added:
            raise InvalidArgument(f"'{email}' is both added and removed; give it in only one list", "remove_attendees")
        if email == event.organizer:
            raise InvalidArgument(
                "the organizer cannot be removed; use calendar delete-event to cancel the event", "remove_attendees"
            )
        if _attendee(event, email) is None:
            raise NotFound(f"'{email}' is not invited to '{event.title}'; get-event lists who is", "remove_attendees")
    adding = [e for e in added if _attendee(event, e) is None]
    event.title = new_title
    event.start, event.end = new_start, new_end
    if location.strip():
        event.location = location.strip()
    if description.strip():
        event.description = description.strip()
    event.attendees = [a for a in event.attendees if a.email not in removing] + [Attendee(email=e) for e in adding]
    return _full(ctx, event)


@app.action(read_only=False)
def delete_event(ctx: Context[CalendarState], event_id: str) -> dict[str, Any]:  # noqa: D417
    """Cancel an event you organize; it disappears from every guest's calendar.

    Only the organizer can cancel an event. To drop someone else's meeting from
    your calendar, decline it with respond-to-event instead.

    Example:
        event_id="evt_061" -> {"deleted": "evt_061", "title": "Offsite dry run"}.

    Args:
        event_id: The event's id, as shown by list-events.

    Returns:
        {"deleted": id, "title": title}.
    """
    event = _get(ctx, event_id)
    if event.organizer != ctx.user:
        raise Conflict(
            f"only the organizer ({event.organizer}) can cancel '{event.title}'; to take it off your calendar, "
            "use calendar respond-to-event with response=declined",
            "event_id",
        )
    del ctx.state.events[event.id]
    return {"deleted": event.id, "title": event.title}


@app.action(read_only=False)
def respond_to_event(  # noqa: D417
    ctx: Context[CalendarState],
    event_id: str,
    response: Literal["accepted", "declined", "tentative"],
    comment: str = "",
) -> dict[str, Any]:
    """Answer an invitation: accept, decline or say maybe, with an optional note to the organizer.

    Example:
        event_id="evt_054" response="declined" comment="Out that morning; Dana will speak for the exec office."

    Args:
        event_id: The event's id, as shown by list-events.
        response: Your answer.
        comment: A short note the organizer sees next to your answer. Replaces any earlier note.

    Returns:
        The event, as get-event shows it, with your answer recorded.
    """
    event = _get(ctx, event_id)
    me = _attendee(event, ctx.user)
    if me is None:
        raise Conflict(
            f"you are not invited to '{event.title}'; ask the organizer ({event.organizer}) to add you", "event_id"
        )
    me.response = response
    me.comment = comment.strip()
    return _full(ctx, event)


@app.action(read_only=True)
def find_free_slots(  # noqa: D417
    ctx: Context[CalendarState],
    people: list[str] = [],  # noqa: B006 - never mutated
    duration_minutes: Annotated[int, Field(ge=15, le=480)] = 30,
    start: str = "",
    end: str = "",
    max_results: Annotated[int, Field(ge=1, le=50)] = 10,
) -> dict[str, Any]:
    """Find times when you and colleagues are all free, within working hours.

    Working hours are 09:00-17:00 Monday to Friday in the company's time zone.
    Someone is busy during every event they are invited to and have not
    declined. Slots start on the quarter hour, do not overlap, and never start
    before now; you are always included.

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
    who = _emails(ctx, [ctx.user, *people], "people", internal_only=True)
    lo, hi = _window(ctx, start, end, None, from_now=True)
    if hi - lo > timedelta(days=_MAX_WINDOW_DAYS):
        raise InvalidArgument(f"the window may span at most {_MAX_WINDOW_DAYS} days; give an earlier end", "end")
    busy = sorted(
        (e.start, e.end)
        for e in ctx.state.events.values()
        if e.start < hi and e.end > lo and any(a.email in who and a.response != "declined" for a in e.attendees)
    )
    length = timedelta(minutes=duration_minutes)
    slots: list[dict[str, str]] = []
    day = lo.astimezone(ctx.tz).date()
    while day <= hi.astimezone(ctx.tz).date() and len(slots) < max_results:
        if day.weekday() < 5:
            open_from = max(datetime.combine(day, _DAY_START, tzinfo=ctx.tz), lo)
            open_to = min(datetime.combine(day, _DAY_END, tzinfo=ctx.tz), hi)
            cursor = _round_up(open_from.astimezone(ctx.tz))
            while cursor + length <= open_to and len(slots) < max_results:
                clash = next((b_end for b_start, b_end in busy if b_start < cursor + length and b_end > cursor), None)
                if clash is None:
                    slots.append(
                        {"start": format_instant(cursor, ctx.tz), "end": format_instant(cursor + length, ctx.tz)}
                    )
                    cursor += length
                else:
                    cursor = _round_up(max(clash.astimezone(ctx.tz), cursor))
        day += timedelta(days=1)
    return {
        "people": who,
        "duration_minutes": duration_minutes,
        "window": {"start": format_instant(lo, ctx.tz), "end": format_instant(hi, ctx.tz)},
        "working_hours": f"09:00-17:00 Monday to Friday, {ctx.world.timezone}",
        "slots": slots,
    }


def _round_up(moment: datetime) -> datetime:
    """The first quarter hour at or after ``moment`` (seconds dropped)."""
    base = moment.replace(second=0, microsecond=0)
    if base < moment:
        base += timedelta(minutes=1)
    extra = -base.minute % _GRID_MINUTES
    return base + timedelta(minutes=extra)
