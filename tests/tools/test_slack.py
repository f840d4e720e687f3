import base64
import re
from datetime import datetime

import pytest

from tests.conftest import MemoryFiles
from tools import slack
from tools.fixtures import NOW, TIMEZONE, USER
from tools.fixtures.people import people_records
from tools.fixtures.shared import BLOBS
from tools.fixtures.slack import build
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import extract_text, read_cell, sniff
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, World
from tools.kits.people import DirectoryState
from tools.slack import SlackState
from tools.slack_model import refuse_encoded

DANA = "dana.whitfield@northwind.example"
PRIYA = "priya.shah@northwind.example"
ZOE = "zoe.adams@northwind.example"
TOMAS_QUESTION = "msg_0190"  # Tomas asks Alex about INV-20417 in #finance (one reply from Priya)
DASHBOARD_THREAD = "msg_0167"  # Liam asks who owns the checkout dashboard (three replies)
BRIDGE = "msg_0233"  # Mia's dry-run bridge link in #atlas-cutover


DIRECTORY = DirectoryState.model_validate({"people": people_records()})


def state():
    return SlackState.model_validate(build(people_records(), NOW, USER))


def ctx(files=None):
    """A world holding the chat and the directory, over the company's shared documents."""
    states = {"slack": state(), "directory": DIRECTORY.model_copy(deep=True)}
    return Context(World(NOW, TIMEZONE, USER, states, BlobStore(BLOBS)), "slack", files)


def call(c, action, /, **args):
    return slack.app.actions[action].invoke(c, args)


def unchanged(c, action, error, /, **args):
    """Call an action that must fail and prove the world did not change."""
    before = c.world.snapshot()
    with pytest.raises(error) as err:
        call(c, action, **args)
    assert c.world.snapshot() == before
    return err.value


# ---- fixture ----------------------------------------------------------------------------------


def test_fixture_counts_and_shape():
    s = state()
    assert len(s.channels) == 17
    assert sorted(c.name for c in s.channels.values() if c.kind == "public" and not c.archived) == [
        "atlas-cutover", "contoso-renewal", "finance", "general", "hiring", "it-help", "marketing", "offsite-2026",
        "ops", "random", "sales",
    ]  # fmt: skip
    assert sorted(c.name for c in s.channels.values() if c.kind == "private") == ["leadership", "people-ops"]
    assert [c.name for c in s.channels.values() if c.archived] == ["offsite-2025"]
    assert len(s.messages) == 252
    assert sum(1 for m in s.messages.values() if m.thread_id) == 104
    assert len(s.files) == 7
    assert len(s.statuses) == 13
    assert len({m.user for m in s.messages.values()}) == 40
    assert len(s.channels["ch_general"].members) == 40


def test_fixture_is_consistent():
    s = state()
    for m in s.messages.values():
        ch = s.channels[m.channel_id]
        assert m.user in ch.members, m.id
        assert all(u in ch.members for r in m.reactions for u in r.users), m.id
        assert m.ts < NOW
        if m.thread_id:
            parent = s.messages[m.thread_id]
            assert parent.channel_id == m.channel_id and not parent.thread_id and parent.ts < m.ts
    ids = sorted(s.messages)
    stamps = [s.messages[i].ts for i in ids]
    assert stamps == sorted(stamps)  # ids follow posting order
    for f in s.files.values():
        assert s.messages[f.message_id].files == [f.id]
        assert f.size == len(BLOBS[f.blob])
        assert sniff(BLOBS[f.blob]) == "." + f.name.rsplit(".", 1)[1]


def test_fixture_agrees_with_company_facts():
    s = state()
    text = {cid: " ".join(m.text for m in s.messages.values() if m.channel_id == cid) for cid in s.channels}
    assert "Saturday April 18, 06:00-10:00 ET" in text["ch_atlas_cutover"]
    assert "Thursday April 16 at 15:00" in s.channels["ch_atlas_cutover"].topic
    assert "INV-20417" in text["ch_finance"] and "PO-7781" in text["ch_finance"]
    assert "$444,960" in text["ch_contoso_renewal"] and "PO-88213" in text["ch_contoso_renewal"]
    assert "NWT-4471" in text["ch_offsite_2026"]
    assert "$13,250" in text["ch_leadership"]
    checklist = extract_text(BLOBS[s.files["file_atlas_checklist"].blob], "x.pdf")
    assert "Saturday April 18" in checklist
    variance = BLOBS[s.files["file_q1_variance"].blob]
    assert read_cell(variance, "Q1 variance", "B5") == "Events"
    assert read_cell(variance, "Q1 variance", "E5") == -13250
    assert read_cell(variance, "Summary", "D9") == 201350  # the drive's Q1 budget total variance


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_fixture_and_app_avoid_internal_words():
    blob = repr(build(people_records(), NOW, USER)).lower()
    blob += " ".join(a.description + str(a.input_schema) for a in slack.app.actions.values()).lower()
    blob += slack.app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, blob) == []
    assert re.findall(r"\brl\b", blob) == []


