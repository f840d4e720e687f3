"""Meeting rooms: listing, finding free ones, booking, capacity and clashes."""

import pytest

from tests.tools.apps.calendar.conftest import OWEN, PRIYA, ctx, event_titled, new_series
from tests.tools.apps.conftest import call
from tools import REGISTRY
from tools.companies import NOW, TIMEZONE, USER, build_default
from tools.kernel.blobs import BlobStore
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, World


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


def test_booking_a_room_in_a_world_sharing_its_calendar_copies_only_the_rooms_bookings():
    """The clash check reads the room's bookings: the world holds a copy of those, not of the company's other events."""
    template = REGISTRY.apps["calendar"].state.model_validate(build_default("calendar")["calendar"])
    shared = World(NOW, TIMEZONE, USER, {"calendar": template}, BlobStore(), shared={"calendar"})
    c = Context(shared, "calendar", None)
    shared.begin_write("calendar")  # as the gateway writes
    out = call(c, "create_event", title="Pricing final", start="2026-03-17T14:00", end="2026-03-17T15:00",
               room="harbor room")  # fmt: skip
    shared.end_write()
    events = c.state.events
    copied = sorted(k for k in events if k in template.events and events[k] is not template.events[k])
    harbor = sorted(k for k, e in template.events.items() if e.room == "room_harbor")
    assert out["id"] in events and out["id"] not in template.events and len(template.events) > 100
    assert copied == harbor and 0 < len(harbor) < 5
    shared.begin_write("calendar")
    with pytest.raises(Conflict, match="taken from"):
        call(c, "create_event", title="Clash", start="2026-03-17T14:30", end="2026-03-17T15:00", room="harbor room")


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
