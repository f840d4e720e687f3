"""Chat status actions: a colleague's status and local time, setting and clearing your own."""

from datetime import datetime

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import PRIYA, ctx
from tools.companies import USER
from tools.kernel.exceptions import InvalidArgument, NotFound


def test_get_user_status_with_local_time():
    c = ctx()
    out = call(c, "get_user_status", user="Lily Turner")
    assert out["status_emoji"] == ":palm_tree:" and "Henry Scott" in out["status_text"]
    assert out["status_expires"] == "2026-03-14T00:00:00-04:00"
    assert out["title"] == "Product Marketing Manager" and out["local_time"] == "2026-03-09T07:00:00-06:00"
    assert call(c, "get_user_status", user="@james.okafor")["status_text"] == ""
    unchanged(c, "get_user_status", NotFound, user="Nobody")


def test_expired_status_reads_as_empty():
    c = ctx()
    c.state.statuses["priya.shah"].expires = datetime.fromisoformat("2026-03-09T08:00:00-04:00")
    out = call(c, "get_user_status", user=PRIYA)
    assert out["status_text"] == "" and out["status_emoji"] == "" and out["status_expires"] is None


def test_set_my_status_and_clear():
    c = ctx()
    out = call(c, "set_my_status", text="In budget review", emoji="bar_chart", expires="2026-03-09T12:00")
    assert out["status_emoji"] == ":bar_chart:" and out["status_expires"] == "2026-03-09T12:00:00-04:00"
    rec = c.state.statuses["alex.morgan"]
    assert (rec.email, rec.text) == (USER, "In budget review")
    out = call(c, "set_my_status", text="Back at my desk")
    assert out["status_emoji"] == ":speech_balloon:" and out["status_expires"] is None
    out = call(c, "set_my_status", text="Chicago", expires="2026-04-02")
    assert out["status_expires"] == "2026-04-03T00:00:00-04:00"
    out = call(c, "set_my_status", clear=True)
    assert out["status_text"] == "" and c.state.statuses["alex.morgan"].emoji == ""


def test_set_my_status_errors_change_nothing():
    c = ctx()
    unchanged(c, "set_my_status", InvalidArgument)
    unchanged(c, "set_my_status", InvalidArgument, text="x", clear=True)
    err = unchanged(c, "set_my_status", InvalidArgument, text="x", expires="2026-03-01T10:00")
    assert "future" in err.message
    unchanged(c, "set_my_status", InvalidArgument, text="x" * 101)
    unchanged(c, "set_my_status", InvalidArgument, text="x", emoji="two words")