def test_tool_names_fit_clients():
    assert len(slack.app.actions) == 27
    assert max(len(a.tool_name) for a in slack.app.actions.values()) <= 48


# ---- channels ---------------------------------------------------------------------------------


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


# ---- messages ---------------------------------------------------------------------------------


def test_post_message_in_channel_and_dm():
    c = ctx()
    out = call(c, "post_message", channel="#finance", text="  Final numbers are in the deck.  ")
    msg = c.state.messages[out["id"]]
    assert (msg.channel_id, msg.user, msg.text, msg.ts) == ("ch_finance", USER, "Final numbers are in the deck.", NOW)
    assert out["channel"] == "#finance" and out["reply_count"] == 0
    dm = call(c, "post_message", channel="@Priya Shah", text="On it.")
    assert c.state.messages[dm["id"]].channel_id == "dm_priya" and dm["channel"] == "DM with Priya Shah"


def test_post_message_errors_change_nothing():
    c = ctx()
    err = unchanged(c, "post_message", Conflict, channel="#sales", text="hi")
    assert "join-channel" in err.message
    unchanged(c, "post_message", InvalidArgument, channel="#finance", text="   ")
    err = unchanged(c, "post_message", InvalidArgument, channel="#finance", text="x" * 4001)
    assert err.parameter == "text"
    unchanged(c, "post_message", NotFound, channel="#does-not-exist", text="hi")


def test_get_history_newest_first_with_thread_counts_and_paging():
    c = ctx()
    out = call(c, "get_history", channel="#atlas-cutover", page_size=5)
    assert [m["id"] for m in out["messages"]][:2] == ["msg_0248", BRIDGE]
    bridge = out["messages"][1]
    assert bridge["reply_count"] == 2 and bridge["latest_reply"] == "2026-03-09T08:26:00-04:00"
    assert all(m["thread_id"] is None for m in out["messages"])
    assert out["total"] == 18 and out["next_page"] == 2
    page4 = call(c, "get_history", channel="#atlas-cutover", page=4, page_size=5)
    assert len(page4["messages"]) == 3
    assert page4["messages"][-1]["text"].startswith("Welcome to #atlas-cutover") and page4["next_page"] is None


def test_get_history_time_window():
    c = ctx()
    out = call(c, "get_history", channel="#atlas-cutover", oldest="2026-03-06", latest="2026-03-06")
    assert [m["ts"][:10] for m in out["messages"]] == ["2026-03-06"] * 4
    out = call(c, "get_history", channel="#finance", oldest="2026-03-06T13:00:00", latest="2026-03-09T08:35:00")
    assert [m["id"] for m in out["messages"]] == [TOMAS_QUESTION]
    unchanged(c, "get_history", InvalidArgument, channel="#finance", oldest="2026-03-09", latest="2026-03-01")
    err = unchanged(c, "get_history", InvalidArgument, channel="#finance", oldest="last week")
    assert err.parameter == "oldest"


def test_public_channel_readable_without_joining():
    out = call(ctx(), "get_history", channel="#sales", page_size=1)
    assert out["messages"][0]["user_name"] == "Daniel Wright"


def test_get_thread_from_parent_or_reply():
    c = ctx()
    out = call(c, "get_thread", message_id=DASHBOARD_THREAD)
    assert out["parent"]["user_name"] == "Liam Chen"
    assert [r["user_name"] for r in out["replies"]] == ["David Kim", "Chloe Nguyen", "Liam Chen"]
    reply_id = out["replies"][1]["id"]
    again = call(c, "get_thread", message_id=reply_id)
    assert again["parent"]["id"] == DASHBOARD_THREAD and again["total"] == 3
    assert again["replies"][1]["reactions"] == [
        {"name": "raised_hands", "count": 2, "users": ["liam.chen@northwind.example", "mia.thompson@northwind.example"]}
    ]


