import re

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.box.conftest import DOCX
from tests.tools.apps.conftest import app_ctx, unchanged
from tools.apps.box import app
from tools.companies import build_default
from tools.kernel.exceptions import Conflict, InvalidArgument

DATA = build_default("box")["box"]


def test_tool_names_fit_clients():
    assert len(app.actions) == 24
    assert all(len(a.tool_name) <= 48 for a in app.actions.values())


# ---- failed writes change nothing ------------------------------------------------------------------

FAILING_WRITES = [
    ("upload_file", {"folder_id": "folder_payments", "name": "Payment run 2026-03-06.csv", "content": "x"}),
    ("upload_file", {"folder_id": "folder_legal_templates", "name": "x.md", "content": "x"}),
    ("upload_file", {"folder_id": "folder_payments", "name": "x.csv", "content": "data:text/csv;base64,eA=="}),
    ("upload_version", {"file_id": "file_inv_20417", "content": "plain"}),
    ("promote_version", {"file_id": DOCX, "version": 3}),
    ("create_folder", {"name": "Legal"}),
    ("move_item", {"item_id": "folder_partners", "folder_id": "folder_partners_lakeside"}),
    ("copy_item", {"item_id": "file_inv_20417", "folder_id": "folder_invoices_2026_02"}),
    ("rename_item", {"item_id": "file_inv_20417", "new_name": "INV-20417.xlsx"}),
    ("trash_item", {"item_id": "folder_legal"}),
    ("restore_item", {"item_id": "file_payment_run_2026_03_06_draft"}),
    (
        "invite_collaborator",
        {"folder_id": "folder_finance", "email": "ella.moore@northwind.example", "role": "co-owner"},
    ),
    ("update_collaboration", {"collaboration_id": "collab_marcus_finance", "role": "viewer"}),
    ("remove_collaboration", {"collaboration_id": "collab_hannah_legal"}),
    ("create_shared_link", {"item_id": "file_inv_20417", "access": "company", "password": "Secret123"}),
    ("remove_shared_link", {"item_id": "file_inv_20417"}),
    ("add_comment", {"file_id": "file_access_review_q4", "message": "hi"}),
    ("delete_comment", {"comment_id": "comment_agreement_cpi"}),
]


@pytest.mark.parametrize(
    ("action", "args"), FAILING_WRITES, ids=[f"{a}-{n}" for n, (a, _) in enumerate(FAILING_WRITES)]
)
def test_failed_write_leaves_world_unchanged(action, args):
    c = app_ctx("box", MemoryFiles())
    unchanged(c, action, (InvalidArgument, Conflict), **args)


def test_read_actions_are_marked_read_only():
    flags = {name: a.read_only for name, a in app.actions.items()}
    assert sorted(n for n, ro in flags.items() if ro) == [
        "download_file",
        "get_item",
        "list_collaborations",
        "list_comments",
        "list_folder",
        "list_trash",
        "list_versions",
        "search",
    ]


def test_docstring_examples_name_real_ids():
    ids = set(DATA["folders"]) | set(DATA["files"]) | set(DATA["collaborations"]) | set(DATA["comments"])
    text_all = " ".join(a.description for a in app.actions.values())
    mentioned = set(re.findall(r"=\"((?:file|folder|collab|comment)_[a-z0-9_]+)\"", text_all))
    assert len(mentioned) >= 12
    assert mentioned <= ids
