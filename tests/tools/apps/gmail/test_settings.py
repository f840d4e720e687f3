import pytest

from tests.tools.apps.conftest import app_ctx, call, unchanged
from tools.companies import NOW
from tools.kernel.exceptions import InvalidArgument

# --- vacation reply -------------------------------------------------------------------------------


def test_vacation_reply_starts_saved_and_off():
    out = call(app_ctx("gmail"), "get_vacation")
    assert out["enabled"] is False and out["replying_now"] is False
    assert (out["start_date"], out["end_date"]) == ("2026-01-26", "2026-01-28")
    assert "Amelia Ward" in out["body"]


def test_set_vacation_on_with_dates_then_off_keeps_the_text():
    c = app_ctx("gmail")
    out = call(c, "set_vacation", enabled=True, subject=" Out of  office ", body="In Chicago until April 2.",
               start_date="2026-03-31", end_date="2026/04/02", company_only=True)  # fmt: skip
    assert out == {"enabled": True, "subject": "Out of office", "body": "In Chicago until April 2.",
                   "start_date": "2026-03-31", "end_date": "2026-04-02", "company_only": True,
                   "replying_now": False}  # fmt: skip
    v = c.state.vacation
    assert (v.start_date.isoformat(), v.end_date.isoformat(), v.updated) == ("2026-03-31", "2026-04-02", NOW)
    now = call(c, "set_vacation", enabled=True, body="Out today.")
    assert (now["start_date"], now["end_date"], now["replying_now"], now["subject"]) == ("2026-03-09", "", True, "")
    off = call(c, "set_vacation", enabled=False, body="ignored")
    assert (off["enabled"], off["body"], off["start_date"]) == (False, "Out today.", "2026-03-09")


@pytest.mark.parametrize(
    ("args", "param"),
    [
        ({"body": ""}, "body"),
        ({"body": "Away", "start_date": "2026-04-02", "end_date": "2026-03-31"}, "end_date"),
        ({"body": "Away", "start_date": "2026-03-01", "end_date": "2026-03-06"}, "end_date"),
        ({"body": "Away", "start_date": "next week"}, "start_date"),
    ],
)
def test_set_vacation_errors_change_nothing(args, param):
    err = unchanged(app_ctx("gmail"), "set_vacation", InvalidArgument, enabled=True, **args)
    assert err.parameter == param
