"""Helpdesk actions on links between tickets: link two tickets, remove a link."""

from __future__ import annotations

from typing import Any

from tools.apps.helpdesk._rules import find_ticket, require_editable
from tools.apps.helpdesk._views import link_view
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import HelpdeskState, Link, LinkKind
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context

__all__ = ["link_tickets", "remove_link"]


@app.action(read_only=False)
def link_tickets(
    ctx: Context[HelpdeskState], ticket_id: str, other_ticket_id: str, relation: LinkKind = "relates_to"
) -> dict[str, Any]:
    """Link two tickets: one relates to, duplicates, or blocks the other.

    Read it as "<ticket_id> <relation> <other_ticket_id>": ticket_id="HD-1060" relation="blocks"
    other_ticket_id="HD-1061" says HD-1060 must be done before HD-1061. Linking does not change
    either ticket's status. Two tickets can have only one link between them.

    Example:
        ticket_id="HD-1060" other_ticket_id="HD-1061" relation="blocks" -> the link as seen from HD-1060.

    Args:
        ticket_id: Key of the ticket the link is made on (must not be closed).
        other_ticket_id: Key of the ticket it points to (any status).
        relation: "relates_to", "duplicates" or "blocks".

    Returns:
        {"ticket_id", "link": {"id", "relation", "ticket_id", "title", "status"}}.
    """
    t = find_ticket(ctx, ticket_id)
    other = find_ticket(ctx, other_ticket_id, "other_ticket_id")
    if other.id == t.id:
        raise InvalidArgument("a ticket cannot be linked to itself; give another ticket's key", "other_ticket_id")
    require_editable(t)
    for lk in ctx.state.links.values():
        if {lk.source_id, lk.target_id} == {t.id, other.id}:
            raise Conflict(
                f"{lk.source_id} already {lk.kind.replace('_', ' ')} {lk.target_id} ({lk.id}); remove that link "
                "with helpdesk remove-link first to change it",
                "other_ticket_id",
            )
    link = Link(
        id=ctx.new_id("lnk"), source_id=t.id, target_id=other.id, kind=relation, created=ctx.now, created_by=ctx.user
    )
    ctx.state.links[link.id] = link
    t.updated = ctx.now
    return {"ticket_id": t.id, "link": link_view(ctx, link, t.id)}


@app.action(read_only=False)
def remove_link(ctx: Context[HelpdeskState], link_id: str) -> dict[str, Any]:
    """Remove a link between two tickets.

    Example:
        link_id="lnk_003" -> {"removed": "lnk_003", "between": ["HD-1061", "HD-1035"]}.

    Args:
        link_id: The link's id (from get-ticket, under "links").

    Returns:
        {"removed": link id, "between": [ticket keys]}.
    """
    link = ctx.state.links.get(link_id.strip())
    if link is None:
        raise NotFound(f"no link '{link_id}'; get-ticket lists a ticket's links with their ids", "link_id")
    source = ctx.state.tickets[link.source_id]
    require_editable(source, "link_id")
    del ctx.state.links[link.id]
    source.updated = ctx.now
    return {"removed": link.id, "between": [link.source_id, link.target_id]}
