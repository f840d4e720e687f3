import pytest

from tests.tools.apps.conftest import app_ctx, call, unchanged
from tests.tools.apps.gmail.conftest import only
from tools.apps.gmail import SYSTEM_LABELS
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# --- labels -------------------------------------------------------------------------------------


def test_list_labels_counts():
    c = app_ctx("gmail")
    labels = {lab["name"]: lab for lab in call(c, "list_labels")["labels"]}
    assert list(labels)[:7] == list(SYSTEM_LABELS)
    assert labels["Finance"] == {"name": "Finance", "type": "user", "messages": 14, "unread": 3}
    assert labels["DRAFT"]["messages"] == 4
    assert labels["TRASH"]["messages"] == 3
    inbox = [m for m in c.state.messages.values() if "INBOX" in m.labels and "TRASH" not in m.labels]
    assert labels["INBOX"]["messages"] == len(inbox)
    assert labels["INBOX"]["unread"] == sum("UNREAD" in m.labels for m in inbox)


def test_create_label_and_use_it():
    c = app_ctx("gmail")
    out = call(c, "create_label", name="  Board   prep ")
    assert out["name"] == "Board prep"
    assert c.state.labels[out["id"]].name == "Board prep"
    hit = only(c, "filename:offsite_venues.csv")
    call(c, "modify_labels", message_id=hit["id"], add=["board-prep"])
    assert only(c, 'label:"board prep"')["id"] == hit["id"]


def test_create_label_clash_changes_nothing():
    c = app_ctx("gmail")
    assert unchanged(c, "create_label", Conflict, name="finance").parameter == "name"
    assert unchanged(c, "create_label", Conflict, name="Inbox").parameter == "name"
    assert unchanged(c, "create_label", InvalidArgument, name="   ").parameter == "name"


def test_modify_labels_archive_star_and_mark_read():
    c = app_ctx("gmail")
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    out = call(c, "modify_labels", message_id=hit["id"], add=["starred", "Finance"], remove=["unread", "INBOX"])
    assert out["added"] == ["STARRED"]
    assert out["removed"] == ["UNREAD", "INBOX"]
    assert c.state.messages[hit["id"]].labels == ["Vendors", "Finance", "STARRED"]
    assert call(c, "search_messages", query="in:inbox from:tomas.rivera subject:INV-20417")["total"] == 0


@pytest.mark.parametrize(
    ("args", "param"),
    [
        ({}, "add"),
        ({"add": ["Receipts"]}, "add"),
        ({"remove": ["SENT"]}, "remove"),
        ({"add": ["DRAFT"]}, "add"),
        ({"add": ["STARRED"], "remove": ["starred"]}, "remove"),
        ({"add": ["STARRED", "nope"]}, "add"),
    ],
)
def test_modify_labels_errors_change_nothing(args, param):
    c = app_ctx("gmail")
    hit = only(c, "from:tomas.rivera subject:INV-20417")
    err = unchanged(c, "modify_labels", InvalidArgument, message_id=hit["id"], **args)
    assert err.parameter == param


def test_modify_labels_unknown_message():
    assert (
        unchanged(app_ctx("gmail"), "modify_labels", NotFound, message_id="x", add=["STARRED"]).parameter
        == "message_id"
    )


# --- archive, read and unread -------------------------------------------------------------------


def test_archive_mark_read_and_unread_in_batches():
    c = app_ctx("gmail")
    tomas = only(c, "from:tomas.rivera subject:INV-20417")["id"]
    venues = only(c, "filename:offsite_venues.csv")["id"]
    out = call(c, "archive_message", message_ids=[tomas, venues, tomas])
    assert out == {"changed": [tomas, venues], "unchanged": []}
    assert "INBOX" not in c.state.messages[tomas].labels and "Finance" in c.state.messages[tomas].labels
    assert call(c, "archive_message", message_ids=[tomas]) == {"changed": [], "unchanged": [tomas]}
    assert call(c, "mark_read", message_ids=[tomas, venues]) == {"changed": [tomas], "unchanged": [venues]}
    assert "UNREAD" not in c.state.messages[tomas].labels
    assert call(c, "mark_unread", message_ids=[venues]) == {"changed": [venues], "unchanged": []}
    assert c.state.messages[venues].labels[-1] == "UNREAD"
    assert only(c, "is:unread filename:offsite_venues.csv")["id"] == venues
    assert call(c, "search_messages", query="in:inbox from:tomas.rivera")["total"] == 0


def test_archive_and_marking_errors_change_nothing():
    c = app_ctx("gmail")
    tomas = only(c, "from:tomas.rivera subject:INV-20417")["id"]
    for action in ("archive_message", "mark_read", "mark_unread"):
        err = unchanged(c, action, NotFound, message_ids=[tomas, "msg_9999"])
        assert err.parameter == "message_ids" and "msg_9999" in err.message
        assert unchanged(c, action, InvalidArgument, message_ids=[]).parameter == "message_ids"
