"""The helpdesk's records (queues, tickets, comments, attachments, links), its state and the status rules."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from tools.kernel.world import AppState, Record

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
    reopens: int = 0  # how often it went back from resolved or closed to work (the ticket keeps this trace)
    reopened_at: datetime | None = None


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
