"""The OneDrive app as a whole: its words, tool names, docstring examples, and failed writes changing nothing."""

import re

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call, unchanged
from tools.apps import onedrive
from tools.companies import build_default
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text
from tools.kernel.exceptions import Conflict, InvalidArgument

RUBY = "ruby.walker@northwind.example"
AMELIA = "amelia.ward@northwind.example"


def test_app_and_data_avoid_internal_words():
    data = build_default()["onedrive"]
    text = repr(data).lower()
    text += " ".join(extract_text(BLOBS[i["blob"]], i["name"]) for i in data["items"].values() if i.get("blob")).lower()
    text += " ".join(a.description + str(a.input_schema) for a in onedrive.app.actions.values()).lower()
    text += onedrive.app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, text) == []
    assert re.findall(r"\brl\b", text) == []


def test_tool_names_fit_clients_and_reads_are_marked():
    acts = onedrive.app.actions
    assert len(acts) == 22
    assert all(len(a.tool_name) <= 48 for a in acts.values())
    assert sorted(n for n, a in acts.items() if a.read_only) == [
        "download_file",
        "get_item",
        "list_children",
        "list_permissions",
        "list_recent",
        "list_recycle_bin",
        "list_shared_with_me",
        "list_sharing_links",
        "list_versions",
        "search_items",
    ]


def test_docstring_examples_name_real_ids_and_paths():
    data = build_default()["onedrive"]
    ids = set(data["items"]) | set(data["links"])
    text = " ".join(a.description for a in onedrive.app.actions.values())
    mentioned = set(re.findall(r"\"((?:itm|lnk)_[a-z0-9_]+)\"", text))
    assert len(mentioned) >= 8 and mentioned <= ids
    c = app_ctx("onedrive")
    paths = set(re.findall(r"\"(/(?:Documents|Desktop|Pictures)[^\"]*)\"", text)) - {"/Documents/Travel"}
    assert len(paths) >= 5
    for path in paths:
        assert call(c, "get_item", item=path)["path"] == path


# ---- failed writes change nothing --------------------------------------------------------------

FAILING_WRITES = [
    ("create_folder", {"name": "Budgets", "parent": "/Documents"}),
    ("create_folder", {"name": "x", "parent": "/Nope"}),
    ("upload_file", {"name": "a.csv", "folder": "/Documents", "content": "x", "path": "y"}),
    ("upload_file", {"name": "Attendees.csv", "folder": "itm_offsite", "content": "x"}),
    ("upload_file", {"name": "a.docx", "content": "x"}),
    ("upload_file", {"item_id": "itm_shared_q1_forecast", "content": "x"}),
    ("upload_file", {"name": "a.txt", "content": "data:text/plain;base64,aGVsbG8="}),
    ("copy_item", {"item": "itm_documents", "destination": "itm_atlas"}),
    ("copy_item", {"item": "itm_q1_budget", "destination": "itm_budgets"}),
    ("move_item", {"item": "itm_shared_offsite_seating", "destination": "/"}),
    ("move_item", {"item": "itm_documents", "destination": "itm_hiring"}),
    ("rename_item", {"item": "itm_q1_budget", "new_name": "Q2 budget draft.xlsx"}),
    ("rename_item", {"item": "itm_shared_q1_forecast", "new_name": "x.xlsx"}),
    ("delete_item", {"item": "itm_shared_exec_agenda"}),
    ("restore_item", {"item_id": "itm_old_shot_2"}),
    ("restore_version", {"item": "itm_q1_budget", "version": 3}),
    ("grant_access", {"item": "itm_todo", "recipients": [RUBY, "ghost@northwind.example"]}),
    ("grant_access", {"item": "itm_shared_q1_forecast", "recipients": [RUBY]}),
    ("remove_permission", {"item": "itm_offsite_budget", "email": AMELIA}),
    ("create_sharing_link", {"item": "itm_todo", "expires": "2026-01-01"}),
    ("create_sharing_link", {"item": "itm_todo", "scope": "specific_people", "recipients": ["Nobody Here"]}),
    ("revoke_sharing_link", {"link": "lnk_missing"}),
]


@pytest.mark.parametrize(("action", "args"), FAILING_WRITES)
def test_failed_write_leaves_world_unchanged(action, args):
    c = app_ctx("onedrive", MemoryFiles({"y": b"z"}))
    unchanged(c, action, (InvalidArgument, Conflict), **args)
