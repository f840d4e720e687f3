"""Chat search: words, phrases, channels, people, dates, has:/is: filters, scope and negation."""

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import BRIDGE, DASHBOARD_THREAD, TOMAS_QUESTION, ctx
from tools.kernel.exceptions import InvalidArgument, NotFound


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
