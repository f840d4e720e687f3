from tests.tools.apps.conftest import app_ctx, call
from tools import REGISTRY

effective_role = REGISTRY.apps["drive"].outcomes["effective_role"]


def test_effective_role_counts_access_inherited_from_a_folder():
    c = app_ctx("drive")
    # Ruby edits the offsite folder, so she edits the agenda inside it without a share of her own.
    assert effective_role(c.state, "file_offsite_agenda_draft", "ruby.walker@northwind.example") == "writer"
    assert effective_role(c.state, "file_offsite_agenda_draft", "marcus.reed@northwind.example") == "commenter"
    call(c, "share_file", file_id="file_offsite_agenda_draft", email="marcus.reed@northwind.example", role="writer")
    assert effective_role(c.state, "file_offsite_agenda_draft", "marcus.reed@northwind.example") == "writer"


def test_effective_role_of_a_missing_or_trashed_item_is_none():
    c = app_ctx("drive")
    assert effective_role(c.state, "no_such_file", "alex.morgan@northwind.example") is None
    call(c, "trash_file", file_id="file_offsite_agenda_draft")
    assert effective_role(c.state, "file_offsite_agenda_draft", "alex.morgan@northwind.example") is None
