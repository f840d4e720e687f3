"""The helpdesk's part of the default company: counts, consistency, company facts, real documents."""

import re
from datetime import timedelta

from tools.apps.helpdesk import HelpdeskState, app
from tools.companies import NOW, USER
from tools.companies.default.helpdesk import build
from tools.companies.default.people import people_records
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell


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
    text += " ".join(a.description + str(a.input_schema) for a in app.actions.values()).lower()
    text += app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, text) == []
    assert re.findall(r"\brl\b", text) == []
