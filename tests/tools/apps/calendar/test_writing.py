from datetime import datetime, timedelta

import pytest

from tests.conftest import make_ctx
from tools.apps import calendar
from tools.apps.calendar import CalendarState
from tools.apps.calendar._rules import all_instances
from tools.apps.calendar.fixture import build
from tools.fixtures import NOW, USER
from tools.fixtures.people import people_records
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

PRIYA = "priya.shah@northwind.example"
OWEN = "owen.bell@northwind.example"


def ctx():
    return make_ctx("calendar", CalendarState.model_validate(build(people_records(), NOW, USER)))


def call(c, name, **args):
    return calendar.app.actions[name].invoke(c, args)


def event_titled(c, title, nth=0):
    hits = sorted((e for e in c.state.events.values() if e.title == title), key=lambda e: e.start)
    return hits[nth]


def mine(c):
    return [e for e in c.state.events.values() if any(a.email == USER for a in e.attendees)]


# --- the initial calendar ---------------------------------------------------------------------


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


# --- list_events --------------------------------------------------------------------------------


def test_list_events_defaults_to_the_next_seven_days_sorted():
    out = call(ctx(), "list_events", page_size=100)
    assert out["window"] == {"start": "2026-03-09T09:00:00-04:00", "end": "2026-03-16T09:00:00-04:00"}
    assert out["total"] == 17
    starts = [e["start"] for e in out["events"]]
    assert starts == sorted(starts)
    first = out["events"][0]
    assert first["title"] == "Dana / Alex 1:1"
    assert first["start"] == "2026-03-09T10:00:00-04:00"
    assert first["attendees"] == [
        {"email": "dana.whitfield@northwind.example", "response": "accepted"},
        {"email": USER, "response": "accepted"},
    ]
    assert out["events"][-1]["title"] == "Coffee with Priya"


def test_list_events_hides_meetings_the_user_is_not_on():
    out = call(ctx(), "list_events", start="2026-02-23", end="2026-04-25", page_size=100)
    titles = {e["title"] for e in out["events"]}
    assert out["total"] == 80  # 65 one-off events and 15 occurrences of three series
    assert "Platform team standup" not in titles
    assert "Priya: dentist" not in titles
    assert "Fabrikam contract renewal" in titles  # declined events still show, with the answer
    declined = next(e for e in out["events"] if e["title"] == "Fabrikam contract renewal")
    assert declined["my_response"] == "declined"


def test_list_events_query_matches_all_words_and_bare_dates():
    out = call(ctx(), "list_events", start="2026-02-23", end="2026-03-16", query="contoso call")
    assert [(e["title"], e["start"]) for e in out["events"]] == [
        ("Contoso renewal: pricing prep", "2026-02-25T10:00:00-05:00"),  # "renewal call" in its description
        ("Contoso renewal call", "2026-03-03T10:00:00-05:00"),
        ("Contoso renewal call", "2026-03-13T11:00:00-04:00"),
    ]
    by_attendee = call(ctx(), "list_events", start="2026-03-01", end="2026-03-31", query="k.osei@globex")
    assert [e["title"] for e in by_attendee["events"]] == ["Globex partnership intro"]


def test_list_events_includes_events_overlapping_the_window():
    out = call(ctx(), "list_events", start="2026-04-23T10:00", end="2026-04-23T11:00")
    assert [e["title"] for e in out["events"]] == ["Leadership offsite"]
    assert out["events"][0]["start"] == "2026-04-22T10:30:00-04:00"
    edge = call(ctx(), "list_events", start="2026-03-09T10:30", end="2026-03-09T11:00")
    assert edge["total"] == 0  # the 1:1 ends at 10:30, the budget review starts at 11:00


def test_list_events_pages():
    c = ctx()
    one = call(c, "list_events", page_size=5)
    four = call(c, "list_events", page_size=5, page=4)
    assert one["next_page"] == 2
    assert [e["title"] for e in four["events"]] == ["Contoso renewal call", "Coffee with Priya"]
    assert four["next_page"] is None


def test_list_events_bad_window_names_the_parameter():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_events", start="next tuesday")
    assert err.value.parameter == "start"
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_events", start="2026-03-10", end="2026-03-09")
    assert err.value.parameter == "end"
    assert "after start" in err.value.message


@pytest.mark.parametrize("action", ["list_events", "find_available_rooms"])  # find_free_slots: 31 days
def test_calendar_reads_cover_a_year_at_most(action):
    c = ctx()
    year = call(c, action, start="2026-03-10T00:00:00", end="2027-03-11T00:00:00")  # 366 days: answered
    assert isinstance(year, dict) and year
    with pytest.raises(InvalidArgument) as err:
        call(c, action, start="2026-03-10T00:00:00", end="2027-03-11T00:00:01")
    assert err.value.parameter == "end" and "longer than 366 days" in err.value.message


# --- get_event ----------------------------------------------------------------------------------


