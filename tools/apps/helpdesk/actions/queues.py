"""Helpdesk actions on queues: list them with their support staff."""

from __future__ import annotations

from typing import Any

from tools.apps.helpdesk._views import queue_view
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import HelpdeskState
from tools.kernel.world import Context

__all__ = ["list_queues"]


@app.action(read_only=True)
def list_queues(ctx: Context[HelpdeskState]) -> dict[str, Any]:
    """List the helpdesk queues (IT, Facilities, People Ops, Finance Ops) with their support staff.

    Each queue shows who may be assigned its tickets, its lead, how many hours after creation a
    ticket is due for each priority, and how many tickets it has open right now.

    Example:
        (no parameters) -> [{"id": "it", "name": "IT", "staff": ["leo.hall@northwind.example", ...], ...}, ...].

    Returns:
        {"queues": [{"id", "name", "description", "lead", "staff" (emails), "due_hours_by_priority",
        "open_tickets", "overdue_tickets"}]}.
    """
    return {"queues": [queue_view(ctx, q) for q in ctx.state.queues.values()]}