def test_reply_in_thread_and_broadcast():
    c = ctx()
    out = call(c, "reply_in_thread", message_id=TOMAS_QUESTION, text="No concerns; Priya can approve.")
    assert out["thread_id"] == TOMAS_QUESTION and out["also_in_channel"] is False
    assert call(c, "get_thread", message_id=TOMAS_QUESTION)["total"] == 2
    assert call(c, "get_history", channel="#finance", page_size=1)["messages"][0]["id"] == "msg_0247"
    wide = call(c, "reply_in_thread", message_id=TOMAS_QUESTION, text="FYI all", also_send_to_channel=True)
    assert call(c, "get_history", channel="#finance", page_size=1)["messages"][0]["id"] == wide["id"]
    first_reply = call(c, "get_thread", message_id=TOMAS_QUESTION)["replies"][0]["id"]
    via_reply = call(c, "reply_in_thread", message_id=first_reply, text="one more")
    assert via_reply["thread_id"] == TOMAS_QUESTION


def test_reply_in_thread_errors():
    c = ctx()
    unchanged(c, "reply_in_thread", NotFound, message_id="msg_9999", text="hi")
    sales_msg = next(m.id for m in c.state.messages.values() if m.channel_id == "ch_sales")
    err = unchanged(c, "reply_in_thread", Conflict, message_id=sales_msg, text="hi")
    assert err.parameter == "message_id"
    people_ops = next(m.id for m in c.state.messages.values() if m.channel_id == "ch_people_ops")
    unchanged(c, "reply_in_thread", NotFound, message_id=people_ops, text="hi")


def test_edit_own_message_only():
    c = ctx()
    mine = call(c, "post_message", channel="#ops", text="Ops sync at 11")
    out = call(c, "edit_message", message_id=mine["id"], text="Ops sync at 11:30")
    assert out["text"] == "Ops sync at 11:30" and out["edited"] == "2026-03-09T09:00:00-04:00"
    err = unchanged(c, "edit_message", Conflict, message_id=TOMAS_QUESTION, text="changed")
    assert "Tomas Rivera" in err.message


def test_delete_message_removes_or_leaves_placeholder():
    c = ctx()
    mine = call(c, "post_message", channel="#ops", text="typo")
    assert call(c, "delete_message", message_id=mine["id"])["deleted"] is True
    assert mine["id"] not in c.state.messages
    parent = call(c, "post_message", channel="#ops", text="question")
    call(c, "reply_in_thread", message_id=parent["id"], text="answer")
    call(c, "delete_message", message_id=parent["id"])
    left = c.state.messages[parent["id"]]
    assert left.deleted and left.text == ""
    assert call(c, "get_thread", message_id=parent["id"])["parent"]["text"] == "This message was deleted."
    unchanged(c, "delete_message", Conflict, message_id=parent["id"])
    unchanged(c, "delete_message", Conflict, message_id=TOMAS_QUESTION)


def test_reactions_add_and_remove():
    c = ctx()
    out = call(c, "add_reaction", message_id=TOMAS_QUESTION, emoji=":thumbsup:")
    assert out["reactions"] == [
        {"name": "eyes", "count": 1, "users": [PRIYA]},
        {"name": "+1", "count": 1, "users": [USER]},
    ]
    out = call(c, "add_reaction", message_id=TOMAS_QUESTION, emoji="eyes")
    assert out["reactions"][0] == {"name": "eyes", "count": 2, "users": [PRIYA, USER]}
    unchanged(c, "add_reaction", Conflict, message_id=TOMAS_QUESTION, emoji="eyes")
    unchanged(c, "add_reaction", InvalidArgument, message_id=TOMAS_QUESTION, emoji="not an emoji!")
    out = call(c, "remove_reaction", message_id=TOMAS_QUESTION, emoji="+1")
    assert [r["name"] for r in out["reactions"]] == ["eyes"]
    out = call(c, "remove_reaction", message_id=TOMAS_QUESTION, emoji="eyes")
    assert out["reactions"] == [{"name": "eyes", "count": 1, "users": [PRIYA]}]
    unchanged(c, "remove_reaction", Conflict, message_id=TOMAS_QUESTION, emoji="eyes")


# ---- DMs and search ---------------------------------------------------------------------------


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


def test_search_by_words_channel_and_author():
    c = ctx()
    out = call(c, "search_messages", query="INV-20417 in:#finance from:@tomas.rivera")
    assert [r["id"] for r in out["results"]] == [TOMAS_QUESTION, "msg_0058"]
    assert out["results"][0]["channel"] == "#finance"
    phrase = call(c, "search_messages", query='"checkout error dashboard"')
    assert [r["id"] for r in phrase["results"]] == [DASHBOARD_THREAD]
    owner = call(c, "search_messages", query="whole window from:chloe is:thread")
    assert [r["user_name"] for r in owner["results"]] == ["Chloe Nguyen"]


