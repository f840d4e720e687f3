"""The calendar's part of the default company: events, series, rooms and bookings."""

from datetime import timedelta

from tests.tools.apps.calendar.conftest import ctx, mine
from tools.apps.calendar import app
from tools.apps.calendar._recurrence import all_instances
from tools.companies import NOW, USER
from tools.companies.default.calendar import build
from tools.companies.default.people import people_records


def test_fixture_counts_and_spread():
    c = ctx()
    events = list(c.state.events.values())
    visible = mine(c)
    single = [e for e in visible if not e.recurrence]
    assert len(events) == 108
    assert len(visible) == 68
    assert len(events) - len(visible) == 40
    assert min(e.start for e in single) >= NOW - timedelta(days=15)
    offsite = [e for e in visible if e.title == "Leadership offsite"]
    assert [(e.start.isoformat(), e.end.isoformat()) for e in offsite] == [
        ("2026-04-22T10:30:00-04:00", "2026-04-24T16:00:00-04:00")
    ]
    assert max(e.end for e in single if e not in offsite) <= NOW + timedelta(days=21)
    assert sum(e.end <= NOW for e in single) == 26
    assert sum(e.organizer == USER for e in visible) == 16
    series = sorted(
        (e.title, e.recurrence, e.recurrence_count, str(e.recurrence_until)) for e in events if e.recurrence
    )
    assert series == [
        ("Atlas cutover stand-up", "weekdays", 0, "2026-04-17"),
        ("Monthly metrics review", "monthly", 12, "None"),
        ("Office hours with Alex", "weekly", 0, "2026-04-16"),
    ]


def test_fixture_rooms_match_the_drive_list_and_are_never_double_booked():
    c = ctx()
    rooms = {r.name: r for r in c.state.rooms.values()}
    assert len(rooms) == 12
    assert (rooms["Hudson Room"].floor, rooms["Hudson Room"].capacity) == (12, 12)
    assert (rooms["Wacker"].office, rooms["Wacker"].capacity) == ("Chicago", 4)
    assert "video conferencing" not in rooms["Presidio"].features
    booked = [e for e in c.state.events.values() if e.room]
    assert len(booked) > 40
    for e in booked:
        room = c.state.rooms[e.room]
        assert e.location.startswith(room.name), e.id
        assert e.attendees[-1].model_dump() == {
            "email": room.email, "response": "accepted", "comment": "", "resource": True
        }  # fmt: skip
        assert sum(not a.resource for a in e.attendees) <= room.capacity, e.id
    spans = sorted(
        (i.event.room, i.start, i.end, i.id)
        for i in all_instances(c, NOW - timedelta(days=60), NOW + timedelta(days=400))
        if i.event.room
    )
    for a, b in zip(spans, spans[1:], strict=False):
        assert a[0] != b[0] or b[1] >= a[2], (a[3], b[3])


def test_fixture_has_pending_invitations_and_rooms():
    c = ctx()
    pending = sorted(e.title for e in mine(c) for a in e.attendees if a.email == USER and a.response == "needsAction")
    assert pending == [
        "Atlas migration go/no-go",
        "Contoso renewal: legal review",
        "Globex partnership intro",
        "Hiring plan Q2",
        "Tailspin Toys escalation review",
    ]
    assert all(
        e.start > NOW for e in mine(c) if any(a.response == "needsAction" and a.email == USER for a in e.attendees)
    )
    locations = {e.location for e in c.state.events.values()}
    assert {"Room 4B", "Hudson Room", "Room 2A", "Lakeside Lodge, Cold Spring NY"} <= locations


def test_fixture_events_are_well_formed():
    for e in ctx().state.events.values():
        assert e.end > e.start, e.id
        assert e.attendees[0].email == e.organizer
        assert e.attendees[0].response == "accepted"
        assert len({a.email for a in e.attendees}) == len(e.attendees), e.id


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_calendar_texts_read_like_an_ordinary_company():
    import json

    text = json.dumps(build(people_records(), NOW, USER)).lower()
    text += " ".join(a.description + json.dumps(a.input_schema) for a in app.actions.values()).lower()
    for word in ("gateway", "episode", "reward", "grade", "task", "training", "rollout", "benchmark", "verif",
                 "mask", "simulat", "agent", "fixture"):  # fmt: skip
        assert word not in text, word
