import re
from datetime import timedelta

import pytest

from tests.conftest import MemoryFiles, make_ctx
from tools import helpdesk
from tools.fixtures import NOW, USER
from tools.fixtures.helpdesk import build
from tools.fixtures.people import people_records
from tools.fixtures.shared import BLOBS
from tools.helpdesk import HelpdeskState
from tools.kernel.documents import extract_text, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

ALEX = USER
LEO = "leo.hall@northwind.example"
KAI = "kai.nakamura@northwind.example"
RUBY = "ruby.walker@northwind.example"
PDF = b"%PDF-1.4\n% quote\n"


def ctx(files=None):
    return make_ctx("helpdesk", HelpdeskState.model_validate(build(people_records(), NOW, USER)), files)


def call(c, action, /, **args):
    return helpdesk.app.actions[action].invoke(c, args)


def ids(results):
    return [r["id"] for r in results]


# ---- starting data ----------------------------------------------------------------------------


def test_fixture_counts_and_consistency():
    state = HelpdeskState.model_validate(build(people_records(), NOW, USER))
    assert len(state.tickets) == 62
    assert len(state.comments) == 27
    assert len(state.attachments) == 9
    assert len(state.links) == 3
    assert [q.name for q in state.queues.values()] == ["IT", "Facilities", "People Ops", "Finance Ops"]
    by_queue = {q: sum(t.queue_id == q for t in state.tickets.values()) for q in state.queues}
    assert by_queue == {"it": 24, "facilities": 14, "people_ops": 11, "finance_ops": 13}
    assert sorted(state.tickets) == [f"HD-{n}" for n in range(1001, 1063)]
    created = [state.tickets[f"HD-{n}"].created for n in range(1001, 1063)]
    assert created == sorted(created)
    emails = {p["email"] for p in people_records().values()}
    for t in state.tickets.values():
        queue = state.queues[t.queue_id]
        assert t.requester in emails and set(t.watchers) <= emails
        assert not t.assignee or t.assignee in queue.staff
        assert t.created <= t.updated <= NOW
        if t.status in ("resolved", "closed"):
            assert t.resolution and t.resolved_at is not None
        else:
            assert not t.resolution and t.resolved_at is None
        assert (t.status == "closed") == (t.closed_at is not None)
        if t.status == "closed":
            assert t.closed_at == t.resolved_at + timedelta(days=7) <= NOW
        if t.status == "resolved":
            assert t.resolved_at + timedelta(days=7) > NOW
    for c in state.comments.values():
        assert c.ticket_id in state.tickets and c.created >= state.tickets[c.ticket_id].created
    for a in state.attachments.values():
        assert a.ticket_id in state.tickets and a.size == len(BLOBS[a.blob]) > 0
    statuses = [t.status for t in state.tickets.values()]
    assert {s: statuses.count(s) for s in set(statuses)} == {
        "closed": 22, "resolved": 4, "waiting": 7, "in_progress": 11, "open": 18,
    }  # fmt: skip


def test_fixture_agrees_with_company_facts():
    state = HelpdeskState.model_validate(build(people_records(), NOW, USER))
    t = state.tickets
    assert "INV-20417" in t["HD-1042"].title and "PO-7781" in t["HD-1042"].description
    assert t["HD-1042"].assignee == "tomas.rivera@northwind.example" and t["HD-1042"].status == "waiting"
    assert "Saturday April 18, 06:00-10:00 ET" in t["HD-1038"].description
    assert t["HD-1038"].title.startswith("CHG-0318")
    assert "NW-LT-0517" in state.comments["cmt_007"].body
    assert "March 28" in t["HD-1029"].title
    assert "NWT-4471" in t["HD-1041"].description


