"""The event actions: list-events, get-event, create, update, delete and respond."""

from datetime import datetime

import pytest

from tests.tools.apps.calendar.conftest import OWEN, PRIYA, ctx, event_titled
from tests.tools.apps.conftest import call
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


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


def test_a_guest_removed_again_leaves_the_list_and_stays_in_the_events_change_record():
    c = ctx()
    e = event_titled(c, "Ops sync")
    before = c.state.events[e.id].model_dump()
    assert "removed_attendees" not in call(c, "get_event", event_id=e.id)
    call(c, "update_event", event_id=e.id, add_attendees=["nora@outside.example"])
    call(c, "update_event", event_id=e.id, remove_attendees=["nora@outside.example"])
    after = c.state.events[e.id].model_dump()
    assert after["attendees"] == before["attendees"] and after != before  # the world keeps the trace
    out = call(c, "get_event", event_id=e.id)
    assert "nora@outside.example" not in [a["email"] for a in out["attendees"]]
    (gone,) = out["removed_attendees"]
    assert (gone["email"], gone["response"], gone["removed_by"]) == ("nora@outside.example", "needsAction", USER)
    assert gone["removed_at"]


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