def test_get_event_shows_description_and_comments():
    c = ctx()
    e = event_titled(c, "Vendor review: Fabrikam invoices")
    out = call(c, "get_event", event_id=e.id)
    assert "INV-20417" in out["description"]
    assert out["my_response"] == "declined"
    me = next(a for a in out["attendees"] if a["email"] == USER)
    assert me["comment"] == "Board outline prep that afternoon; Victor has my notes."
    assert out["start"] == "2026-03-05T15:00:00-05:00"


def test_get_event_unknown_id():
    with pytest.raises(NotFound) as err:
        call(ctx(), "get_event", event_id="evt_999")
    assert err.value.parameter == "event_id"
    assert "list-events" in err.value.message


# --- create_event -------------------------------------------------------------------------------


def test_create_event_invites_people_in_the_company_zone():
    c = ctx()
    out = call(
        c,
        "create_event",
        title="  Q2 hiring sync ",
        start="2026-03-12T10:00",
        end="2026-03-12T10:30",
        attendees=["Nora.Patel@northwind.example", "j.moss@litware.example", USER, "nora.patel@northwind.example"],
        location="Room 4B",
    )
    assert out["id"] == "evt_n1"
    assert out["title"] == "Q2 hiring sync"
    assert out["start"] == "2026-03-12T10:00:00-04:00"
    assert out["end"] == "2026-03-12T10:30:00-04:00"
    assert out["organizer"] == USER
    assert [(a["email"], a["response"]) for a in out["attendees"]] == [
        (USER, "accepted"),
        ("nora.patel@northwind.example", "needsAction"),
        ("j.moss@litware.example", "needsAction"),
    ]
    stored = c.state.events["evt_n1"]
    assert stored.location == "Room 4B"
    assert stored.start == datetime.fromisoformat("2026-03-12T14:00:00+00:00")
    listed = call(c, "list_events", start="2026-03-12", end="2026-03-13", query="hiring")
    assert [e["id"] for e in listed["events"]] == ["evt_n1"]


def test_create_event_keeps_an_explicit_offset():
    c = ctx()
    out = call(c, "create_event", title="Call with Grace", start="2026-03-12T15:00:00Z", end="2026-03-12T15:15:00Z")
    assert out["start"] == "2026-03-12T11:00:00-04:00"
    assert out["attendees"] == [{"email": USER, "response": "accepted", "comment": "", "resource": False}]


@pytest.mark.parametrize(
    ("args", "error", "parameter"),
    [
        ({"start": "2026-03-12T11:00", "end": "2026-03-12T10:00"}, InvalidArgument, "end"),
        ({"start": "2026-03-12T11:00", "end": "2026-03-12T11:00"}, InvalidArgument, "end"),
        ({"start": "12 March", "end": "2026-03-12T10:00"}, InvalidArgument, "start"),
        ({"attendees": ["nobody@northwind.example"]}, NotFound, "attendees"),
        ({"attendees": ["priya shah"]}, InvalidArgument, "attendees"),
        ({"title": "   "}, InvalidArgument, "title"),
    ],
)
def test_create_event_refuses_bad_input_and_changes_nothing(args, error, parameter):
    c = ctx()
    before = c.world.snapshot()
    base = {"title": "Planning", "start": "2026-03-12T10:00", "end": "2026-03-12T11:00", "attendees": [PRIYA]}
    with pytest.raises(error) as err:
        call(c, "create_event", **{**base, **args})
    assert err.value.parameter == parameter
    assert type(err.value) is error
    assert c.world.snapshot() == before


def test_create_event_unknown_colleague_message_points_to_the_directory():
    with pytest.raises(NotFound) as err:
        call(
            ctx(),
            "create_event",
            title="x",
            start="2026-03-12T10:00",
            end="2026-03-12T11:00",
            attendees=["x@northwind.example"],
        )
    assert "search-people" in err.value.message


# --- update_event -------------------------------------------------------------------------------


def test_update_event_moving_the_start_keeps_the_length():
    c = ctx()
    e = event_titled(c, "Offsite dry run")
    out = call(
        c, "update_event", event_id=e.id, start="2026-03-23T15:00", add_attendees=["isaac.king@northwind.example"]
    )
    assert (out["start"], out["end"]) == ("2026-03-23T15:00:00-04:00", "2026-03-23T16:00:00-04:00")
    assert out["attendees"][-2] == {
        "email": "isaac.king@northwind.example", "response": "needsAction", "comment": "", "resource": False
    }  # fmt: skip
    assert out["attendees"][-1]["email"] == "hudson-room@rooms.northwind.example"  # the room stays last
    assert out["title"] == "Offsite dry run"
    assert (out["location"], out["room"]) == ("Hudson Room", "Hudson Room")