def test_fixture_holds_real_documents():
    state = HelpdeskState.model_validate(build(people_records(), NOW, USER))
    att = state.attachments
    av = extract_text(BLOBS[att["att_004"].blob], att["att_004"].name)
    assert "Lapel microphone: $45 per day each" in av and "NWT-4471" in av
    assert att["att_004"].mime_type == "application/pdf"
    assert read_cell(BLOBS[att["att_002"].blob], "Allocation", "C3") == "Priyanka Rao"
    assert read_cell(BLOBS[att["att_001"].blob], "Reclass", "D2") == -13250
    assert BLOBS[att["att_005"].blob].startswith(b"\x89PNG") and att["att_005"].mime_type == "image/png"
    assert "$21,600.00" in extract_text(BLOBS[att["att_007"].blob], att["att_007"].name)
    assert "Approved by Liam Chen" in extract_text(BLOBS[att["att_003"].blob], att["att_003"].name)


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_fixture_and_app_avoid_internal_words():
    data = build(people_records(), NOW, USER)
    text = repr(data).lower()
    text += " ".join(extract_text(BLOBS[a["blob"]], a["name"]) for a in data["attachments"].values()).lower()
    text += " ".join(a.description + str(a.input_schema) for a in helpdesk.app.actions.values()).lower()
    text += helpdesk.app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, text) == []
    assert re.findall(r"\brl\b", text) == []


# ---- queues, reading, searching ----------------------------------------------------------------


def test_list_queues_shows_staff_targets_and_counts():
    out = call(ctx(), "list_queues")["queues"]
    it = out[0]
    assert it["id"] == "it" and it["lead"] == LEO
    assert it["staff"] == [LEO, KAI, "mia.thompson@northwind.example"]
    assert it["due_hours_by_priority"] == {"urgent": 8, "high": 24, "normal": 72, "low": 120}
    assert (it["open_tickets"], it["overdue_tickets"]) == (14, 3)
    fin = out[3]
    assert (fin["name"], fin["open_tickets"], fin["overdue_tickets"]) == ("Finance Ops", 8, 2)


def test_get_ticket_accepts_key_forms_and_shows_everything():
    c = ctx()
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
    c = ctx()
    laptops = call(c, "get_ticket", ticket_id="HD-1035")["links"]
    assert [(lk["id"], lk["relation"], lk["ticket_id"]) for lk in laptops] == [
        ("lnk_001", "relates_to", "HD-1034"),
        ("lnk_003", "relates_to", "HD-1061"),
    ]


def test_get_ticket_unknown():
    with pytest.raises(NotFound) as err:
        call(ctx(), "get_ticket", ticket_id="HD-9999")
    assert err.value.parameter == "ticket_id" and "search-tickets" in err.value.message


def test_search_tickets_words_in_title_description_and_comments():
    c = ctx()
    assert ids(call(c, "search_tickets", text="REQ-1042 laptops")["results"]) == ["HD-1035"]
    # "NW-LT-0517" appears only in a comment
    assert ids(call(c, "search_tickets", text="nw-lt-0517")["results"]) == ["HD-1035"]
    assert call(c, "search_tickets", text="nothing like this")["total"] == 0
    # words match whole words or their starts: "AV" is not found inside "have" or "leaving"
    assert ids(call(c, "search_tickets", text="AV")["results"]) == ["HD-1041"]
    assert ids(call(c, "search_tickets", text="printer toner")["results"]) == ["HD-1058", "HD-1028"]


def test_search_tickets_filters_combine():
    c = ctx()
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
    c = ctx()
    out = call(c, "search_tickets", created_after="2026-03-06", created_before="2026-03-06T12:00:00")
    assert ids(out["results"]) == ["HD-1050", "HD-1051", "HD-1049", "HD-1048", "HD-1047"]
    first = call(c, "search_tickets", sort="priority", page_size=2)
    assert ids(first["results"]) == ["HD-1016", "HD-1008"] and first["next_page"] == 2
    assert first["total"] == 62
    last = call(c, "search_tickets", page=7, page_size=10)
    assert ids(last["results"]) == ["HD-1002", "HD-1001"] and last["next_page"] is None
    assert ids(call(c, "search_tickets", sort="updated", page_size=1)["results"]) == ["HD-1062"]


def test_search_tickets_bad_filters():
    c = ctx()
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
    c = ctx()
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


# ---- creating and changing tickets -------------------------------------------------------------


