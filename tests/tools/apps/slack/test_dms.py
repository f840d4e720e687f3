"""Chat direct-message actions: finding or starting a DM or a group DM."""

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import ZOE, ctx
from tools.companies import USER
from tools.kernel.exceptions import InvalidArgument, NotFound


def test_open_dm_finds_existing_or_starts_one():
    c = ctx()
    out = call(c, "open_dm", people=["priya.shah@northwind.example"])
    assert out["id"] == "dm_priya" and out["created"] is False
    group = call(c, "open_dm", people=["Ruby Walker", "@amelia.ward", USER])
    assert group["id"] == "dm_amelia_ruby" and group["kind"] == "group_dm"
    new = call(c, "open_dm", people=["Zoe Adams"])
    assert new["created"] is True and new["name"] == "DM with Zoe Adams"
    assert c.state.channels[new["id"]].members == [USER, ZOE]
    assert call(c, "open_dm", people=[ZOE])["id"] == new["id"]


def test_open_dm_errors():
    c = ctx()
    unchanged(c, "open_dm", InvalidArgument, people=[USER])
    unchanged(c, "open_dm", NotFound, people=["Santa Claus"])
    everyone = [f"{p}@northwind.example" for p in ("dana.whitfield", "marcus.reed", "priya.shah", "owen.bell",
                                                   "grace.kim", "tomas.rivera", "elena.petrova", "liam.chen",
                                                   "sofia.garcia")]  # fmt: skip
    err = unchanged(c, "open_dm", InvalidArgument, people=everyone)
    assert "at most 8" in err.message