def test_update_event_changes_fields_and_removes_guests():
    c = ctx()
    e = event_titled(c, "Ops sync", 3)
    answers = {a.email: a.response for a in e.attendees}
    out = call(
        c,
        "update_event",
        event_id=e.id,
        title="Ops sync (short)",
        end="2026-03-19T11:15",
        location="Hudson Room",
        description="Only the lease question this week.",
        remove_attendees=["Leo.Hall@northwind.example"],
        add_attendees=["ruby.walker@northwind.example"],  # already invited: left as is
    )
    stored = c.state.events[e.id]
    assert stored.title == "Ops sync (short)"
    assert out["start"] == "2026-03-19T11:00:00-04:00"
    assert out["end"] == "2026-03-19T11:15:00-04:00"
    assert stored.location == "Hudson Room"
    assert stored.description == "Only the lease question this week."
    assert [a.email for a in stored.attendees] == [
        USER,
        "victor.alvarez@northwind.example",
        "ruby.walker@northwind.example",
        "room-4b@rooms.northwind.example",
    ]
    assert {a.email: a.response for a in stored.attendees} == {k: v for k, v in answers.items() if "leo" not in k}


def test_update_event_by_someone_else_is_refused():
    c = ctx()
    e = event_titled(c, "Board deck review")
    before = c.world.snapshot()
    with pytest.raises(Conflict) as err:
        call(c, "update_event", event_id=e.id, title="Board deck review (moved)")
    assert "dana.whitfield@northwind.example" in err.value.message
    assert "respond-to-event" in err.value.message
    assert c.world.snapshot() == before


@pytest.mark.parametrize(
    ("args", "error", "parameter"),
    [
        ({"end": "2026-03-23T12:00"}, InvalidArgument, "end"),
        ({"start": "2026-03-23T15:00", "end": "2026-03-23T14:00"}, InvalidArgument, "end"),
        ({"start": "soon"}, InvalidArgument, "start"),
        ({"remove_attendees": [USER]}, InvalidArgument, "remove_attendees"),
        ({"remove_attendees": ["owen.bell@northwind.example"]}, NotFound, "remove_attendees"),
        ({"add_attendees": [OWEN], "remove_attendees": [OWEN]}, InvalidArgument, "remove_attendees"),
        ({"add_attendees": ["ghost@northwind.example"]}, NotFound, "add_attendees"),
        ({}, InvalidArgument, None),
    ],
)
def test_update_event_refuses_bad_input_and_changes_nothing(args, error, parameter):
    c = ctx()
    e = event_titled(c, "Offsite dry run")
    before = c.world.snapshot()
    with pytest.raises(error) as err:
        call(c, "update_event", event_id=e.id, **args)
    assert err.value.parameter == parameter
    assert type(err.value) is error
    assert c.world.snapshot() == before


def test_update_event_unknown_id():
    with pytest.raises(NotFound) as err:
        call(ctx(), "update_event", event_id="evt_nope", title="x")
    assert err.value.parameter == "event_id"


# --- delete_event -------------------------------------------------------------------------------


def test_delete_event_by_organizer():
    c = ctx()
    e = event_titled(c, "Offsite dry run")
    assert call(c, "delete_event", event_id=e.id) == {"deleted": e.id, "title": "Offsite dry run", "scope": "this"}
    assert e.id not in c.state.events
    assert len(c.state.events) == 107
    with pytest.raises(NotFound):
        call(c, "get_event", event_id=e.id)


def test_delete_event_by_guest_suggests_declining():
    c = ctx()
    e = event_titled(c, "Atlas migration go/no-go")
    before = c.world.snapshot()
    with pytest.raises(Conflict) as err:
        call(c, "delete_event", event_id=e.id)
    assert "declined" in err.value.message
    assert "elena.petrova@northwind.example" in err.value.message
    assert c.world.snapshot() == before


def test_delete_event_unknown_id_changes_nothing():
    c = ctx()
    before = c.world.snapshot()
    with pytest.raises(NotFound):
        call(c, "delete_event", event_id="evt_404")
    assert c.world.snapshot() == before


# --- respond_to_event ---------------------------------------------------------------------------


def test_respond_to_event_records_answer_and_comment():
    c = ctx()
    e = event_titled(c, "Atlas migration go/no-go")
    out = call(c, "respond_to_event", event_id=e.id, response="declined", comment=" Out that morning. ")
    assert out["my_response"] == "declined"
    me = next(a for a in c.state.events[e.id].attendees if a.email == USER)
    assert (me.response, me.comment) == ("declined", "Out that morning.")
    again = call(c, "respond_to_event", event_id=e.id, response="accepted")
    assert again["my_response"] == "accepted"
    assert next(a for a in again["attendees"] if a["email"] == USER)["comment"] == ""
    others = [a.response for a in c.state.events[e.id].attendees if a.email != USER]
    assert others == [a.response for a in e.attendees if a.email != USER]


def test_respond_to_event_not_invited_is_refused():
    c = ctx()
    e = event_titled(c, "Platform team standup")
    before = c.world.snapshot()
    with pytest.raises(Conflict) as err:
        call(c, "respond_to_event", event_id=e.id, response="accepted")
    assert "liam.chen@northwind.example" in err.value.message
    assert c.world.snapshot() == before


def test_respond_to_event_bad_answer_names_the_parameter():
    c = ctx()
    e = event_titled(c, "Hiring plan Q2")
    with pytest.raises(InvalidArgument) as err:
        call(c, "respond_to_event", event_id=e.id, response="maybe")
    assert err.value.parameter == "response"
    assert "tentative" in err.value.message


