"""Helpdesk actions on a ticket's watchers: add and remove them."""

from __future__ import annotations

from typing import Any

from tools.apps.helpdesk._rules import find_ticket, person_email, require_editable
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import HelpdeskState
from tools.kernel.exceptions import NotFound
from tools.kernel.world import Context

__all__ = ["add_watcher", "remove_watcher"]


@app.action(read_only=False)
def add_watcher(ctx: Context[HelpdeskState], ticket_id: str, person: str) -> dict[str, Any]:
    """Keep someone informed about a ticket: watchers hear about every public change.

    Example:
        ticket_id="HD-1050" person="Dana Whitfield" -> {"ticket_id": "HD-1050", "watchers": [...], "added": true}.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        person: Email or full name of the person to add; "me" for yourself.

    Returns:
        {"ticket_id", "watchers": [emails], "added": false when they were already watching}.
    """
    t = find_ticket(ctx, ticket_id)
    email = person_email(ctx, person, "person")
    require_editable(t)
    if email in t.watchers:
        return {"ticket_id": t.id, "watchers": list(t.watchers), "added": False}
    t.watchers = [*t.watchers, email]
    t.updated = ctx.now
    return {"ticket_id": t.id, "watchers": list(t.watchers), "added": True}


@app.action(read_only=False)
def remove_watcher(ctx: Context[HelpdeskState], ticket_id: str, person: str) -> dict[str, Any]:
    """Stop someone watching a ticket.

    Example:
        ticket_id="HD-1056" person="me" -> {"ticket_id": "HD-1056", "watchers": [...]} without you.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        person: Email or full name of the watcher to remove; "me" for yourself.

    Returns:
        {"ticket_id", "watchers": [emails]}.
    """
    t = find_ticket(ctx, ticket_id)
    email = person_email(ctx, person, "person")
    require_editable(t)
    if email not in t.watchers:
        raise NotFound(f"{email} is not watching {t.id}; its watchers are: {', '.join(t.watchers) or 'none'}", "person")
    t.watchers = [w for w in t.watchers if w != email]
    t.updated = ctx.now
    return {"ticket_id": t.id, "watchers": list(t.watchers)}
