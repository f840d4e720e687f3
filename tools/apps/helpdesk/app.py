"""The helpdesk app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.helpdesk.state import HelpdeskState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "helpdesk",
    HelpdeskState,
    "The company's internal helpdesk: requests to IT, Facilities, People Ops and Finance Ops, tracked as tickets.",
    order=(
        "list_queues",
        "get_ticket",
        "search_tickets",
        "sla_overview",
        "create_ticket",
        "update_ticket",
        "assign_ticket",
        "change_status",
        "add_comment",
        "list_comments",
        "add_watcher",
        "remove_watcher",
        "link_tickets",
        "remove_link",
        "attach_file",
        "list_attachments",
        "download_attachment",
    ),
)
