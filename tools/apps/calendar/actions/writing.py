"""The company calendar: meetings, repeating series, meeting rooms, invitations, responses and free time."""

# ruff: noqa: D417  (an action's first parameter is the context, which callers never pass)

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field

from tools.apps.calendar._rules import (
    Attendee,
    CalendarState,
    Event,
    Instance,
    Recurrence,
    Room,
    all_instances,
    attendee,
    check_emails,
    event_view,
    event_zone,
    exceptions_of,
    find,
    materialize,
    occurrence_date,
    parse_window,
    whole_series,
    zone,
)
from tools.apps.calendar.actions import rooms as calendar_rooms
from tools.apps.calendar.actions.rooms import check_room, find_room, set_room
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.registry import App
from tools.kernel.world import Context, format_instant, parse_date, parse_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold, require_text

__all__ = ["Attendee", "CalendarState", "Event", "Room", "app"]

Scope = Literal["this", "all"]

#: Working hours used to suggest meeting times, in the company's time zone, Monday to Friday.
_DAY_START, _DAY_END = time(9, 0), time(17, 0)
_GRID_MINUTES = 15
_MAX_WINDOW_DAYS = 31
#: The longest an event of each repeat rule may last, so that its occurrences never overlap.
_STEP = {"daily": timedelta(days=1), "weekdays": timedelta(days=1), "weekly": timedelta(days=7)}
_STEP["monthly"] = timedelta(days=28)

app = App(
    "calendar",
    CalendarState,
    "The company calendar: meetings, repeating series, meeting rooms, invitations, responses and free time.",
)


# --- helpers -------------------------------------------------------------------------------------


def _on_calendar(event: Event, user: str) -> bool:
    return event.organizer == user or attendee(event, user) is not None


def _times(start: datetime, end: datetime, tz: ZoneInfo) -> None:
    if end <= start:
        shown = f"end ({format_instant(end, tz)}) must be after start ({format_instant(start, tz)})"
        raise InvalidArgument(shown, "end")


def _rule(
    recurrence: str, count: int, until_text: str, start: datetime, end: datetime, tz: ZoneInfo
) -> tuple[int, date | None]:
    """Check a repeat rule against the first occurrence; returns (count, until)."""
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


def _organizer_only(ctx: Context[CalendarState], event: Event, verb: str) -> None:
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


# --- reading -------------------------------------------------------------------------------------


