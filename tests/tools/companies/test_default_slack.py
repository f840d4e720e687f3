"""The chat's part of the default company: its shape, its agreement with the company's facts, its words."""

import re

from tests.tools.apps.slack.conftest import state
from tools.apps.slack import app
from tools.companies import NOW, USER
from tools.companies.default.people import people_records
from tools.companies.default.slack import build
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell, sniff


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
    blob += " ".join(a.description + str(a.input_schema) for a in app.actions.values()).lower()
    blob += app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, blob) == []
    assert re.findall(r"\brl\b", blob) == []


def test_tool_names_fit_clients():
    assert len(app.actions) == 27
    assert max(len(a.tool_name) for a in app.actions.values()) <= 48
