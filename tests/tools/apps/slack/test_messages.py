"""Chat message actions: post, history, threads, replies, edits, deletes.

And search-messages: words, phrases, channels, people, dates, has:/is: filters, scope and negation.
"""

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import BRIDGE, DASHBOARD_THREAD, TOMAS_QUESTION, ctx
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


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