def test_search_dates_and_has_filters():
    c = ctx()
    on = call(c, "search_messages", query="in:#finance on:2026-03-06", sort="oldest", page_size=100)
    assert {r["ts"][:10] for r in on["results"]} == {"2026-03-06"} and on["total"] == 7
    after = call(c, "search_messages", query="in:#finance after:2026-03-06", page_size=100)
    assert {r["ts"][:10] for r in after["results"]} == {"2026-03-09"}
    before = call(c, "search_messages", query="in:#atlas-cutover before:2026-02-01")
    assert [r["id"] for r in before["results"]] == ["msg_0003"]
    files = call(c, "search_messages", query="has:file", page_size=100)
    assert {r["files"][0]["name"] for r in files["results"]} >= {"Q1 budget variance.xlsx", "Security key setup.pdf"}
    assert files["total"] == 7
    pins = call(c, "search_messages", query="has:pin in:#atlas-cutover")
    assert pins["total"] == 3
    links = call(c, "search_messages", query="has:link")
    assert [r["id"] for r in links["results"]] == [BRIDGE]


def test_search_scope_and_negation():
    c = ctx()
    assert call(c, "search_messages", query="Scorecards in:#hiring")["total"] == 0
    assert call(c, "search_messages", query="scorecards")["total"] == 0  # #people-ops is private, Alex is not in it
    dms = call(c, "search_messages", query="in:@priya")
    assert {r["channel"] for r in dms["results"]} == {"DM with Priya Shah"} and dms["total"] == 4
    minus = call(c, "search_messages", query="INV-20417 -in:#finance")
    assert {r["channel"] for r in minus["results"]} == {"DM with Priya Shah"}


def test_search_errors():
    c = ctx()
    err = unchanged(c, "search_messages", InvalidArgument, query="has:gif")
    assert "has:file" in err.message and err.parameter == "query"
    unchanged(c, "search_messages", InvalidArgument, query="from:@nobody.here")
    unchanged(c, "search_messages", InvalidArgument, query="before:yesterday")
    unchanged(c, "search_messages", NotFound, query="in:#nope")
    unchanged(c, "search_messages", InvalidArgument, query="  ")


# ---- pins -------------------------------------------------------------------------------------


def test_pin_unpin_and_list():
    c = ctx()
    before = call(c, "list_pins", channel="#atlas-cutover")
    assert [p["message"]["user_name"] for p in before["pins"]] == ["Elena Petrova", "Mia Thompson", "Liam Chen"]
    assert call(c, "pin_message", message_id=BRIDGE)["pinned"] is True
    after = call(c, "list_pins", channel="#atlas-cutover")
    assert after["pins"][0]["message"]["id"] == BRIDGE and after["pins"][0]["pinned_by"] == USER
    assert after["pins"][0]["pinned_at"] == "2026-03-09T09:00:00-04:00"
    unchanged(c, "pin_message", Conflict, message_id=BRIDGE)
    assert call(c, "unpin_message", message_id=BRIDGE)["pinned"] is False
    assert c.state.messages[BRIDGE].pinned_by == "" and c.state.messages[BRIDGE].pinned_at is None
    unchanged(c, "unpin_message", Conflict, message_id=BRIDGE)
    sales_pin = next(m.id for m in c.state.messages.values() if m.channel_id == "ch_sales" and m.pinned_by)
    unchanged(c, "unpin_message", Conflict, message_id=sales_pin)  # not a member of #sales


# ---- files ------------------------------------------------------------------------------------


def test_list_files_filters():
    c = ctx()
    out = call(c, "list_files")
    assert out["total"] == 7 and out["results"][0]["name"] == "Atlas cutover checklist.pdf"
    assert [f["id"] for f in call(c, "list_files", channel="#finance")["results"]] == ["file_q1_variance"]
    assert [f["id"] for f in call(c, "list_files", query="render")["results"]] == ["file_booth_render"]
    assert [f["id"] for f in call(c, "list_files", user="Kai Nakamura")["results"]] == ["file_security_key_guide"]
    assert call(c, "list_files", user="me")["total"] == 0