@app.action(read_only=True)
def list_events(
    ctx: Context[CalendarState],
    start: str = "",
    end: str = "",
    query: str = "",
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
        if not _on_calendar(e, ctx.user):
            continue
        text = fold(" ".join([e.title, e.location, e.description, e.organizer, *(a.email for a in e.attendees)]))
        if all(w in text for w in words):
            hits.append(i)
    out = page_of([event_view(ctx, i, tz) for i in hits], page, page_size, key="events")
    out["window"] = {"start": format_instant(lo, tz), "end": format_instant(hi, tz)}
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


# --- writing -------------------------------------------------------------------------------------


@app.action(read_only=False)
def create_event(
    ctx: Context[CalendarState],
    title: str,
    start: str,
    end: str,
    attendees: list[str] = [],  # noqa: B006 - never mutated; the schema shows [] as "not given"
    location: str = "",
    description: str = "",
    room: str = "",
    recurrence: Recurrence = "",
    recurrence_count: Annotated[int, Field(ge=0, le=500)] = 0,
    recurrence_until: str = "",
    time_zone: str = "",
) -> dict[str, Any]:
    """Put a new event (or a repeating series) on your calendar, invite people and book a room.

    You become the organizer (answer "accepted"); each invitee starts with "needsAction".
    Colleagues must be in the directory; people outside the company may be invited by address.
    A room given in room is booked for every occurrence: it joins as an attendee and the event
    fails if the room is taken or too small (calendar find-available-rooms finds a free one).
    A series repeats daily, weekly (same weekday), on weekdays or monthly (same day of the
    month), for recurrence_count occurrences, until recurrence_until, or with neither, until
    you end it.

    Example:
        title="Offsite prep" start="2026-03-16T15:00" end="2026-03-16T15:30" attendees=["ruby.walker@northwind.example"]
        room="Room 2A" recurrence="weekly" recurrence_count=5 -> the new series; occurrences are evt_n1@2026-03-16, ...

    Args:
        title: What the event is called.
        start: When it (its first occurrence) starts, ISO 8601 such as 2026-03-12T10:00 or 2026-03-12T10:00:00-04:00.
        end: When it ends, ISO 8601; must be after start.
        attendees: Email addresses of the people to invite (you are added automatically).
        location: Where it happens, e.g. an address or "Video call". Defaults to the room's name when a room is booked.
        description: Agenda or notes shown to everyone invited.
        room: A meeting room to book, by name or id, e.g. "Room 4B" or "Hudson Room" (calendar list-rooms shows them).
        recurrence: How the event repeats; "" for a one-off event.
        recurrence_count: Number of occurrences in all (0: not limited by a count).
        recurrence_until: Last date an occurrence may fall on, YYYY-MM-DD (instead of recurrence_count).
        time_zone: IANA time zone in which times without an offset are read and the answer is shown, e.g.
            America/Chicago; a series keeps its wall-clock time there. Defaults to the company's (America/New_York).

    Returns:
        The new event, as get-event shows it.
    """
    text = require_text(title, "title")
    tz = zone(ctx, time_zone)
    lo, hi = parse_instant(start, tz, "start"), parse_instant(end, tz, "end")
    _times(lo, hi, tz)
    count, until = _rule(recurrence, recurrence_count, recurrence_until, lo, hi, tz)
    guests = [g for g in check_emails(ctx, attendees, "attendees") if g != ctx.user]
    booked = find_room(ctx, room) if room.strip() else None
    event = Event(
        id="evt_new",
        title=text,
        start=lo,
        end=hi,
        location=location.strip(),
        description=description.strip(),
        organizer=ctx.user,
        attendees=[Attendee(email=ctx.user, response="accepted")] + [Attendee(email=g) for g in guests],
        time_zone=tz.key if time_zone.strip() else "",
        recurrence=recurrence,
        recurrence_count=count,
        recurrence_until=until,
    )
    set_room(event, booked, None)
    check_room(ctx, [event], set())
    event.id = ctx.new_id("evt")
    ctx.state.events[event.id] = event
    return event_view(ctx, Instance(event.id, event, event.start, event.end), tz, full=True)


@app.action(read_only=False)
def update_event(
    ctx: Context[CalendarState],
    event_id: str,
    title: str = "",
    start: str = "",
    end: str = "",
    location: str = "",
    description: str = "",
    add_attendees: list[str] = [],  # noqa: B006 - never mutated
    remove_attendees: list[str] = [],  # noqa: B006 - never mutated
    room: str = "",
    release_room: bool = False,
    recurrence_until: str = "",
    scope: Scope = "this",
    time_zone: str = "",
) -> dict[str, Any]:
    """Change an event you organize: its title, time, place, room, description or guest list.

    Only the parameters you give are changed. Moving the start without giving an end keeps the
    event's length. For a repeating series, change one occurrence (its id, e.g.
    evt_n3@2026-03-16, with scope=this) or every occurrence (scope=all, with the series id or any
    occurrence id); a whole series can move to another time of day but not to another day, and
    recurrence_until ends it early. Only the organizer can change an event; for someone else's
    event, ask the organizer (or answer it with respond-to-event).

    Example:
        event_id="evt_061" start="2026-03-23T15:00" add_attendees=["isaac.king@northwind.example"] room="Room 3C"
        -> the event moved to 15:00 (same length) in Room 3C with Isaac invited.

    Args:
        event_id: The event's id, as shown by list-events (an occurrence id for one occurrence of a series).
        title: New title.
        start: New start, ISO 8601 such as 2026-03-19T15:00.
        end: New end, ISO 8601; the event must still end after it starts.
        location: New location, e.g. "Video call".
        description: New description (replaces the old one).
        add_attendees: Email addresses to invite.
        remove_attendees: Email addresses to take off the guest list (not the organizer).
        room: A meeting room to book instead of the current one, by name or id, e.g. "Harbor Room".
        release_room: Give up the booked room.
        recurrence_until: End a series early: the last date an occurrence may fall on, YYYY-MM-DD (scope=all).
        scope: "this" changes only the event or occurrence named; "all" changes every occurrence of its series.
        time_zone: IANA time zone in which times without an offset are read and the answer is shown.
            Defaults to the company's.

    Returns:
        The updated event (for scope=all, the series), as get-event shows it.
    """
    tz = zone(ctx, time_zone)
    target = find(ctx, event_id)
    event = target.event
    _organizer_only(ctx, event, "change")
    given = [title, start, end, location, description, room, recurrence_until]
    if not any(v.strip() for v in given) and not (add_attendees or remove_attendees or release_room):
        raise InvalidArgument(
            "nothing to change; give at least one of title, start, end, location, description, "
            "add_attendees, remove_attendees, room, release_room or recurrence_until"
        )
    series = whole_series(ctx, target, scope)
    if recurrence_until.strip() and series is None:
        raise InvalidArgument("recurrence_until ends a whole series; give scope=all with a repeating event", "scope")
    new_title = require_text(title, "title") if title.strip() else ""
    new_start = parse_instant(start, tz, "start") if start.strip() else target.start
    new_end = parse_instant(end, tz, "end") if end.strip() else new_start + (target.end - target.start)
    _times(new_start, new_end, tz)
    added = check_emails(ctx, add_attendees, "add_attendees")
    removing = check_emails(ctx, remove_attendees, "remove_attendees")
    for email in removing:
        if email in added:
            raise InvalidArgument(f"'{email}' is both added and removed; give it in only one list", "remove_attendees")
        if email == event.organizer:
            raise InvalidArgument(
                "the organizer cannot be removed; use calendar delete-event to cancel the event", "remove_attendees"
            )
        if attendee(event, email) is None:
            raise NotFound(f"'{email}' is not invited to '{event.title}'; get-event lists who is", "remove_attendees")
    if room.strip() and release_room:
        raise InvalidArgument("give either room or release_room, not both", "release_room")
    new_room = find_room(ctx, room) if room.strip() else None

    def apply(rec: Event) -> None:
        if new_title:
            rec.title = new_title
        if location.strip():
            rec.location = location.strip()
        if description.strip():
            rec.description = description.strip()
        keep = [a for a in rec.attendees if a.email not in removing]
        rec.attendees = keep + [Attendee(email=e) for e in added if attendee(rec, e) is None]
        old = ctx.state.rooms.get(rec.room)
        if new_room is not None or release_room:
            set_room(rec, new_room, old)
        elif old is not None:
            set_room(rec, old, old)  # keeps the room last in the guest list

    if series is None:
        rec = materialize(target)
        rec.start, rec.end = new_start, new_end
        apply(rec)
        check_room(ctx, [rec], {target.id})
        ctx.state.events[rec.id] = rec
        return event_view(ctx, Instance(rec.id, rec, rec.start, rec.end), tz, full=True)
    stz = event_zone(ctx, series)
    if new_start.astimezone(stz).date() != target.start.astimezone(stz).date():
        raise InvalidArgument(
            "a whole series can move to another time of day but not to another day; delete it and create a new "
            "series on the new day, or change one occurrence with scope=this",
            "start",
        )
    copy = series.model_copy(deep=True)
    shift = new_start.astimezone(stz).replace(tzinfo=None) - target.start.astimezone(stz).replace(tzinfo=None)
    copy.start = (series.start.astimezone(stz).replace(tzinfo=None) + shift).replace(tzinfo=stz)
    copy.end = copy.start + (new_end - new_start)
    count, until = series.recurrence_count, series.recurrence_until
    if recurrence_until.strip():
        count, until = _rule(series.recurrence, 0, recurrence_until, copy.start, copy.end, stz)
    else:
        _rule(series.recurrence, count, "", copy.start, copy.end, stz)
    copy.recurrence_count, copy.recurrence_until = count, until
    apply(copy)
    kept, dropped = [], []
    for x in exceptions_of(ctx, series):
        day = occurrence_date(ctx, Instance(x.id, x, x.start, x.end))
        if until is not None and day > until:
            dropped.append(x.id)
            continue
        twin = x.model_copy(deep=True)
        apply(twin)
        kept.append(twin)
    check_room(ctx, [copy, *kept], {series.id, *(x.id for x in kept), *dropped})
    for rec in (copy, *kept):
        ctx.state.events[rec.id] = rec
    for gone in dropped:
        del ctx.state.events[gone]
    return event_view(ctx, Instance(copy.id, copy, copy.start, copy.end), tz, full=True)


@app.action(read_only=False)
def delete_event(ctx: Context[CalendarState], event_id: str, scope: Scope = "this") -> dict[str, Any]:
    """Cancel an event you organize, one occurrence of a series, or a whole series; guests lose it too.

    For a repeating series, give an occurrence's id (e.g. evt_n3@2026-03-16) with scope=this to
    cancel only that day, or scope=all to cancel the whole series. Only the organizer can cancel an
    event. To drop someone else's meeting from your calendar, decline it with respond-to-event instead.

    Example:
        event_id="evt_061" -> {"deleted": "evt_061", "title": "Offsite dry run", "scope": "this"}.

    Args:
        event_id: The event's id, as shown by list-events (an occurrence id for one occurrence of a series).
        scope: "this" cancels only the event or occurrence named; "all" cancels every occurrence of its series.

    Returns:
        {"deleted": id, "title": title, "scope": "this" or "all"}.
    """
    target = find(ctx, event_id)
    event = target.event
    _organizer_only(ctx, event, "cancel")
    series = whole_series(ctx, target, scope)
    state = ctx.state
    if series is not None:
        for x in exceptions_of(ctx, series):
            del state.events[x.id]
        del state.events[series.id]
        return {"deleted": series.id, "title": series.title, "scope": "all"}
    if target.virtual or event.series_id:
        parent = target.event if target.virtual else state.events[event.series_id]
        day = occurrence_date(ctx, target)
        if not target.virtual:
            del state.events[event.id]
        parent.cancelled_dates = sorted({*parent.cancelled_dates, day})
        return {"deleted": target.id, "title": event.title, "scope": "this"}
    del state.events[event.id]
    return {"deleted": event.id, "title": event.title, "scope": "this"}


@app.action(read_only=False)
def respond_to_event(
    ctx: Context[CalendarState],
    event_id: str,
    response: Literal["accepted", "declined", "tentative"],
    comment: str = "",
    scope: Scope = "this",
) -> dict[str, Any]:
    """Answer an invitation: accept, decline or say maybe, with an optional note to the organizer.

    For a repeating series, answer one occurrence (its id, e.g. evt_n3@2026-03-16, with
    scope=this) or every occurrence (scope=all).

    Example:
        event_id="evt_054" response="declined" comment="Out that morning; Dana will speak for the exec office."

    Args:
        event_id: The event's id, as shown by list-events (an occurrence id for one occurrence of a series).
        response: Your answer.
        comment: A short note the organizer sees next to your answer. Replaces any earlier note.
        scope: "this" answers only the event or occurrence named; "all" answers every occurrence of its series.

    Returns:
        The event, as get-event shows it, with your answer recorded.
    """
    target = find(ctx, event_id)
    event = target.event
    if attendee(event, ctx.user) is None:
        raise Conflict(
            f"you are not invited to '{event.title}'; ask the organizer ({event.organizer}) to add you", "event_id"
        )
    series = whole_series(ctx, target, scope)
    records = [series, *exceptions_of(ctx, series)] if series is not None else [materialize(target)]
    for rec in records:
        me = attendee(rec, ctx.user)
        if me is not None:
            me.response = response
            me.comment = comment.strip()
        ctx.state.events[rec.id] = rec
    shown = records[0]
    return event_view(ctx, Instance(shown.id, shown, shown.start, shown.end), ctx.tz, full=True)


# --- free time -----------------------------------------------------------------------------------


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

    Working hours are 09:00-17:00 Monday to Friday in the company's time zone.
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
    if hi - lo > timedelta(days=_MAX_WINDOW_DAYS):
        raise InvalidArgument(f"the window may span at most {_MAX_WINDOW_DAYS} days; give an earlier end", "end")
    busy = [
        (i.start, i.end)
        for i in all_instances(ctx, lo, hi)
        if any(a.email in who and a.response != "declined" for a in i.event.attendees)
    ]
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


# --- rooms ---------------------------------------------------------------------------------------

app.action(read_only=True)(calendar_rooms.list_rooms)
app.action(read_only=True)(calendar_rooms.find_available_rooms)
