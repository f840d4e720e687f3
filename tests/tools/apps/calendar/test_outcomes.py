from tests.tools.apps.conftest import app_ctx, call
from tools import REGISTRY

booked_rooms = REGISTRY.apps["calendar"].outcomes["booked_rooms"]


def test_a_room_counts_when_reserved_at_creation_or_later_not_when_typed_in_the_location():
    c = app_ctx("calendar")
    made = call(c, "create_event", title="Close check-in", start="2026-03-17T10:00:00", end="2026-03-17T11:00:00",
                location="Room 2A")  # fmt: skip
    assert booked_rooms(c.state, "close check-in") == []
    call(c, "update_event", event_id=made["id"], room="Room 2A")
    assert booked_rooms(c.state, "close check-in") == ["Room 2A"]
    call(c, "create_event", title="Close check-in 2", start="2026-03-18T10:00:00", end="2026-03-18T11:00:00",
         room="Room 4B")  # fmt: skip
    assert booked_rooms(c.state, "close check-in") == ["Room 2A", "Room 4B"]
