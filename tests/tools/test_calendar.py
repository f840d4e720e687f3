from datetime import datetime, timedelta

import pytest

from tests.conftest import make_ctx
from tools import calendar
from tools.calendar import CalendarState
from tools.exceptions import Conflict, InvalidArgument, NotFound
from tools.fixtures import NOW, USER
from tools.fixtures.events import build
from tools.fixtures.people import people_records

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
    assert len(events) == 105
    assert len(visible) == 65
    assert len(events) - len(visible) == 40
    assert min(e.start for e in visible) >= NOW - timedelta(days=15)
    offsite = [e for e in visible if e.title == "Leadership offsite"]
    assert [(e.start.isoformat(), e.end.isoformat()) for e in offsite] == [
        ("2026-04-22T10:30:00-04:00", "2026-04-24T16:00:00-04:00")
    ]
    assert max(e.end for e in visible if e not in offsite) <= NOW + timedelta(days=21)
    assert sum(e.end <= NOW for e in visible) == 26
    assert sum(e.organizer == USER for e in visible) == 14


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
    assert out["total"] == 16
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
    assert out["total"] == 65
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
    assert [e["title"] for e in four["events"]] == ["Coffee with Priya"]
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
    assert out["attendees"] == [{"email": USER, "response": "accepted", "comment": ""}]


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
    assert out["attendees"][-1] == {"email": "isaac.king@northwind.example", "response": "needsAction", "comment": ""}
    assert out["title"] == "Offsite dry run"
    assert out["location"] == "Hudson Room"


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
    assert call(c, "delete_event", event_id=e.id) == {"deleted": e.id, "title": "Offsite dry run"}
    assert e.id not in c.state.events
    assert len(c.state.events) == 104
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
    assert slots(out) == [("04-24T16:00", "16:30"), ("04-24T16:30", "17:00"), ("04-27T09:00", "09:30")]


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
