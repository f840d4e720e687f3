import re

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, unchanged
from tools.apps.drive import app
from tools.companies import NOW, USER
from tools.companies.default.drive import build
from tools.companies.default.people import people_records
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

FAILING_WRITES = [
    ("create_folder", {"name": "Finance"}),
    ("create_folder", {"name": "x", "parent_id": "fld_engineering"}),
    ("create_folder", {"name": "x", "parent_id": "sd_company_policies"}),
    ("create_file", {"name": "a.txt", "parent_id": "fld_nope", "content": "x"}),
    ("create_file", {"name": "a.txt", "content": "x", "path": "y"}),
    ("upload_file", {"path": "a.txt", "parent_id": "fld_budgets", "name": "Q2 budget draft.csv"}),
    ("upload_file", {"path": "missing.txt", "parent_id": "fld_budgets", "conflict": "replace"}),
    ("upload_file", {"path": "a.txt", "name": "NDA template.docx", "conflict": "replace"}),
    ("update_file", {"file_id": "file_q1_budget", "content": "x"}),
    ("update_file", {"file_id": "file_reading_list", "path": "missing.txt"}),
    ("copy_file", {"file_id": "file_q1_budget", "parent_id": "sd_company_policies"}),
    ("move_file", {"file_id": "fld_shared", "new_parent_id": "fld_board"}),
    ("move_file", {"file_id": "file_nda_template", "new_parent_id": "root"}),
    ("move_file", {"file_id": "file_reading_list", "new_parent_id": "sd_atlas_program"}),
    ("rename_file", {"file_id": "file_q1_budget", "new_name": "Q2 budget draft.csv"}),
    ("trash_file", {"file_id": "file_customer_health_scores"}),
    ("trash_file", {"file_id": "file_untitled_document"}),
    ("trash_file", {"file_id": "file_price_list_2026"}),
    ("restore_file", {"file_id": "file_reading_list"}),
    ("share_file", {"file_id": "file_q1_budget", "email": "nobody@northwind.example"}),
    ("share_file", {"file_id": "file_engineering_hiring_plan_2026", "email": "grace.kim@northwind.example"}),
    ("share_file", {"file_id": "file_q1_budget", "email": "priya.shah@northwind.example"}),
    ("remove_permission", {"file_id": "file_q1_budget", "email": "priya.shah@northwind.example"}),
    ("remove_permission", {"file_id": "file_nda_template", "email": "hannah.wood@northwind.example"}),
    ("restore_version", {"file_id": "file_contoso_renewal_proposal", "version": 2}),
    ("add_comment", {"file_id": "file_nda_template", "text": "x"}),
    ("add_comment", {"file_id": "file_q1_budget", "text": "x", "quote": "not in the file"}),
    ("reply_to_comment", {"comment_id": "cmt_0001", "text": " "}),
    ("resolve_comment", {"comment_id": "cmt_0004"}),
]


@pytest.mark.parametrize(("action", "args"), FAILING_WRITES)
def test_failed_write_leaves_world_unchanged(action, args):
    c = app_ctx("drive", MemoryFiles({"a.txt": b"hello"}))
    unchanged(c, action, (InvalidArgument, Conflict, NotFound), **args)


def test_read_actions_are_marked_read_only():
    flags = {name: a.read_only for name, a in app.actions.items()}
    assert [n for n, ro in flags.items() if ro] == [
        "search_files",
        "list_folder",
        "get_file",
        "read_file",
        "download_file",
        "list_permissions",
        "list_shared_drives",
        "list_versions",
        "list_comments",
    ]
    assert len(flags) == 24
    assert all(len(a.tool_name) <= 48 for a in app.actions.values())


def test_docstring_examples_name_real_ids():
    data = build(people_records(), NOW, USER)
    ids = set(data["files"]) | set(data["shared_drives"]) | set(data["comments"])
    text = " ".join(a.description for a in app.actions.values())
    mentioned = set(re.findall(r"\"((?:file|fld|sd|cmt)_[a-z0-9_]+)\"", text)) - {"file_id"}
    assert len(mentioned) >= 14
    assert mentioned <= ids