def test_create_ticket_defaults_to_me_and_the_queue_target():
    c = ctx()
    t = call(c, "create_ticket", queue="Facilities", title="Broken blind in Room 3C", description="Won't go up.")
    assert t["id"] == "HD-1063" and t["queue"] == "facilities" and t["status"] == "open"
    assert t["requester"] == ALEX and t["assignee"] is None and t["priority"] == "normal"
    assert t["due"] == "2026-03-12T09:00:00-04:00" and t["created"] == "2026-03-09T09:00:00-04:00"
    again = call(c, "create_ticket", queue="it", title="x", description="y", priority="urgent")
    assert again["id"] == "HD-1064" and again["due"] == "2026-03-09T17:00:00-04:00"


def test_create_ticket_on_behalf_with_assignee_due_watchers_and_files():
    c = ctx(MemoryFiles({"scans/leak.png": b"\x89PNG fake", "notes.txt": b"dripping"}))
    t = call(
        c,
        "create_ticket",
        queue="facilities",
        title="Radiator leaking in the Legal area",
        description="Water on the carpet by the window.",
        priority="urgent",
        requester="Hannah Wood",
        assignee="ruby.walker@northwind.example",
        due="2026-03-09T13:00",
        category="Heating and cooling",
        watchers=["me", "Isaac King", "me"],
        attachments=["scans/leak.png", "notes.txt"],
    )
    assert t["requester"] == "hannah.wood@northwind.example" and t["assignee"] == RUBY
    assert t["due"] == "2026-03-09T13:00:00-04:00" and t["category"] == "Heating and cooling"
    assert t["watchers"] == [ALEX, "isaac.king@northwind.example"]
    assert [(a["name"], a["mime_type"], a["size"]) for a in t["attachments"]] == [
        ("leak.png", "image/png", 9),
        ("notes.txt", "text/plain", 8),
    ]
    stored = c.state.attachments[t["attachments"][1]["id"]]
    assert c.blobs.get(stored.blob) == b"dripping"
    dated = call(c, "create_ticket", queue="it", title="x", description="y", due="2026-03-20")
    assert dated["due"] == "2026-03-20T17:00:00-04:00"


@pytest.mark.parametrize(
    ("args", "parameter", "kind"),
    [
        ({"queue": "Legal"}, "queue", NotFound),
        ({"title": "  "}, "title", InvalidArgument),
        ({"title": "two\nlines"}, "title", InvalidArgument),
        ({"title": "x" * 201}, "title", InvalidArgument),
        ({"description": ""}, "description", InvalidArgument),
        ({"requester": "Someone Else"}, "requester", NotFound),
        ({"assignee": "Dana Whitfield"}, "assignee", Conflict),
        ({"due": "2026-03-08"}, "due", InvalidArgument),
        ({"due": "next week"}, "due", InvalidArgument),
        ({"watchers": ["ghost@northwind.example"]}, "watchers", NotFound),
        ({"attachments": ["missing.pdf"]}, "attachments", NotFound),
        ({"priority": "critical"}, "priority", InvalidArgument),
    ],
)
def test_create_ticket_errors_change_nothing(args, parameter, kind):
    c = ctx(MemoryFiles())
    before = c.world.snapshot()
    base = {"queue": "it", "title": "Dock not working", "description": "No screen."}
    with pytest.raises(kind) as err:
        call(c, "create_ticket", **{**base, **args})
    assert err.value.parameter == parameter
    assert c.world.snapshot() == before


def test_create_ticket_attachments_need_a_workspace():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_ticket", queue="it", title="x", description="y", attachments=["a.pdf"])
    assert err.value.parameter == "attachments" and "attach-file" in err.value.message


def test_update_ticket_changes_only_what_is_given():
    c = ctx()
    out = call(c, "update_ticket", ticket_id="HD-1050", priority="high", due="2026-04-27")
    assert out["changed"] == ["due", "priority"]
    assert out["priority"] == "high" and out["due"] == "2026-04-27T17:00:00-04:00"
    assert out["updated"] == "2026-03-09T09:00:00-04:00" and out["title"].startswith("Boardroom setup")
    same = call(c, "update_ticket", ticket_id="HD-1050", priority="high")
    assert same["changed"] == []


