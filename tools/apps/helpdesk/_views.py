"""The JSON shapes the helpdesk's actions return: queues, tickets (short and full), comments, attachments, links."""

from __future__ import annotations

from typing import Any

from tools.apps.helpdesk._rules import hours_left
from tools.apps.helpdesk.state import ACTIVE, TRANSITIONS, Attachment, Comment, HelpdeskState, Link, Queue, Ticket
from tools.kernel.world import Context, format_instant, view

__all__ = ["attachment_view", "comment_view", "detail", "link_view", "queue_view", "sla_row", "summary"]

#: How a link reads from the other ticket's side.
_REVERSE = {"relates_to": "relates_to", "duplicates": "is_duplicated_by", "blocks": "is_blocked_by"}


def _overdue(ctx: Context[HelpdeskState], ticket: Ticket) -> bool:
    return ticket.status in ACTIVE and ticket.due < ctx.now


def queue_view(ctx: Context[HelpdeskState], q: Queue) -> dict[str, Any]:
    """A queue with its staff, due-time targets and counts of its unfinished and overdue tickets."""
    active = [t for t in ctx.state.tickets.values() if t.queue_id == q.id and t.status in ACTIVE]
    return {
        "id": q.id,
        "name": q.name,
        "description": q.description,
        "lead": q.lead,
        "staff": list(q.staff),
        "due_hours_by_priority": dict(q.sla_hours),
        "open_tickets": len(active),
        "overdue_tickets": sum(t.due < ctx.now for t in active),
    }


def summary(ctx: Context[HelpdeskState], t: Ticket) -> dict[str, Any]:
    """The short view used in lists."""
    return {
        "id": t.id,
        "queue": t.queue_id,
        "title": t.title,
        "status": t.status,
        "priority": t.priority,
        "category": t.category,
        "requester": t.requester,
        "assignee": t.assignee or None,
        "created": format_instant(t.created, ctx.tz),
        "updated": format_instant(t.updated, ctx.tz),
        "due": format_instant(t.due, ctx.tz),
        "overdue": _overdue(ctx, t),
    }


def sla_row(ctx: Context[HelpdeskState], t: Ticket, left: float) -> dict[str, Any]:
    """A ticket's line in the SLA overview, ``left`` being its hours to the due time."""
    return {
        "id": t.id,
        "queue": t.queue_id,
        "title": t.title,
        "status": t.status,
        "priority": t.priority,
        "assignee": t.assignee or None,
        "due": format_instant(t.due, ctx.tz),
        "hours_left": left,
        "overdue": left < 0,
    }


def comment_view(ctx: Context[HelpdeskState], c: Comment) -> dict[str, Any]:
    """A comment as callers see it."""
    return {
        "id": c.id,
        "ticket_id": c.ticket_id,
        "author": c.author,
        "body": c.body,
        "internal": c.internal,
        "created": format_instant(c.created, ctx.tz),
    }


def attachment_view(ctx: Context[HelpdeskState], a: Attachment) -> dict[str, Any]:
    """An attachment's details (never its bytes)."""
    return {
        "id": a.id,
        "ticket_id": a.ticket_id,
        "name": a.name,
        "mime_type": a.mime_type,
        "size": a.size,
        "uploaded_by": a.uploaded_by,
        "created": format_instant(a.created, ctx.tz),
    }


def link_view(ctx: Context[HelpdeskState], link: Link, side: str) -> dict[str, Any]:
    """A link as read from ticket ``side``: {"id", "relation", "ticket_id", "title", "status"}."""
    outgoing = link.source_id == side
    other_id = link.target_id if outgoing else link.source_id
    other = ctx.state.tickets.get(other_id)
    return {
        "id": link.id,
        "relation": link.kind if outgoing else _REVERSE[link.kind],
        "ticket_id": other_id,
        "title": other.title if other else "",
        "status": other.status if other else "",
    }


@view
def detail(ctx: Context[HelpdeskState], t: Ticket) -> dict[str, Any]:
    """The full view: the summary plus text, people, resolution, comments, attachments and links."""
    st = ctx.state
    queue = st.queues.get(t.queue_id)
    comments = sorted((c for c in st.comments.values() if c.ticket_id == t.id), key=lambda c: (c.created, c.id))
    files = sorted((a for a in st.attachments.values() if a.ticket_id == t.id), key=lambda a: (a.created, a.id))
    links = sorted(
        (lk for lk in st.links.values() if t.id in (lk.source_id, lk.target_id)), key=lambda lk: (lk.created, lk.id)
    )
    return {
        **summary(ctx, t),
        "queue_name": queue.name if queue else t.queue_id,
        "description": t.description,
        "watchers": list(t.watchers),
        "resolution": t.resolution or None,
        "resolved_at": format_instant(t.resolved_at, ctx.tz) if t.resolved_at else None,
        "closed_at": format_instant(t.closed_at, ctx.tz) if t.closed_at else None,
        **({"reopens": t.reopens, "reopened_at": format_instant(t.reopened_at, ctx.tz)} if t.reopened_at else {}),
        "hours_to_due": hours_left(ctx, t) if t.status in ACTIVE else None,
        "next_statuses": list(TRANSITIONS[t.status]),
        "comments": [comment_view(ctx, c) for c in comments],
        "attachments": [attachment_view(ctx, a) for a in files],
        "links": [link_view(ctx, lk, t.id) for lk in links],
    }
