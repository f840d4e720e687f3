"""Every helpdesk action: failed writes change nothing, reads are read-only, docstring ids are real."""

import re

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call, unchanged
from tools.apps.helpdesk import app
from tools.companies import NOW, USER
from tools.companies.default.helpdesk import build
from tools.companies.default.people import people_records
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

PDF = b"%PDF-1.4\n% quote\n"


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
    c = app_ctx("helpdesk", MemoryFiles({"a.pdf": PDF}))
    unchanged(c, action, (InvalidArgument, Conflict, NotFound), **args)


def test_read_actions_are_marked_read_only():
    flags = {name: a.read_only for name, a in app.actions.items()}
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
    assert all(len(a.tool_name) <= 48 for a in app.actions.values())


def test_read_actions_change_nothing():
    c = app_ctx("helpdesk", MemoryFiles())
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
    text = " ".join(a.description for a in app.actions.values())
    mentioned = set(re.findall(r"\b(HD-\d{4}|att_\d{3}|lnk_\d{3})\b", text))
    assert len(mentioned) >= 12
    assert mentioned <= known | {"HD-1063"}