def test_update_ticket_moving_queue_unassigns_outside_staff():
    c = ctx()
    out = call(c, "update_ticket", ticket_id="HD-1059", queue="Facilities", category="Meeting rooms")
    assert out["queue"] == "facilities" and out["assignee"] is None and out["changed"] == ["assignee", "queue_id"]
    assert out["status"] == "open"
    busy = call(c, "update_ticket", ticket_id="HD-1035", queue="people_ops")
    assert (
        busy["status"] == "open" and busy["assignee"] is None and busy["changed"] == ["assignee", "queue_id", "status"]
    )


def test_update_ticket_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_ticket", ticket_id="HD-1050")
    assert "at least one" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "update_ticket", ticket_id="HD-1001", title="New")
    assert "change-status" in err.value.message and "--status=open" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "update_ticket", ticket_id="HD-1050", due="2026-01-01")
    assert err.value.parameter == "due"


def test_assign_ticket_to_staff_and_unassign():
    c = ctx()
    out = call(c, "assign_ticket", ticket_id="HD-1052", assignee="Ruby Walker")
    assert out["assignee"] == RUBY and out["previous_assignee"] is None
    out = call(c, "assign_ticket", ticket_id="HD-1052", unassign=True)
    assert out["assignee"] is None and out["previous_assignee"] == RUBY
    out = call(c, "assign_ticket", ticket_id="HD-1059", assignee="kai.nakamura")
    assert out["assignee"] == KAI and out["previous_assignee"] == LEO


def test_assign_ticket_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "assign_ticket", ticket_id="HD-1059", assignee="Ruby Walker")
    assert "IT support staff" in err.value.message and LEO in err.value.message
    with pytest.raises(NotFound):
        call(c, "assign_ticket", ticket_id="HD-1059", assignee="ghost@northwind.example")
    with pytest.raises(InvalidArgument):
        call(c, "assign_ticket", ticket_id="HD-1059")
    with pytest.raises(InvalidArgument):
        call(c, "assign_ticket", ticket_id="HD-1059", assignee="Kai Nakamura", unassign=True)
    with pytest.raises(Conflict) as err:
        call(c, "assign_ticket", ticket_id="HD-1035", unassign=True)
    assert err.value.parameter == "unassign"
    with pytest.raises(Conflict):
        call(c, "assign_ticket", ticket_id="HD-1001", assignee="Kai Nakamura")


def test_change_status_resolve_close_and_reopen():
    c = ctx()
    out = call(c, "change_status", ticket_id="HD-1045", status="resolved", resolution="Deep clean done.")
    assert out["previous_status"] == "open" and out["resolution"] == "Deep clean done."
    assert out["resolved_at"] == "2026-03-09T09:00:00-04:00" and out["next_statuses"] == ["open", "closed"]
    out = call(c, "change_status", ticket_id="HD-1045", status="closed")
    assert out["status"] == "closed" and out["resolution"] == "Deep clean done." and out["closed_at"] is not None
    out = call(c, "change_status", ticket_id="HD-1045", status="open")
    assert out["resolution"] is None and out["resolved_at"] is None and out["closed_at"] is None
    closed = call(c, "change_status", ticket_id="HD-1058", status="closed", resolution="Use the new printer.")
    assert closed["resolved_at"] == closed["closed_at"] == "2026-03-09T09:00:00-04:00"


def test_change_status_rules():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "change_status", ticket_id="HD-1045", status="resolved")
    assert err.value.parameter == "resolution"
    with pytest.raises(InvalidArgument) as err:
        call(c, "change_status", ticket_id="HD-1045", status="closed")
    assert err.value.parameter == "resolution"
    with pytest.raises(InvalidArgument) as err:
        call(c, "change_status", ticket_id="HD-1045", status="waiting", resolution="done")
    assert err.value.parameter == "resolution"
    with pytest.raises(Conflict) as err:
        call(c, "change_status", ticket_id="HD-1045", status="open")
    assert "already open" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "change_status", ticket_id="HD-1001", status="resolved", resolution="x")
    assert "can only go to: open" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "change_status", ticket_id="HD-1036", status="waiting")
    assert "open, closed" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "change_status", ticket_id="HD-1052", status="in_progress")
    assert "assign-ticket" in err.value.message
    assert call(c, "change_status", ticket_id="HD-1001", status="open")["status"] == "open"