# --- find_free_slots ----------------------------------------------------------------------------


def slots(out):
    return [(s["start"][5:16], s["end"][11:16]) for s in out["slots"]]


def test_find_free_slots_for_three_people_this_week():
    out = call(ctx(), "find_free_slots", people=[PRIYA, OWEN], duration_minutes=60, max_results=9)
    assert out["people"] == [USER, PRIYA, OWEN]
    assert out["window"] == {"start": "2026-03-09T09:00:00-04:00", "end": "2026-03-14T00:00:00-04:00"}
    assert slots(out) == [
        ("03-09T09:00", "10:00"),
        ("03-09T12:00", "13:00"),
        ("03-09T13:00", "14:00"),
        ("03-09T14:30", "15:30"),
        ("03-09T15:30", "16:30"),
        ("03-10T09:00", "10:00"),
        ("03-10T11:00", "12:00"),  # 10:00 is an unanswered invitation: still busy; 13:00-15:00 is the audit prep
        ("03-10T12:00", "13:00"),
        ("03-10T15:00", "16:00"),
    ]


def test_find_free_slots_skips_weekends_and_multi_day_events():
    out = call(ctx(), "find_free_slots", start="2026-04-23", end="2026-04-28", max_results=3)
    # the monthly metrics review holds April 27 09:00-10:00
    assert slots(out) == [("04-24T16:00", "16:30"), ("04-24T16:30", "17:00"), ("04-27T10:00", "10:30")]


def test_find_free_slots_ignores_declined_events():
    out = call(ctx(), "find_free_slots", duration_minutes=60, start="2026-03-25T11:00", end="2026-03-25T12:00")
    assert slots(out) == [("03-25T11:00", "12:00")]  # Alex declined the Fabrikam renewal at 11:00
    busy = call(
        ctx(),
        "find_free_slots",
        people=["victor.alvarez@northwind.example"],
        duration_minutes=60,
        start="2026-03-25T11:00",
        end="2026-03-25T12:00",
    )
    assert busy["slots"] == []


def test_find_free_slots_rounds_to_the_quarter_hour_and_never_starts_in_the_past():
    out = call(ctx(), "find_free_slots", start="2026-03-16T09:05", max_results=2)
    assert slots(out) == [("03-16T09:15", "09:45"), ("03-16T10:30", "11:00")]
    past = call(ctx(), "find_free_slots", start="2026-03-02", max_results=1)
    assert past["window"] == {"start": "2026-03-09T09:00:00-04:00", "end": "2026-03-14T00:00:00-04:00"}
    assert slots(past) == [("03-09T09:00", "09:30")]


def test_find_free_slots_other_peoples_private_events_count():
    out = call(
        ctx(), "find_free_slots", people=[PRIYA], duration_minutes=90, start="2026-03-11T13:30", end="2026-03-11T17:00"
    )
    assert slots(out) == []  # Priya's dentist 14:00-15:30, Alex's Atlas status 15:00 and OKR check-in 16:00


@pytest.mark.parametrize(
    ("args", "error", "parameter"),
    [
        ({"people": ["m.harlow@contoso.example"]}, InvalidArgument, "people"),
        ({"people": ["ghost@northwind.example"]}, NotFound, "people"),
        ({"duration_minutes": 10}, InvalidArgument, "duration_minutes"),
        ({"duration_minutes": 481}, InvalidArgument, "duration_minutes"),
        ({"start": "2026-03-10", "end": "2026-04-20"}, InvalidArgument, "end"),
        ({"start": "2026-03-10", "end": "2026-03-10"}, InvalidArgument, "end"),
        ({"start": "2026-03-02", "end": "2026-03-06"}, InvalidArgument, "end"),
        ({"max_results": 0}, InvalidArgument, "max_results"),
    ],
)
def test_find_free_slots_bad_input_names_the_parameter(args, error, parameter):
    with pytest.raises(error) as err:
        call(ctx(), "find_free_slots", **args)
    assert err.value.parameter == parameter
    assert type(err.value) is error


def test_actions_are_declared_with_the_right_read_only_flags():
    flags = {name: a.read_only for name, a in calendar.app.actions.items()}
    assert flags == {
        "list_events": True,
        "get_event": True,
        "create_event": False,
        "update_event": False,
        "delete_event": False,
        "respond_to_event": False,
        "find_free_slots": True,
        "list_rooms": True,
        "find_available_rooms": True,
    }


def test_without_a_directory_any_well_formed_address_is_accepted():
    c = ctx()
    del c.world.states["directory"]
    out = call(
        c,
        "create_event",
        title="x",
        start="2026-03-12T10:00",
        end="2026-03-12T11:00",
        attendees=["new.hire@northwind.example"],
    )
    assert [a["email"] for a in out["attendees"]] == [USER, "new.hire@northwind.example"]
    with pytest.raises(InvalidArgument) as err:
        call(c, "find_free_slots", people=["someone@contoso.example"])
    assert err.value.parameter == "people"


# --- repeating events ---------------------------------------------------------------------------


