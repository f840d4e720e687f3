"""Records, rules and views of the helpdesk: queues, tickets, comments, attachments and links.

The actions live in ``tools.helpdesk``; this module holds what they share: the state model,
the status rules (which status may follow which), lookups that raise clear errors, and the
dictionaries the actions return.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from typing import Any, Literal

from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import AppState, Context, Record, format_instant, parse_date, parse_instant
from tools.kits.files import looks_encoded
from tools.kits.people import DirectoryState, find_person
from tools.kits.text import fold

__all__ = [
    "ACTIVE",
    "PRIORITY_RANK",
    "TRANSITIONS",
    "Attachment",
    "Comment",
    "HelpdeskState",
    "Link",
    "LinkKind",
    "Priority",
    "Queue",
    "Status",
    "Ticket",
    "attachment_view",
    "comment_view",
    "detail",
    "find_queue",
    "find_ticket",
    "hours_left",
    "link_view",
    "parse_bound",
    "parse_due",
    "person_email",
    "refuse_encoded",
    "require_editable",
    "store_attachment",
    "summary",
]

Priority = Literal["low", "normal", "high", "urgent"]
Status = Literal["open", "in_progress", "waiting", "resolved", "closed"]
LinkKind = Literal["relates_to", "duplicates", "blocks"]

#: Statuses of tickets still being worked on.
ACTIVE = ("open", "in_progress", "waiting")
#: Sort rank of each priority, most pressing first.
PRIORITY_RANK = {"urgent": 0, "high": 1, "normal": 2, "low": 3}
#: Which status may follow which. A closed ticket can only be reopened.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "open": ("in_progress", "waiting", "resolved", "closed"),
    "in_progress": ("open", "waiting", "resolved", "closed"),
    "waiting": ("open", "in_progress", "resolved", "closed"),
    "resolved": ("open", "closed"),
    "closed": ("open",),
}
#: How a link reads from the other ticket's side.
_REVERSE = {"relates_to": "relates_to", "duplicates": "is_duplicated_by", "blocks": "is_blocked_by"}


class Queue(Record):
    """A team that takes requests, with its support staff and resolution targets."""

    id: str
    name: str
    description: str
    lead: str  # email of the queue lead
    staff: list[str]  # emails of the people tickets may be assigned to
    sla_hours: dict[str, int]  # priority -> hours from creation to the due time


class Ticket(Record):
    """One request."""

    id: str
    queue_id: str
    title: str
    description: str
    category: str = ""
    status: Status = "open"
    priority: Priority = "normal"
    requester: str
    assignee: str = ""
    watchers: list[str] = []
    created: datetime
    updated: datetime
    due: datetime
    resolution: str = ""
    resolved_at: datetime | None = None
    closed_at: datetime | None = None


class Comment(Record):
    """A reply on a ticket: public (the requester sees it) or an internal note for support staff."""

    id: str
    ticket_id: str
    author: str
    body: str
    internal: bool = False
    created: datetime


class Attachment(Record):
    """A file attached to a ticket; the bytes are kept as a blob."""

    id: str
    ticket_id: str
    name: str
    mime_type: str
    size: int
    blob: str
    uploaded_by: str
    created: datetime


class Link(Record):
    """A relation between two tickets, read as "<source> <kind> <target>"."""

    id: str
    source_id: str
    target_id: str
    kind: LinkKind
    created: datetime
    created_by: str


class HelpdeskState(AppState):
    """Every queue, ticket, comment, attachment and link of the helpdesk."""

    queues: dict[str, Queue] = {}
    tickets: dict[str, Ticket] = {}
    comments: dict[str, Comment] = {}
    attachments: dict[str, Attachment] = {}
    links: dict[str, Link] = {}


# ---- lookups ----------------------------------------------------------------------------------


def find_ticket(ctx: Context[HelpdeskState], ticket_id: str, parameter: str = "ticket_id") -> Ticket:
    """The ticket with this key ("HD-1042", "hd-1042", "#1042" or "1042").

    Raises:
        NotFound: no such ticket; the message says how to find one.
    """
    key = ticket_id.strip().lstrip("#").upper()
    if key.isdigit():
        key = f"HD-{key}"
    ticket = ctx.state.tickets.get(key)
    if ticket is None:
        raise NotFound(
            f"no ticket '{ticket_id}'; use helpdesk search-tickets to find its key (e.g. HD-1042)", parameter
        )
    return ticket


def find_queue(ctx: Context[HelpdeskState], queue: str, parameter: str = "queue") -> Queue:
    """The queue named by id or name ("it", "Facilities", "people ops", "Finance Ops").

    Raises:
        NotFound: no such queue; the message lists the queues.
    """
    key = fold(queue).replace("_", " ")
    for q in ctx.state.queues.values():
        if key in (fold(q.id).replace("_", " "), fold(q.name)):
            return q
    names = ", ".join(f"{q.name} ({q.id})" for q in ctx.state.queues.values())
    raise NotFound(f"no queue '{queue}'; the queues are: {names}", parameter)


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def person_email(ctx: Context[HelpdeskState], who: str, parameter: str) -> str:
    """The email of a person named by email, directory id or full name; "me" is you.

    Raises:
        NotFound: no one in the directory matches.
        InvalidArgument: empty, or not an email address when there is no directory to look in.
    """
    text = who.strip()
    if not text:
        raise InvalidArgument("must name a person (email address or full name)", parameter)
    if fold(text) == "me":
        return ctx.user
    directory = ctx.other("directory")
    if isinstance(directory, DirectoryState):
        return find_person(directory, text, parameter).email
    if not _EMAIL.match(text):
        raise InvalidArgument(f"'{who}' is not an email address; give the person's email", parameter)
    return text.lower()


def require_editable(ticket: Ticket, parameter: str = "ticket_id") -> None:
    """Refuse changes to a closed ticket.

    Raises:
        Conflict: the ticket is closed; the message says how to reopen it.
    """
    if ticket.status == "closed":
        raise Conflict(
            f"{ticket.id} is closed and cannot be changed; reopen it first with helpdesk change-status "
            f"--ticket-id={ticket.id} --status=open, or open a new ticket",
            parameter,
        )


def parse_due(ctx: Context[HelpdeskState], value: str, parameter: str = "due") -> datetime:
    """A due time from a date (meaning 17:00 that day, company time) or an ISO 8601 date-time.

    Raises:
        InvalidArgument: not a date or date-time, or not after now.
    """
    text = value.strip()
    if len(text) <= 10:
        day = parse_date(text, parameter)
        due = datetime.combine(day, time(17, 0), tzinfo=ctx.tz)
    else:
        due = parse_instant(text, ctx.tz, parameter)
    if due <= ctx.now:
        raise InvalidArgument(
            f"'{value}' is not in the future (it is now {format_instant(ctx.now, ctx.tz)}); give a later date",
            parameter,
        )
    return due


def parse_bound(ctx: Context[HelpdeskState], value: str, parameter: str) -> datetime:
    """A search bound from a date (its start, company time) or an ISO 8601 date-time."""
    text = value.strip()
    if len(text) <= 10:
        return datetime.combine(parse_date(text, parameter), time(0, 0), tzinfo=ctx.tz)
    return parse_instant(text, ctx.tz, parameter)




def refuse_encoded(content: str, parameter: str, alternative: str) -> None:
    """Refuse file bytes pasted as base64 or as a ``data:`` URI in a text parameter.

    Raises:
        InvalidArgument: naming ``parameter`` and ``alternative`` (what to call instead).
    """
    if looks_encoded(content):
        raise InvalidArgument(
            f"this looks like base64-encoded file bytes, which are not accepted here; save the file in your "
            f"workspace and pass path=<workspace path> instead ({alternative})",
            parameter,
        )


def store_attachment(ctx: Context[HelpdeskState], ticket: Ticket, name: str, data: bytes) -> Attachment:
    """Keep ``data`` as a blob and attach it to ``ticket`` under ``name``, uploaded by you now."""
    att = Attachment(
        id=ctx.new_id("att"),
        ticket_id=ticket.id,
        name=name,
        mime_type=mime_type_for(name),
        size=len(data),
        blob=ctx.blobs.put(data),
        uploaded_by=ctx.user,
        created=ctx.now,
    )
    ctx.state.attachments[att.id] = att
    return att


# ---- views ------------------------------------------------------------------------------------


def hours_left(ctx: Context[HelpdeskState], ticket: Ticket) -> float:
    """Hours from now to the ticket's due time, to one decimal (negative when overdue)."""
    return round((ticket.due - ctx.now) / timedelta(hours=1), 1)


def _overdue(ctx: Context[HelpdeskState], ticket: Ticket) -> bool:
    return ticket.status in ACTIVE and ticket.due < ctx.now


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
        "hours_to_due": hours_left(ctx, t) if t.status in ACTIVE else None,
        "next_statuses": list(TRANSITIONS[t.status]),
        "comments": [comment_view(ctx, c) for c in comments],
        "attachments": [attachment_view(ctx, a) for a in files],
        "links": [link_view(ctx, lk, t.id) for lk in links],
    }