# ---- comments and watchers ---------------------------------------------------------------------


def test_add_comment_public_by_requester_reopens_waiting_ticket():
    c = ctx()
    out = call(c, "add_comment", ticket_id="HD-1042", body="PDF attached.")
    assert out["ticket_status"] == "open" and out["comment"]["author"] == ALEX and not out["comment"]["internal"]
    assert c.state.tickets["HD-1042"].updated == NOW


def test_add_comment_internal_or_by_someone_else_keeps_status():
    c = ctx()
    assert call(c, "add_comment", ticket_id="HD-1041", body="Note", internal=True)["ticket_status"] == "waiting"
    assert call(c, "add_comment", ticket_id="HD-1027", body="Jack, can you approve?")["ticket_status"] == "waiting"
    notes = call(c, "list_comments", ticket_id="HD-1041", visibility="internal")
    assert [n["body"] for n in notes["results"]] == [
        "The lodge's events desk says they will answer by March 11.",
        "Note",
    ]


def test_add_comment_errors():
    c = ctx()
    with pytest.raises(InvalidArgument):
        call(c, "add_comment", ticket_id="HD-1041", body="  ")
    with pytest.raises(Conflict):
        call(c, "add_comment", ticket_id="HD-1001", body="Still broken")


def test_list_comments_order_and_filters():
    c = ctx()
    out = call(c, "list_comments", ticket_id="HD-1038")
    assert [x["author"].split("@")[0] for x in out["results"]] == ["mia.thompson", "kai.nakamura", "mia.thompson"]
    assert call(c, "list_comments", ticket_id="HD-1038", visibility="public")["total"] == 2
    assert call(c, "list_comments", ticket_id="HD-1038", page_size=1, page=3)["results"][0]["id"] == "cmt_017"


def test_watchers_add_is_idempotent_and_remove():
    c = ctx()
    out = call(c, "add_watcher", ticket_id="HD-1050", person="Dana Whitfield")
    assert out["added"] and out["watchers"] == ["dana.whitfield@northwind.example"]
    before = c.world.snapshot()
    again = call(c, "add_watcher", ticket_id="HD-1050", person="dana.whitfield@northwind.example")
    assert again["added"] is False and c.world.snapshot() == before
    out = call(c, "remove_watcher", ticket_id="HD-1056", person="me")
    assert out["watchers"] == [LEO]


def test_watcher_errors():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "remove_watcher", ticket_id="HD-1050", person="me")
    assert "not watching" in err.value.message
    with pytest.raises(NotFound):
        call(c, "add_watcher", ticket_id="HD-1050", person="Nobody")
    with pytest.raises(Conflict):
        call(c, "add_watcher", ticket_id="HD-1001", person="me")


# ---- links -------------------------------------------------------------------------------------


def test_link_tickets_and_read_from_both_sides():
    c = ctx()
    out = call(c, "link_tickets", ticket_id="HD-1058", other_ticket_id="HD-1028", relation="duplicates")
    assert out["link"]["relation"] == "duplicates" and out["link"]["ticket_id"] == "HD-1028"
    other = call(c, "get_ticket", ticket_id="HD-1028")["links"]
    assert [(x["relation"], x["ticket_id"]) for x in other] == [("is_duplicated_by", "HD-1058")]
    # a closed ticket can be the target
    closed = call(c, "link_tickets", ticket_id="HD-1059", other_ticket_id="HD-1001", relation="blocks")
    assert closed["link"]["status"] == "closed"
    assert call(c, "get_ticket", ticket_id="HD-1001")["links"][0]["relation"] == "is_blocked_by"