def new_series(c, **extra):
    args = {
        "title": "Offsite prep",
        "start": "2026-03-16T15:00",
        "end": "2026-03-16T15:30",
        "attendees": ["ruby.walker@northwind.example", "amelia.ward@northwind.example"],
        "recurrence": "weekly",
        "recurrence_count": 5,
        **extra,
    }
    return call(c, "create_event", **args)


def occurrences(c, query="offsite prep", start="2026-03-01", end="2026-05-01"):
    out = call(c, "list_events", start=start, end=end, query=query, page_size=100)
    return [(e["id"], e["start"][:16]) for e in out["events"]]


def test_create_weekly_series_lists_each_occurrence_with_its_own_id():
    c = ctx()
    out = new_series(c)
    assert (out["id"], out["repeats"], out["recurrence"], out["recurrence_count"]) == (
        "evt_n1", "weekly on Mondays, 5 times", "weekly", 5
    )  # fmt: skip
    assert len(c.state.events) == 109  # one record for the whole series
    assert occurrences(c) == [
        ("evt_n1@2026-03-16", "2026-03-16T15:00"),
        ("evt_n1@2026-03-23", "2026-03-23T15:00"),
        ("evt_n1@2026-03-30", "2026-03-30T15:00"),
        ("evt_n1@2026-04-06", "2026-04-06T15:00"),
        ("evt_n1@2026-04-13", "2026-04-13T15:00"),
    ]
    one = call(c, "get_event", event_id="evt_n1@2026-03-30")
    assert (one["series_id"], one["start"], one["title"]) == ("evt_n1", "2026-03-30T15:00:00-04:00", "Offsite prep")
    assert "recurrence" not in one  # an occurrence, not the series


@pytest.mark.parametrize(
    ("rule", "extra", "expected"),
    [
        ("daily", {"recurrence_count": 3}, ["03-14", "03-15", "03-16"]),
        ("weekdays", {"recurrence_until": "2026-03-18"}, ["03-16", "03-17", "03-18"]),
        ("monthly", {"recurrence_count": 3}, ["03-31", "05-31", "07-31"]),
    ],
)
def test_rules_daily_weekdays_and_monthly(rule, extra, expected):
    c = ctx()
    first = {"daily": "2026-03-14", "weekdays": "2026-03-16", "monthly": "2026-03-31"}[rule]
    call(c, "create_event", title="Rule check", start=f"{first}T08:00", end=f"{first}T08:15", recurrence=rule, **extra)
    got = occurrences(c, "rule check", start="2026-03-01", end="2026-12-31")
    assert [start[5:10] for _, start in got] == expected  # monthly skips months without a 31st
    assert all(start.endswith("T08:00") for _, start in got)


def test_a_series_keeps_its_wall_clock_time_across_daylight_saving():
    c = ctx()
    call(c, "create_event", title="Early sync", start="2026-03-02T09:00", end="2026-03-02T09:30",
         recurrence="weekly", recurrence_count=2)  # fmt: skip
    out = call(c, "list_events", start="2026-03-01", end="2026-03-10", query="early sync")
    assert [e["start"] for e in out["events"]] == ["2026-03-02T09:00:00-05:00", "2026-03-09T09:00:00-04:00"]


def test_change_one_occurrence_then_the_whole_series():
    c = ctx()
    new_series(c, room="Room 2A")
    moved = call(c, "update_event", event_id="evt_n1@2026-03-23", start="2026-03-24T15:00", title="Offsite prep (Tue)")
    assert (moved["id"], moved["series_id"], moved["start"]) == (
        "evt_n1@2026-03-23", "evt_n1", "2026-03-24T15:00:00-04:00"
    )  # fmt: skip
    stored = c.state.events["evt_n1@2026-03-23"]
    assert (stored.recurrence, stored.room, stored.original_start.isoformat()) == (
        "", "room_2a", "2026-03-23T15:00:00-04:00"
    )  # fmt: skip
    out = call(c, "update_event", event_id="evt_n1@2026-04-06", start="2026-04-06T16:00", scope="all",
               description="Agenda in the offsite folder", add_attendees=["nora.patel@northwind.example"])  # fmt: skip
    assert (out["id"], out["start"]) == ("evt_n1", "2026-03-16T16:00:00-04:00")
    assert occurrences(c) == [
        ("evt_n1@2026-03-16", "2026-03-16T16:00"),
        ("evt_n1@2026-03-23", "2026-03-24T15:00"),  # changed on its own: keeps its time
        ("evt_n1@2026-03-30", "2026-03-30T16:00"),
        ("evt_n1@2026-04-06", "2026-04-06T16:00"),
        ("evt_n1@2026-04-13", "2026-04-13T16:00"),
    ]
    assert c.state.events["evt_n1@2026-03-23"].title == "Offsite prep (Tue)"
    assert c.state.events["evt_n1@2026-03-23"].description == "Agenda in the offsite folder"
    assert "nora.patel@northwind.example" in [a.email for a in c.state.events["evt_n1@2026-03-23"].attendees]


