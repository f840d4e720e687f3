"""Chat channel actions: list, show, create, join, leave, invite, topic, archive; open-dm (a DM is a channel too)."""

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import DANA, ZOE, ctx
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_channels_shows_public_and_my_private_channels_by_name():
    out = call(ctx(), "list_channels")
    names = [r["name"] for r in out["results"]]
    assert names[:3] == ["#atlas-cutover", "#contoso-renewal", "#finance"]
    assert "#leadership" in names and "#people-ops" not in names and "#offsite-2025" not in names
    assert out["total"] == 12
    sales = next(r for r in out["results"] if r["name"] == "#sales")
    assert sales["is_member"] is False and sales["member_count"] == 8


def test_list_channels_filters():
    c = ctx()
    mine = call(c, "list_channels", only_mine=True)
    assert {r["name"] for r in mine["results"]} >= {"#leadership", "#finance"}
    assert "#sales" not in {r["name"] for r in mine["results"]} and mine["total"] == 10
    assert [r["name"] for r in call(c, "list_channels", query="cutover")["results"]] == ["#atlas-cutover"]
    assert [r["name"] for r in call(c, "list_channels", kind="private")["results"]] == ["#leadership"]
    archived = call(c, "list_channels", include_archived=True, query="2025")
    assert [(r["name"], r["archived"]) for r in archived["results"]] == [("#offsite-2025", True)]
    dms = call(c, "list_channels", kind="dm")
    assert [r["name"] for r in dms["results"]] == [
        "DM with Dana Whitfield", "DM with Priya Shah", "Group DM with Amelia Ward, Ruby Walker"
    ]  # fmt: skip
    page2 = call(c, "list_channels", page=2, page_size=5)
    assert page2["results"][0]["name"] == "#it-help" and page2["next_page"] == 3


def test_get_channel_details():
    out = call(ctx(), "get_channel", channel="#finance")
    assert out["id"] == "ch_finance" and out["creator_name"] == "Marcus Reed"
    assert out["member_count"] == 6 and out["pinned_count"] == 2 and out["message_count"] == 24
    assert out["last_message_at"] == "2026-03-09T08:41:00-04:00"
    assert call(ctx(), "get_channel", channel="finance")["id"] == "ch_finance"
    assert call(ctx(), "get_channel", channel="ch_finance")["name"] == "#finance"
    assert call(ctx(), "get_channel", channel="@priya.shah")["id"] == "dm_priya"


def test_channel_lookup_errors():
    c = ctx()
    err = unchanged(c, "get_channel", NotFound, channel="#nope")
    assert err.parameter == "channel" and "list-channels" in err.message
    err = unchanged(c, "get_channel", Conflict, channel="#people-ops")
    assert "Nora Patel" in err.message and "invite" in err.message
    err = unchanged(c, "get_channel", NotFound, channel="@zoe.adams")
    assert "open-dm" in err.message


def test_list_members_sorted_by_name():
    out = call(ctx(), "list_members", channel="#finance")
    assert [m["name"] for m in out["results"]] == [
        "Alex Morgan", "Grace Kim", "Marcus Reed", "Owen Bell", "Priya Shah", "Tomas Rivera"
    ]  # fmt: skip
    assert out["channel"] == {"id": "ch_finance", "name": "#finance"}


def test_create_private_channel_with_members():
    c = ctx()
    out = call(
        c, "create_channel", name="board-deck-q1", private=True, purpose="Board deck for April 29",
        members=["Dana Whitfield", "@marcus.reed", "amelia.ward@northwind.example", USER],
    )  # fmt: skip
    ch = c.state.channels[out["id"]]
    assert ch.kind == "private" and ch.purpose == "Board deck for April 29" and ch.creator == USER
    assert ch.members == [USER, DANA, "marcus.reed@northwind.example", "amelia.ward@northwind.example"]
    assert out["members"] == ch.members and out["member_count"] == 4


def test_create_channel_errors_change_nothing():
    c = ctx()
    err = unchanged(c, "create_channel", InvalidArgument, name="Board Deck")
    assert "board-deck" in err.message and err.parameter == "name"
    err = unchanged(c, "create_channel", Conflict, name="#offsite-2025")
    assert "archived" in err.message
    err = unchanged(c, "create_channel", NotFound, name="ok-name", members=["Nobody Here"])
    assert err.parameter == "members"


def test_join_public_channel_and_refusals():
    c = ctx()
    out = call(c, "join_channel", channel="#sales")
    assert out == {"id": "ch_sales", "name": "#sales", "already_member": False, "member_count": 9}
    assert USER in c.state.channels["ch_sales"].members
    again = call(c, "join_channel", channel="sales")
    assert again["already_member"] is True and again["member_count"] == 9
    err = unchanged(c, "join_channel", Conflict, channel="#people-ops")
    assert "ask a member" in err.message
    unchanged(c, "join_channel", InvalidArgument, channel="dm_dana")


def test_join_archived_channel_refused():
    c = ctx()
    c.state.channels["ch_offsite_2025"].members.remove(USER)
    err = unchanged(c, "join_channel", Conflict, channel="#offsite-2025")
    assert "archived" in err.message


def test_leave_channel():
    c = ctx()
    out = call(c, "leave_channel", channel="#random")
    assert out["left"] is True and USER not in c.state.channels["ch_random"].members
    unchanged(c, "leave_channel", Conflict, channel="#random")
    err = unchanged(c, "leave_channel", Conflict, channel="#general")
    assert "#general" in err.message


def test_invite_to_channel():
    c = ctx()
    out = call(c, "invite_to_channel", channel="#offsite-2026", people=["Olivia Baker", DANA])
    assert out["added"] == ["olivia.baker@northwind.example"] and out["already_members"] == [DANA]
    assert c.state.channels["ch_offsite_2026"].members[-1] == "olivia.baker@northwind.example"
    unchanged(c, "invite_to_channel", Conflict, channel="#offsite-2026", people=[DANA])
    err = unchanged(c, "invite_to_channel", Conflict, channel="#sales", people=[DANA])
    assert "join it first" in err.message
    unchanged(c, "invite_to_channel", InvalidArgument, channel="#ops", people=[])


def test_set_channel_topic_and_purpose():
    c = ctx()
    out = call(c, "set_channel_topic", channel="#ops", topic="Ops sync moves to Room 3C")
    assert out["topic"] == "Ops sync moves to Room 3C"
    assert c.state.channels["ch_ops"].purpose.startswith("Day-to-day operations")
    call(c, "set_channel_topic", channel="#ops", purpose="Operations")
    assert c.state.channels["ch_ops"].topic == "Ops sync moves to Room 3C"
    assert c.state.channels["ch_ops"].purpose == "Operations"
    unchanged(c, "set_channel_topic", InvalidArgument, channel="#ops")
    unchanged(c, "set_channel_topic", Conflict, channel="#marketing", topic="x")


def test_archive_channel():
    c = ctx()
    assert call(c, "archive_channel", channel="#offsite-2026")["archived"] is True
    assert c.state.channels["ch_offsite_2026"].archived
    err = unchanged(c, "post_message", Conflict, channel="#offsite-2026", text="hello")
    assert "archived" in err.message
    assert call(c, "get_history", channel="#offsite-2026")["total"] == 9  # still readable
    unchanged(c, "archive_channel", Conflict, channel="#general")
    unchanged(c, "archive_channel", Conflict, channel="#offsite-2026")


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
