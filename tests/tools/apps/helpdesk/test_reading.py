"""Helpdesk reading actions: list-queues, get-ticket, search-tickets, sla-overview."""

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import InvalidArgument, NotFound

LEO = "leo.hall@northwind.example"
KAI = "kai.nakamura@northwind.example"
RUBY = "ruby.walker@northwind.example"


def ids(results):
    return [r["id"] for r in results]


def test_list_queues_shows_staff_targets_and_counts():
    out = call(app_ctx("helpdesk"), "list_queues")["queues"]
    it = out[0]
    assert it["id"] == "it" and it["lead"] == LEO
    assert it["staff"] == [LEO, KAI, "mia.thompson@northwind.example"]
    assert it["due_hours_by_priority"] == {"urgent": 8, "high": 24, "normal": 72, "low": 120}
    assert (it["open_tickets"], it["overdue_tickets"]) == (14, 3)
    fin = out[3]
    assert (fin["name"], fin["open_tickets"], fin["overdue_tickets"]) == ("Finance Ops", 8, 2)


def test_get_ticket_accepts_key_forms_and_shows_everything():
    c = app_ctx("helpdesk")
    t = call(c, "get_ticket", ticket_id="HD-1041")
    assert t["title"].startswith("AV for the leadership offsite")
    assert (
        t["queue_name"] == "Facilities" and t["assignee"] == RUBY and t["watchers"] == ["amelia.ward@northwind.example"]
    )
    assert [cm["id"] for cm in t["comments"]] == ["cmt_011", "cmt_012", "cmt_016"]
    assert [cm["internal"] for cm in t["comments"]] == [False, False, True]
    assert [a["name"] for a in t["attachments"]] == ["Lakeside Lodge AV inventory.pdf"]
    assert t["next_statuses"] == ["open", "in_progress", "resolved", "closed"]
    assert t["hours_to_due"] == 37 * 24 + 8.0
    for key in ("hd-1041", "#1041", "1041", " HD-1041 "):
        assert call(c, "get_ticket", ticket_id=key)["id"] == "HD-1041"


def test_get_ticket_shows_links_from_both_sides():
    c = app_ctx("helpdesk")
    laptops = call(c, "get_ticket", ticket_id="HD-1035")["links"]
    assert [(lk["id"], lk["relation"], lk["ticket_id"]) for lk in laptops] == [
        ("lnk_001", "relates_to", "HD-1034"),
        ("lnk_003", "relates_to", "HD-1061"),
    ]


def test_get_ticket_unknown():
    with pytest.raises(NotFound) as err:
        call(app_ctx("helpdesk"), "get_ticket", ticket_id="HD-9999")
    assert err.value.parameter == "ticket_id" and "search-tickets" in err.value.message


def test_search_tickets_words_in_title_description_and_comments():
    c = app_ctx("helpdesk")
    assert ids(call(c, "search_tickets", text="REQ-1042 laptops")["results"]) == ["HD-1035"]
    # "NW-LT-0517" appears only in a comment
    assert ids(call(c, "search_tickets", text="nw-lt-0517")["results"]) == ["HD-1035"]
    assert call(c, "search_tickets", text="nothing like this")["total"] == 0
    # words match whole words or their starts: "AV" is not found inside "have" or "leaving"
    assert ids(call(c, "search_tickets", text="AV")["results"]) == ["HD-1041"]
    assert ids(call(c, "search_tickets", text="printer toner")["results"]) == ["HD-1058", "HD-1028"]


def test_search_tickets_filters_combine():
    c = app_ctx("helpdesk")
    out = call(c, "search_tickets", queue="IT", status="active", assignee="Leo Hall", sort="due")
    assert ids(out["results"]) == [
        "HD-1020", "HD-1027", "HD-1037", "HD-1059", "HD-1055", "HD-1029", "HD-1046", "HD-1035", "HD-1061",
    ]  # fmt: skip
    assert ids(call(c, "search_tickets", assignee="none")["results"]) == ["HD-1062", "HD-1052"]
    mine = call(c, "search_tickets", requester="me", sort="oldest")
    assert ids(mine["results"]) == ["HD-1032", "HD-1041", "HD-1042", "HD-1046", "HD-1057"]
    assert ids(call(c, "search_tickets", watcher="me")["results"]) == ["HD-1056"]
    assert call(c, "search_tickets", category="change request")["total"] == 3
    assert ids(call(c, "search_tickets", queue="people ops", priority="high")["results"]) == ["HD-1047"]
    assert ids(call(c, "search_tickets", status="waiting", queue="finance_ops")["results"]) == ["HD-1051", "HD-1042"]


def test_search_tickets_created_bounds_sorting_and_paging():
    c = app_ctx("helpdesk")
    out = call(c, "search_tickets", created_after="2026-03-06", created_before="2026-03-06T12:00:00")
    assert ids(out["results"]) == ["HD-1050", "HD-1051", "HD-1049", "HD-1048", "HD-1047"]
    first = call(c, "search_tickets", sort="priority", page_size=2)
    assert ids(first["results"]) == ["HD-1016", "HD-1008"] and first["next_page"] == 2
    assert first["total"] == 62
    last = call(c, "search_tickets", page=7, page_size=10)
    assert ids(last["results"]) == ["HD-1002", "HD-1001"] and last["next_page"] is None
    assert ids(call(c, "search_tickets", sort="updated", page_size=1)["results"]) == ["HD-1062"]


def test_search_tickets_bad_filters():
    c = app_ctx("helpdesk")
    with pytest.raises(NotFound) as err:
        call(c, "search_tickets", queue="Legal")
    assert err.value.parameter == "queue" and "Finance Ops (finance_ops)" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_tickets", created_after="March 1")
    assert err.value.parameter == "created_after"
    with pytest.raises(NotFound) as err:
        call(c, "search_tickets", assignee="Nobody Atall")
    assert err.value.parameter == "assignee"
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_tickets", status="pending")
    assert err.value.parameter == "status"


def test_sla_overview_overdue_and_due_soon():
    c = app_ctx("helpdesk")
    out = call(c, "sla_overview", overdue_only=True)
    assert ids(out["results"]) == ["HD-1020", "HD-1026", "HD-1027", "HD-1039", "HD-1030", "HD-1037"]
    assert out["overdue_count"] == 6 and out["as_of"] == "2026-03-09T09:00:00-04:00"
    assert out["results"][0]["hours_left"] == -188.8
    fin = call(c, "sla_overview", queue="Finance Ops", overdue_only=True)
    assert ids(fin["results"]) == ["HD-1026", "HD-1039"]
    soon = call(c, "sla_overview", queue="it", due_within_hours=54)
    assert ids(soon["results"]) == ["HD-1020", "HD-1027", "HD-1037", "HD-1059"]
    assert soon["results"][-1]["hours_left"] == 53.0
    assert ids(call(c, "sla_overview", assignee="none")["results"]) == ["HD-1052", "HD-1062"]
    everything = call(c, "sla_overview", page_size=100)
    assert everything["total"] == 36 and all(
        r["status"] in ("open", "in_progress", "waiting") for r in everything["results"]
    )