def test_end_a_series_early_drops_later_changes():
    c = ctx()
    new_series(c)
    call(c, "update_event", event_id="evt_n1@2026-04-13", title="Last prep")
    out = call(c, "update_event", event_id="evt_n1", recurrence_until="2026-03-31", scope="all")
    assert (out["recurrence_count"], out["recurrence_until"], out["repeats"]) == (
        0, "2026-03-31", "weekly on Mondays, until 2026-03-31"
    )  # fmt: skip
    assert "evt_n1@2026-04-13" not in c.state.events
    assert [i for i, _ in occurrences(c)] == ["evt_n1@2026-03-16", "evt_n1@2026-03-23", "evt_n1@2026-03-30"]


def test_cancel_one_occurrence_then_the_series():
    c = ctx()
    new_series(c)
    call(c, "update_event", event_id="evt_n1@2026-03-23", title="Moved")
    assert call(c, "delete_event", event_id="evt_n1@2026-03-30") == {
        "deleted": "evt_n1@2026-03-30", "title": "Offsite prep", "scope": "this"
    }  # fmt: skip
    assert call(c, "delete_event", event_id="evt_n1@2026-03-23")["title"] == "Moved"
    assert [str(d) for d in c.state.events["evt_n1"].cancelled_dates] == ["2026-03-23", "2026-03-30"]
    assert [i for i, _ in occurrences(c)] == ["evt_n1@2026-03-16", "evt_n1@2026-04-06", "evt_n1@2026-04-13"]
    with pytest.raises(NotFound) as err:
        call(c, "get_event", event_id="evt_n1@2026-03-30")
    assert "no occurrence on 2026-03-30" in err.value.message
    call(c, "update_event", event_id="evt_n1@2026-04-06", title="Kept apart")
    assert call(c, "delete_event", event_id="evt_n1@2026-04-13", scope="all")["scope"] == "all"
    assert not [e for e in c.state.events if e.startswith("evt_n1")]


def test_respond_to_one_occurrence_or_all_of_a_series():
    c = ctx()
    standup = event_titled(c, "Atlas cutover stand-up")
    day = f"{standup.id}@2026-04-15"
    out = call(c, "respond_to_event", event_id=day, response="declined", comment="At the bank that morning.")
    assert (out["id"], out["my_response"]) == (day, "declined")
    assert next(a for a in standup.attendees if a.email == USER).response == "accepted"
    listed = call(c, "list_events", start="2026-04-13", end="2026-04-18", query="stand-up")["events"]
    assert [e["my_response"] for e in listed] == ["accepted", "accepted", "declined", "accepted", "accepted"]
    call(c, "respond_to_event", event_id=standup.id, response="tentative", scope="all")
    listed = call(c, "list_events", start="2026-04-13", end="2026-04-18", query="stand-up")["events"]
    assert {e["my_response"] for e in listed} == {"tentative"}
    assert c.state.events[day].attendees[-1].comment == ""  # the answer and note are replaced for every occurrence


def test_repeating_events_count_as_busy_for_free_slots():
    out = call(ctx(), "find_free_slots", start="2026-04-14T08:00", end="2026-04-14T10:00", max_results=1)
    assert slots(out) == [("04-14T09:00", "09:30")]  # the stand-up ends at 09:00
    busy = call(ctx(), "find_free_slots", start="2026-03-12T10:00", end="2026-03-12T10:30")
    assert busy["slots"] == []  # office hours with Alex, every Thursday at 10:00


@pytest.mark.parametrize(
    ("args", "parameter"),
    [
        ({"recurrence": "fortnightly"}, "recurrence"),
        ({"recurrence_count": 3}, "recurrence"),
        ({"recurrence_until": "2026-04-30"}, "recurrence"),
        ({"recurrence": "weekly", "recurrence_count": 3, "recurrence_until": "2026-04-30"}, "recurrence_until"),
        ({"recurrence": "weekly", "recurrence_until": "2026-03-01"}, "recurrence_until"),
        ({"recurrence": "weekly", "recurrence_until": "soon"}, "recurrence_until"),
        ({"recurrence": "weekly", "recurrence_count": 501}, "recurrence_count"),
        ({"recurrence": "weekdays", "start": "2026-03-14T10:00", "end": "2026-03-14T11:00"}, "start"),
        ({"recurrence": "daily", "end": "2026-03-13T10:00"}, "end"),
    ],
)
def test_bad_repeat_rules_are_refused_and_change_nothing(args, parameter):
    c = ctx()
    before = c.world.snapshot()
    base = {"title": "Planning", "start": "2026-03-12T10:00", "end": "2026-03-12T11:00"}
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_event", **{**base, **args})
    assert err.value.parameter == parameter
    assert c.world.snapshot() == before


