"""Calendar actions on events: list the events in a window, show one, create, update, cancel, answer an invitation."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.apps.calendar._rules import (
    Instance,
    Scope,
    all_instances,
    attendee,
    check_emails,
    check_room,
    check_rule,
    check_times,
    event_zone,
    exceptions_of,
    find,
    find_room,
    materialize,
    occurrence_date,
    on_calendar,
    organizer_only,
    parse_window,
    set_room,
    whole_series,
    zone,
)
from tools.apps.calendar._views import event_view, record_view, span
from tools.apps.calendar.app import app
from tools.apps.calendar.state import Attendee, CalendarState, Event, Recurrence, RemovedAttendee
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, parse_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import LongText, SearchText, fold, require_text

__all__ = ["create_event", "delete_event", "get_event", "list_events", "respond_to_event", "update_event"]


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
            Defaults to the company's zone, which every event shown gives as "time_zone".
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
        has "recurrence", "recurrence_count", "recurrence_until" and "cancelled_dates"; once a guest was removed,
        "removed_attendees": [{"email", "response", "removed_at", "removed_by"}] oldest first (the change record).
    """
    tz = zone(ctx, time_zone)
    return event_view(ctx, find(ctx, event_id), tz, full=True)


@app.action(read_only=False)
def create_event(
    ctx: Context[CalendarState],
    title: str,
    start: str,
    end: str,
    attendees: list[str] = [],  # noqa: B006 - never mutated; the schema shows [] as "not given"
    location: str = "",
    description: LongText = "",
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
    you end it. A time without an offset is read in the event's time zone; one that does not
    exist there (the hour skipped when clocks go forward) moves forward by the gap, and one that
    happens twice (when clocks go back) is the first.

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
            America/Chicago; a series keeps its wall-clock time there. Defaults to the company's zone, which every
            event shown gives as "time_zone".

    Returns:
        The new event, as get-event shows it.
    """
    text = require_text(title, "title")
    tz = zone(ctx, time_zone)
    lo, hi = parse_instant(start, tz, "start"), parse_instant(end, tz, "end")
    check_times(lo, hi, tz)
    count, until = check_rule(recurrence, recurrence_count, recurrence_until, lo, hi, tz)
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
    return record_view(ctx, event, tz)


@app.action(read_only=False)
def update_event(
    ctx: Context[CalendarState],
    event_id: str,
    title: str = "",
    start: str = "",
    end: str = "",
    location: str = "",
    description: LongText = "",
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
        remove_attendees: Email addresses to take off the guest list (not the organizer). They leave the
            attendees; the event's change record keeps each removal ("removed_attendees" in get-event).
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
    organizer_only(ctx, event, "change")
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
    check_times(new_start, new_end, tz)
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
        rec.removed_attendees = [*rec.removed_attendees, *(
            RemovedAttendee(email=a.email, response=a.response, removed_at=ctx.now, removed_by=ctx.user)
            for a in rec.attendees if a.email in removing)]  # fmt: skip
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
        return record_view(ctx, rec, tz)
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
        count, until = check_rule(series.recurrence, 0, recurrence_until, copy.start, copy.end, stz)
    else:
        check_rule(series.recurrence, count, "", copy.start, copy.end, stz)
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
    return record_view(ctx, copy, tz)


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
    organizer_only(ctx, event, "cancel")
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
    comment: LongText = "",
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
    return record_view(ctx, records[0], ctx.tz)
