"""Rules every action shares: time zones and addresses checked against the directory."""

import pytest

from tests.tools.apps.calendar.conftest import ctx
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.kernel.exceptions import InvalidArgument


def test_without_a_directory_any_well_formed_address_is_accepted():
    c = app_ctx("calendar", directory=False)
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