def test_link_errors_and_remove_link():
    c = ctx()
    with pytest.raises(InvalidArgument):
        call(c, "link_tickets", ticket_id="HD-1058", other_ticket_id="hd-1058")
    with pytest.raises(Conflict) as err:
        call(c, "link_tickets", ticket_id="HD-1035", other_ticket_id="HD-1061", relation="blocks")
    assert "lnk_003" in err.value.message
    with pytest.raises(Conflict):
        call(c, "link_tickets", ticket_id="HD-1001", other_ticket_id="HD-1058")
    with pytest.raises(NotFound) as err:
        call(c, "link_tickets", ticket_id="HD-1058", other_ticket_id="HD-2000")
    assert err.value.parameter == "other_ticket_id"
    out = call(c, "remove_link", link_id="lnk_003")
    assert out == {"removed": "lnk_003", "between": ["HD-1061", "HD-1035"]} and "lnk_003" not in c.state.links
    with pytest.raises(NotFound):
        call(c, "remove_link", link_id="lnk_003")


# ---- attachments -------------------------------------------------------------------------------


def test_attach_file_from_workspace_and_from_text():
    c = ctx(MemoryFiles({"downloads/quote.pdf": PDF}))
    att = call(c, "attach_file", ticket_id="HD-1029", path="downloads/quote.pdf")
    assert (att["name"], att["mime_type"], att["size"], att["uploaded_by"]) == (
        "quote.pdf",
        "application/pdf",
        17,
        ALEX,
    )
    assert c.blobs.get(c.state.attachments[att["id"]].blob) == PDF
    renamed = call(c, "attach_file", ticket_id="HD-1029", path="downloads/quote.pdf", name="Quote v2.pdf")
    assert renamed["name"] == "Quote v2.pdf"
    note = call(c, "attach_file", ticket_id="HD-1029", content="seat list", name="seats.txt")
    assert note["mime_type"] == "text/plain" and note["size"] == 9
    names = [a["name"] for a in call(c, "list_attachments", ticket_id="HD-1029")["attachments"]]
    assert names == ["CRM renewal quote Q-55817.pdf", "quote.pdf", "Quote v2.pdf", "seats.txt"]


@pytest.mark.parametrize(
    "pasted",
    [
        "data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K",
        "JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0KeJwr5HIK4TJQMDfUMzZUCEnhMlAwNNczNFEI",
    ],
)
def test_pasted_base64_is_refused(pasted):
    c = ctx(MemoryFiles())
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, "attach_file", ticket_id="HD-1029", content=pasted, name="quote.pdf")
    assert err.value.parameter == "content" and "workspace" in err.value.message and "path=" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", ticket_id="HD-1029", body=pasted)
    assert err.value.parameter == "body" and "helpdesk attach-file" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_ticket", queue="it", title="x", description=pasted)
    assert err.value.parameter == "description"
    assert c.world.snapshot() == before
    assert call(c, "add_comment", ticket_id="HD-1029", body="word " * 30)["comment"]["body"].startswith("word")


def test_attach_file_errors():
    c = ctx(MemoryFiles({"a.pdf": PDF}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "attach_file", ticket_id="HD-1029", content="text")
    assert err.value.parameter == "name"
    with pytest.raises(InvalidArgument):
        call(c, "attach_file", ticket_id="HD-1029", path="a.pdf", content="text", name="x.txt")
    with pytest.raises(InvalidArgument):
        call(c, "attach_file", ticket_id="HD-1029")
    with pytest.raises(NotFound):
        call(c, "attach_file", ticket_id="HD-1029", path="nope.pdf")
    with pytest.raises(InvalidArgument):
        call(c, "attach_file", ticket_id="HD-1029", path="a.pdf", name="dir/a.pdf")
    with pytest.raises(Conflict):
        call(c, "attach_file", ticket_id="HD-1001", path="a.pdf")
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "attach_file", ticket_id="HD-1029", path="a.pdf")
    assert "no workspace" in err.value.message


def test_download_attachment_into_workspace_exact_bytes():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "download_attachment", attachment_id="att_004")
    assert out["saved_to"] == "downloads/Lakeside Lodge AV inventory.pdf" and out["ticket_id"] == "HD-1041"
    assert files.files[out["saved_to"]] == BLOBS[c.state.attachments["att_004"].blob]
    out = call(c, "download_attachment", attachment_id="att_002", save_as="it/alloc.xlsx")
    assert out["saved_to"] == "it/alloc.xlsx" and "content" not in out
    assert read_cell(files.files["it/alloc.xlsx"], "Allocation", "A2") == "NW-LT-0517"