def test_series_scope_errors_change_nothing():
    c = ctx()
    new_series(c)
    before = c.world.snapshot()
    cases = [
        ("update_event", {"event_id": "evt_n1", "title": "x"}, InvalidArgument, "scope"),
        ("delete_event", {"event_id": "evt_n1"}, InvalidArgument, "scope"),
        ("respond_to_event", {"event_id": "evt_n1", "response": "accepted"}, InvalidArgument, "scope"),
        ("update_event", {"event_id": "evt_n1@2026-03-23", "start": "2026-03-24T15:00", "scope": "all"},
         InvalidArgument, "start"),
        ("update_event", {"event_id": "evt_n1@2026-03-23", "recurrence_until": "2026-04-01"}, InvalidArgument, "scope"),
        ("update_event", {"event_id": "evt_n1", "recurrence_until": "2026-03-01", "scope": "all"},
         InvalidArgument, "recurrence_until"),
        ("update_event", {"event_id": "evt_n1@2026-03-17", "title": "x"}, NotFound, "event_id"),
        ("get_event", {"event_id": "evt_054@2026-03-17"}, NotFound, "event_id"),
        ("delete_event", {"event_id": "evt_n1@2026-13-01"}, NotFound, "event_id"),
    ]  # fmt: skip
    for action, args, error, parameter in cases:
        with pytest.raises(error) as err:
            call(c, action, **args)
        assert (err.value.parameter, type(err.value)) == (parameter, error), action
    assert c.world.snapshot() == before


# --- rooms -----------------------------------------------------------------------------------------


def test_list_rooms_filters_by_office_and_size():
    out = call(ctx(), "list_rooms", office="new york", min_capacity=10)
    assert [r["name"] for r in out["rooms"]] == ["Harbor Room", "Room 4B", "Hudson Room", "Boardroom", "Main Hall"]
    assert out["rooms"][2]["notes"] == "Exec staff meetings; book through Amelia Ward"
    assert [r["name"] for r in call(ctx(), "list_rooms", office="Chicago")["rooms"]] == ["Wacker", "Lakeview"]


def test_find_available_rooms_leaves_out_booked_and_small_rooms():
    c = ctx()
    out = call(c, "find_available_rooms", start="2026-03-17T14:00", end="2026-03-17T15:00", min_capacity=8,
               office="New York", feature="whiteboard")  # fmt: skip
    assert [r["name"] for r in out["rooms"]] == ["Room 3C", "Room 4B"]  # Hudson: exec staff meeting at 14:00
    chicago = call(c, "find_available_rooms", start="2026-03-17T09:00", end="2026-03-17T10:00",
                   time_zone="America/Chicago", office="Chicago")  # fmt: skip
    assert chicago["window"] == {"start": "2026-03-17T09:00:00-05:00", "end": "2026-03-17T10:00:00-05:00"}
    taken = call(c, "find_available_rooms", start="2026-03-12T10:00", end="2026-03-12T10:15", office="new york")
    assert "Room 3C" not in [r["name"] for r in taken["rooms"]]  # office hours, a repeating booking
    with pytest.raises(InvalidArgument) as err:
        call(c, "find_available_rooms", start="2026-03-17T15:00", end="2026-03-17T14:00")
    assert err.value.parameter == "end"


def test_book_a_room_on_create_adds_it_as_a_resource():
    c = ctx()
    guests = ["james.okafor@northwind.example", "marcus.reed@northwind.example"]
    out = call(c, "create_event", title="Pricing final", start="2026-03-17T14:00", end="2026-03-17T15:00",
               attendees=guests, room="harbor room")  # fmt: skip
    stored = c.state.events[out["id"]]
    assert (stored.room, stored.location, out["room"]) == ("room_harbor", "Harbor Room", "Harbor Room")
    assert [(a.email, a.response, a.resource) for a in stored.attendees][-1] == (
        "harbor-room@rooms.northwind.example", "accepted", True
    )  # fmt: skip
    after = call(c, "find_available_rooms", start="2026-03-17T14:30", end="2026-03-17T16:00", office="new york")
    assert "Harbor Room" not in [r["name"] for r in after["rooms"]]


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        ({"room": "Hudson Room"}, Conflict, "taken from 2026-03-17T14:00:00-04:00"),
        ({"room": "Room 9Z"}, NotFound, "there is no room"),
        ({"room": "Wacker", "attendees": [PRIYA, OWEN, "grace.kim@northwind.example", "tomas.rivera@northwind.ex"
                                              "ample"]}, Conflict, "seats 4 but 5 people"),
        ({"room": "Room 3C", "recurrence": "weekly", "start": "2026-02-26T10:00", "end": "2026-02-26T10:30"},
         Conflict, "Office hours with Alex"),
        ({"attendees": ["room-4b@rooms.northwind.example"]}, InvalidArgument, "room parameter"),
    ],
)  # fmt: skip
def test_room_booking_refusals_change_nothing(args, error, words):
    c = ctx()
    before = c.world.snapshot()
    base = {"title": "Planning", "start": "2026-03-17T14:00", "end": "2026-03-17T15:00"}
    with pytest.raises(error) as err:
        call(c, "create_event", **{**base, **args})
    assert words in err.value.message
    assert type(err.value) is error
    assert c.world.snapshot() == before


def test_a_repeating_booking_blocks_a_later_one_off_booking():
    c = ctx()
    new_series(c, room="Room 2A")
    with pytest.raises(Conflict) as err:
        call(c, "create_event", title="1:1", start="2026-04-06T15:15", end="2026-04-06T15:45", room="Room 2A")
    assert "Offsite prep" in err.value.message
    call(c, "delete_event", event_id="evt_n1@2026-04-06")
    out = call(c, "create_event", title="1:1", start="2026-04-06T15:15", end="2026-04-06T15:45", room="Room 2A")
    assert out["room"] == "Room 2A"