def test_download_file_into_workspace():
    ws = MemoryFiles()
    c = ctx(ws)
    out = call(c, "download_file", file_id="file_q1_variance")
    assert out["saved_to"] == "downloads/Q1 budget variance.xlsx" and "content" not in out
    assert read_cell(ws.files["downloads/Q1 budget variance.xlsx"], "Q1 variance", "E5") == -13250
    out = call(c, "download_file", file_id="file_atlas_checklist", save_as="atlas/checklist.pdf")
    assert out["saved_to"] == "atlas/checklist.pdf" and out["size"] == len(ws.files["atlas/checklist.pdf"])


def test_download_without_workspace():
    c = ctx()
    err = unchanged(c, "download_file", InvalidArgument, file_id="file_q1_variance")
    assert "workspace" in err.message
    up = call(c, "upload_file", channel="#ops", content="line one\nline two\n", filename="notes.txt")
    out = call(c, "download_file", file_id=up["file"]["id"])
    assert out["content"] == "line one\nline two\n" and out["mime_type"] == "text/plain"
    unchanged(c, "download_file", NotFound, file_id="file_nope")


def test_upload_file_from_workspace_path():
    pdf = BLOBS[state().files["file_atlas_checklist"].blob]
    ws = MemoryFiles({"out/checklist.pdf": pdf})
    c = ctx(ws)
    out = call(c, "upload_file", channel="#leadership", path="out/checklist.pdf", comment="For Tuesday")
    f = c.state.files[out["file"]["id"]]
    assert (f.name, f.mime_type, f.size, f.channel_id, f.user) == (
        "checklist.pdf", "application/pdf", len(pdf), "ch_leadership", USER
    )  # fmt: skip
    assert "Saturday April 18" in extract_text(c.blobs.get(f.blob), f.name)
    msg = c.state.messages[out["message"]["id"]]
    assert msg.text == "For Tuesday" and msg.files == [f.id] and f.message_id == msg.id
    assert out["message"]["files"] == [{"id": f.id, "name": "checklist.pdf", "mime_type": "application/pdf",
                                        "size": len(pdf)}]  # fmt: skip


def test_upload_file_into_a_thread_with_a_name():
    ws = MemoryFiles({"a.csv": b"x,y\n1,2\n"})
    c = ctx(ws)
    out = call(c, "upload_file", channel="#finance", path="a.csv", filename="Numbers.csv", thread_id=TOMAS_QUESTION)
    assert out["file"]["name"] == "Numbers.csv" and out["file"]["mime_type"] == "text/csv"
    assert out["message"]["thread_id"] == TOMAS_QUESTION


def test_upload_file_errors_change_nothing():
    ws = MemoryFiles({"a.txt": b"hello"})
    c = ctx(ws)
    unchanged(c, "upload_file", NotFound, channel="#finance", path="missing.txt")
    unchanged(c, "upload_file", Conflict, channel="#sales", path="a.txt")
    unchanged(c, "upload_file", InvalidArgument, channel="#finance", path="a.txt", content="both")
    unchanged(c, "upload_file", InvalidArgument, channel="#finance", content="text only")  # no filename
    unchanged(c, "upload_file", InvalidArgument, channel="#finance", path="a.txt", thread_id=BRIDGE)
    unchanged(c, "upload_file", InvalidArgument, channel="#finance", content="x", filename="a/b.txt")
    no_ws = ctx()
    err = unchanged(no_ws, "upload_file", InvalidArgument, channel="#finance", path="a.txt")
    assert "no workspace" in err.message


def test_upload_refuses_pasted_base64_and_data_uris():
    c = ctx(MemoryFiles())
    pdf = BLOBS[state().files["file_atlas_checklist"].blob]
    encoded = base64.b64encode(pdf).decode()
    err = unchanged(c, "upload_file", InvalidArgument, channel="#ops", content=encoded, filename="x.pdf")
    assert "path=" in err.message and err.parameter == "content"
    err = unchanged(c, "upload_file", InvalidArgument, channel="#ops", content="data:application/pdf;base64," +
                    encoded[:80], filename="x.pdf")  # fmt: skip
    assert "workspace" in err.message
    urlsafe = base64.urlsafe_b64encode(pdf[:300]).decode()
    assert "-" in urlsafe or "_" in urlsafe
    unchanged(c, "upload_file", InvalidArgument, channel="#ops", content=urlsafe, filename="x.pdf")
    refuse_encoded("Plain text with spaces, commas and a number: 12480.")  # passes
    refuse_encoded("INV-20417")


# ---- statuses ---------------------------------------------------------------------------------


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
