"""find-free-slots: working hours, busy times and the search window."""

import pytest

from tests.tools.apps.calendar.conftest import OWEN, PRIYA, ctx, slots
from tests.tools.apps.conftest import call
from tools.companies import USER
from tools.kernel.exceptions import InvalidArgument, NotFound


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


def _moved(c, email, zone):
    """The context with ``email``'s office in ``zone`` (the directory's record of them)."""
    directory = c.other("directory")
    person = next(p for p in directory.people.values() if p.email == email)
    directory.people[person.id] = person.model_copy(update={"timezone": zone})
    return c


def test_a_colleague_abroad_is_offered_only_their_working_hours_too():
    c = _moved(ctx(), PRIYA, "Europe/London")  # London is 4 hours ahead of New York in March 2026
    out = call(c, "find_free_slots", people=[PRIYA], duration_minutes=30, start="2026-03-12", end="2026-03-13")
    assert out["slots"], out
    # 09:00-13:00 in New York is 13:00-17:00 in London: nothing from 13:00 on
    assert all(s["start"][10:16] >= "T09:00" and s["end"][11:16] <= "13:00" for s in out["slots"]), out["slots"]


def test_a_colleague_with_no_shared_working_hour_gets_no_slot():
    c = _moved(ctx(), PRIYA, "Asia/Tokyo")  # 13 hours ahead: New York's day is Tokyo's night
    out = call(c, "find_free_slots", people=[PRIYA], duration_minutes=30, start="2026-03-12", end="2026-03-13")
    assert out["slots"] == []
    alone = call(ctx(), "find_free_slots", people=[PRIYA], duration_minutes=30, start="2026-03-12", end="2026-03-13")
    assert alone["slots"]  # the control: in New York the same day has free slots
