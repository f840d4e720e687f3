"""Repeating events: rules, occurrence ids, changing and cancelling one occurrence or a series."""

import pytest

from tests.tools.apps.calendar.conftest import ctx, event_titled, new_series, occurrences, slots
from tests.tools.apps.conftest import call
from tools.companies import USER
from tools.kernel.exceptions import InvalidArgument, NotFound


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