def test_download_attachment_without_workspace():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_attachment", attachment_id="att_004")
    assert "no workspace" in err.value.message
    call(c, "attach_file", ticket_id="HD-1029", content="seat list", name="seats.txt")
    att_id = next(a.id for a in c.state.attachments.values() if a.name == "seats.txt")
    assert call(c, "download_attachment", attachment_id=att_id)["content"] == "seat list"
    with pytest.raises(NotFound) as err:
        call(c, "download_attachment", attachment_id="att_999")
    assert err.value.parameter == "attachment_id"


# ---- all actions -------------------------------------------------------------------------------

FAILING_WRITES = [
    ("create_ticket", {"queue": "it", "title": "x", "description": "y", "attachments": ["a.pdf", "missing.pdf"]}),
    ("create_ticket", {"queue": "it", "title": "x", "description": "y", "watchers": ["me", "ghost"]}),
    ("update_ticket", {"ticket_id": "HD-1050", "priority": "high", "due": "yesterday"}),
    ("update_ticket", {"ticket_id": "HD-1050", "title": "ok", "queue": "Legal"}),
    ("update_ticket", {"ticket_id": "HD-1001", "priority": "high"}),
    ("assign_ticket", {"ticket_id": "HD-1059", "assignee": "Ruby Walker"}),
    ("assign_ticket", {"ticket_id": "HD-1035", "unassign": True}),
    ("change_status", {"ticket_id": "HD-1052", "status": "in_progress"}),
    ("change_status", {"ticket_id": "HD-1045", "status": "resolved"}),
    ("change_status", {"ticket_id": "HD-1001", "status": "waiting"}),
    ("add_comment", {"ticket_id": "HD-1001", "body": "hello"}),
    ("add_watcher", {"ticket_id": "HD-1050", "person": "ghost@northwind.example"}),
    ("remove_watcher", {"ticket_id": "HD-1050", "person": "Dana Whitfield"}),
    ("link_tickets", {"ticket_id": "HD-1035", "other_ticket_id": "HD-1034"}),
    ("remove_link", {"link_id": "lnk_404"}),
    ("attach_file", {"ticket_id": "HD-1029", "path": "missing.pdf"}),
    ("attach_file", {"ticket_id": "HD-1001", "path": "a.pdf"}),
]


@pytest.mark.parametrize(("action", "args"), FAILING_WRITES)
def test_failed_write_leaves_world_unchanged(action, args):
    c = ctx(MemoryFiles({"a.pdf": PDF}))
    before = c.world.snapshot()
    with pytest.raises((InvalidArgument, Conflict, NotFound)):
        call(c, action, **args)
    assert c.world.snapshot() == before


def test_read_actions_are_marked_read_only():
    flags = {name: a.read_only for name, a in helpdesk.app.actions.items()}
    assert [n for n, ro in flags.items() if ro] == [
        "list_queues",
        "get_ticket",
        "search_tickets",
        "sla_overview",
        "list_comments",
        "list_attachments",
        "download_attachment",
    ]
    assert len(flags) == 17
    assert all(len(a.tool_name) <= 48 for a in helpdesk.app.actions.values())


def test_read_actions_change_nothing():
    c = ctx(MemoryFiles())
    before = c.world.snapshot()
    call(c, "list_queues")
    call(c, "search_tickets", text="laptop")
    call(c, "sla_overview")
    call(c, "get_ticket", ticket_id="HD-1041")
    call(c, "list_comments", ticket_id="HD-1041")
    call(c, "list_attachments", ticket_id="HD-1041")
    call(c, "download_attachment", attachment_id="att_004")
    assert c.world.snapshot() == before


def test_docstring_examples_name_real_ids():
    data = build(people_records(), NOW, USER)
    known = set(data["tickets"]) | set(data["attachments"]) | set(data["links"])
    text = " ".join(a.description for a in helpdesk.app.actions.values())
    mentioned = set(re.findall(r"\b(HD-\d{4}|att_\d{3}|lnk_\d{3})\b", text))
    assert len(mentioned) >= 12
    assert mentioned <= known | {"HD-1063"}