def test_change_and_release_a_room_on_update():
    c = ctx()
    e = event_titled(c, "Offsite dry run")
    with pytest.raises(Conflict) as err:
        call(c, "update_event", event_id=e.id, room="Wacker")
    assert "Wacker seats 4 but 5 people are invited" in err.value.message
    out = call(c, "update_event", event_id=e.id, room="Boardroom")
    stored = c.state.events[e.id]
    assert (stored.room, stored.location, stored.attendees[-1].email) == (
        "room_boardroom", "Boardroom", "boardroom@rooms.northwind.example"
    )  # fmt: skip
    assert out["room"] == "Boardroom"
    call(c, "update_event", event_id=e.id, release_room=True)
    assert (c.state.events[e.id].room, c.state.events[e.id].location) == ("", "")
    assert not any(a.resource for a in c.state.events[e.id].attendees)
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_event", event_id=e.id, room="Room 3C", release_room=True)
    assert err.value.parameter == "release_room"


def test_moving_a_booked_event_onto_a_taken_room_is_refused():
    c = ctx()
    ops = event_titled(c, "Ops sync", 2)  # Thursday March 12, Room 4B
    before = c.world.snapshot()
    with pytest.raises(Conflict) as err:
        call(c, "update_event", event_id=ops.id, start="2026-03-11T15:00")  # Atlas status holds 4B
    assert "Atlas migration status" in err.value.message
    assert c.world.snapshot() == before
    moved = call(c, "update_event", event_id=ops.id, start="2026-03-12T12:00")
    assert moved["end"] == "2026-03-12T12:30:00-04:00"


# --- time zones -----------------------------------------------------------------------------------


def test_time_zone_reads_and_shows_times_there():
    c = ctx()
    out = call(c, "create_event", title="Chicago check-in", start="2026-03-31T09:00", end="2026-03-31T09:30",
               time_zone="America/Chicago", room="Lakeview")  # fmt: skip
    assert (out["start"], out["time_zone"]) == ("2026-03-31T09:00:00-05:00", "America/Chicago")
    assert c.state.events[out["id"]].start.isoformat() == "2026-03-31T09:00:00-05:00"
    shown = call(c, "list_events", start="2026-03-31T10:00", end="2026-03-31T10:30", query="chicago")
    assert shown["events"][0]["start"] == "2026-03-31T10:00:00-04:00"
    london = call(c, "get_event", event_id=out["id"], time_zone="Europe/London")
    assert london["start"] == "2026-03-31T15:00:00+01:00"
    window = call(c, "list_events", start="2026-03-31", end="2026-04-01", time_zone="Europe/London")
    assert window["window"] == {"start": "2026-03-31T00:00:00+01:00", "end": "2026-04-01T00:00:00+01:00"}


def test_a_series_planned_in_another_zone_keeps_its_time_there():
    c = ctx()
    call(c, "create_event", title="London sync", start="2026-03-23T09:00", end="2026-03-23T09:30",
         time_zone="Europe/London", recurrence="weekly", recurrence_count=2)  # fmt: skip
    out = call(c, "list_events", start="2026-03-20", end="2026-04-01", query="london", time_zone="Europe/London")
    assert [e["start"] for e in out["events"]] == ["2026-03-23T09:00:00+00:00", "2026-03-30T09:00:00+01:00"]


@pytest.mark.parametrize("action", ["list_events", "create_event", "get_event", "find_available_rooms"])
def test_unknown_time_zone_names_the_parameter(action):
    args = {
        "list_events": {},
        "create_event": {"title": "x", "start": "2026-03-12T10:00", "end": "2026-03-12T11:00"},
        "get_event": {"event_id": "evt_054"},
        "find_available_rooms": {"start": "2026-03-12T10:00", "end": "2026-03-12T11:00"},
    }[action]
    c = ctx()
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, action, time_zone="Mars/Olympus", **args)
    assert err.value.parameter == "time_zone"
    assert "IANA" in err.value.message
    assert c.world.snapshot() == before


# --- texts ----------------------------------------------------------------------------------------


def test_calendar_texts_read_like_an_ordinary_company():
    import json

    text = json.dumps(build(people_records(), NOW, USER)).lower()
    text += " ".join(a.description + json.dumps(a.input_schema) for a in calendar.app.actions.values()).lower()
    for word in ("gateway", "episode", "reward", "grade", "task", "training", "rollout", "benchmark", "verif",
                 "mask", "simulat", "agent", "fixture"):  # fmt: skip
        assert word not in text, word


def test_tool_schemas_are_flat_and_described():
    for action in calendar.app.actions.values():
        assert len(action.tool_name) <= 48
        assert action.input_schema["type"] == "object"
        for prop in action.input_schema["properties"].values():
            assert prop["type"] and prop["description"]
        assert "Example: " in action.description
