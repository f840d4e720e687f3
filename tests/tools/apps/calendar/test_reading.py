"""The reading actions: list-events and get-event."""

import pytest

from tests.tools.apps.calendar.conftest import ctx, event_titled
from tests.tools.apps.conftest import call
from tools.companies import USER
from tools.kernel.exceptions import InvalidArgument, NotFound


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
