"""Reading date-times: daylight-saving gaps move forward, overlaps take the first, hints show the day's offset."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import format_instant, parse_instant

NEW_YORK = ZoneInfo("America/New_York")


def test_a_time_in_the_spring_gap_moves_forward_by_the_gap():
    parsed = parse_instant("2026-03-08T02:30", NEW_YORK, "start")  # clocks go 02:00 -> 03:00 that night
    assert format_instant(parsed, NEW_YORK) == "2026-03-08T03:30:00-04:00"
    assert parsed.astimezone(UTC) == datetime(2026, 3, 8, 7, 30, tzinfo=UTC)


def test_an_ambiguous_autumn_time_is_the_first_of_the_two():
    parsed = parse_instant("2026-11-01T01:30", NEW_YORK, "start")  # 01:00-02:00 happens twice that night
    assert format_instant(parsed, NEW_YORK) == "2026-11-01T01:30:00-04:00"
    assert parsed.astimezone(UTC) == datetime(2026, 11, 1, 5, 30, tzinfo=UTC)


def test_ordinary_times_and_times_with_an_offset_are_kept_as_given():
    assert format_instant(parse_instant("2026-03-10 14:00", NEW_YORK, "start"), NEW_YORK) == "2026-03-10T14:00:00-04:00"
    assert format_instant(parse_instant("2026-01-10T14:00", NEW_YORK, "start"), NEW_YORK) == "2026-01-10T14:00:00-05:00"
    given = parse_instant("2026-03-08T02:30:00-05:00", NEW_YORK, "start")
    assert given.astimezone(UTC) == datetime(2026, 3, 8, 7, 30, tzinfo=UTC)


@pytest.mark.parametrize(("zone", "offset"), [("America/New_York", "-04:00"), ("Europe/London", "+00:00")])
def test_the_hint_for_a_bad_date_time_shows_the_zones_offset_on_the_example_date(zone, offset):
    with pytest.raises(InvalidArgument) as info:
        parse_instant("next tuesday", ZoneInfo(zone), "start")
    expected = f"'next tuesday' is not a date-time; use ISO 8601 such as 2026-03-10T14:00:00{offset}"
    assert info.value.args[0] == expected
    assert info.value.parameter == "start"
