"""The mail app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.gmail.state import GmailState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "gmail",
    GmailState,
    "Company mail: search, read, send, reply to and forward messages; drafts, labels, filters and a vacation reply.",
    order=(
        "search_messages",
        "get_message",
        "get_thread",
        "send_message",
        "reply_to_message",
        "forward_message",
        "create_draft",
        "list_drafts",
        "update_draft",
        "delete_draft",
        "send_draft",
        "list_labels",
        "create_label",
        "modify_labels",
        "archive_message",
        "mark_read",
        "mark_unread",
        "trash_message",
        "get_attachment",
        "create_filter",
        "list_filters",
        "delete_filter",
        "get_vacation",
        "set_vacation",
        "list_contacts",
    ),
)
