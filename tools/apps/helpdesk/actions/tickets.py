"""Helpdesk actions that open and change tickets: create, update, assign and change status."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from tools.apps.helpdesk._rules import (
    Title,
    attach_hint,
    check_title,
    find_queue,
    find_ticket,
    load_paths,
    next_key,
    parse_due,
    person_email,
    require_editable,
    staff_member,
    store_attachment,
)
from tools.apps.helpdesk._views import detail
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import TRANSITIONS, HelpdeskState, Priority, Status, Ticket
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.files import refuse_encoded
from tools.kits.text import LongText, require_text

__all__ = ["assign_ticket", "change_status", "create_ticket", "update_ticket"]


@app.action(read_only=False)
def create_ticket(
    ctx: Context[HelpdeskState],
    queue: str,
    title: Title,
    description: LongText,
    priority: Priority = "normal",
    requester: str = "",
    assignee: str = "",
    due: str = "",
    category: str = "",
    watchers: list[str] = [],  # noqa: B006
    attachments: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Open a new request in a queue, for yourself or on someone else's behalf.

    Without a due date the ticket is due after the queue's target hours for its priority (see
    list-queues). Files to attach are read from your workspace.

    Example:
        queue="Facilities" title="Broken blind in Room 3C" description="The blind by the window won't go up."
        priority="low" -> the new ticket, e.g. {"id": "HD-1063", "status": "open", "due": ...}.

    Args:
        queue: Queue id or name: "it", "facilities", "people_ops" or "finance_ops" (or "IT", "People Ops", ...).
        title: One line saying what is needed.
        description: The details: what, where, by when, and anything already tried.
        priority: How pressing it is: low, normal, high or urgent.
        requester: Email or full name of the person the request is for; default you.
        assignee: Email or full name of a support staff member of that queue to take it; default nobody yet.
        due: When it must be done: a date (YYYY-MM-DD, meaning 17:00 that day) or an ISO 8601 date-time.
        category: A short category, e.g. "Hardware", "Access", "Payments".
        watchers: Emails or full names of people to keep informed.
        attachments: Workspace paths of files to attach, e.g. ["downloads/quote.pdf"].

    Returns:
        The new ticket in full (as get-ticket).
    """
    q = find_queue(ctx, queue)
    name = check_title(title)
    body = require_text(description, "description")
    refuse_encoded(body, "description", instead="its workspace path in attachments")
    who = person_email(ctx, requester, "requester") if requester.strip() else ctx.user
    owner = staff_member(ctx, q, assignee, "assignee") if assignee.strip() else ""
    due_at = parse_due(ctx, due) if due.strip() else ctx.now + timedelta(hours=q.sla_hours[priority])
    watching: list[str] = []
    for w in watchers:
        email = person_email(ctx, w, "watchers")
        if email not in watching:
            watching.append(email)
    files = load_paths(ctx, attachments, "attachments")
    ticket = Ticket(
        id=next_key(ctx),
        queue_id=q.id,
        title=name,
        description=body,
        category=category.strip(),
        priority=priority,
        requester=who,
        assignee=owner,
        watchers=watching,
        created=ctx.now,
        updated=ctx.now,
        due=due_at,
    )
    ctx.state.tickets[ticket.id] = ticket
    for fname, data in files:
        store_attachment(ctx, ticket, fname, data)
    return detail(ctx, ticket)


@app.action(read_only=False)
def update_ticket(
    ctx: Context[HelpdeskState],
    ticket_id: str,
    title: Title = "",
    description: LongText = "",
    priority: Literal["", "low", "normal", "high", "urgent"] = "",
    due: str = "",
    queue: str = "",
    category: str = "",
) -> dict[str, Any]:
    """Change a ticket's title, description, priority, due time, category or queue.

    Give only what changes. Changing the priority does not move the due time; set due for that.
    Moving a ticket to another queue unassigns it when its assignee is not on that queue's staff
    (a ticket in progress then goes back to open).
    Closed tickets cannot be changed (reopen them first with change-status).

    Example:
        ticket_id="HD-1050" priority="high" due="2026-04-27" -> the ticket, now high priority, due April 27 17:00.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        title: New one-line title.
        description: New description (replaces the old one).
        priority: New priority: low, normal, high or urgent.
        due: New due time: a date (YYYY-MM-DD, meaning 17:00 that day) or an ISO 8601 date-time.
        queue: Queue to move it to, by id or name.
        category: New category.

    Returns:
        The ticket in full (as get-ticket) plus "changed": [field names].
    """
    t = find_ticket(ctx, ticket_id)
    if not any(v.strip() for v in (title, description, priority, due, queue, category)):
        raise InvalidArgument("give at least one field to change (title, description, priority, due, queue, category)")
    require_editable(t)
    new: dict[str, Any] = {}
    if title.strip():
        new["title"] = check_title(title)
    if description.strip():
        refuse_encoded(description, "description", instead=attach_hint(t))
        new["description"] = description.strip()
    if priority:
        new["priority"] = priority
    if due.strip():
        new["due"] = parse_due(ctx, due)
    if category.strip():
        new["category"] = category.strip()
    if queue.strip():
        dest = find_queue(ctx, queue)
        new["queue_id"] = dest.id
        if t.assignee and t.assignee not in dest.staff:
            new["assignee"] = ""
            if t.status == "in_progress":
                new["status"] = "open"
    changed = sorted(k for k, v in new.items() if getattr(t, k) != v)
    for k in changed:
        setattr(t, k, new[k])
    if changed:
        t.updated = ctx.now
    return {**detail(ctx, t), "changed": changed}


@app.action(read_only=False)
def assign_ticket(
    ctx: Context[HelpdeskState], ticket_id: str, assignee: str = "", unassign: bool = False
) -> dict[str, Any]:
    """Give a ticket to a member of its queue's support staff, or take it off their list.

    Only the queue's staff (see list-queues) can be assigned. To give it to someone in another
    team, move it to their queue first with update-ticket.

    Example:
        ticket_id="HD-1052" assignee="ruby.walker@northwind.example" -> the ticket, now assigned to Ruby.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        assignee: Email or full name of the staff member who should work on it.
        unassign: True to leave the ticket unassigned (give no assignee then).

    Returns:
        The ticket in full (as get-ticket) plus "previous_assignee" (email or null).
    """
    t = find_ticket(ctx, ticket_id)
    if unassign == bool(assignee.strip()):
        raise InvalidArgument("give either an assignee or unassign=true", "assignee")
    require_editable(t)
    q = ctx.state.queues[t.queue_id]
    email = "" if unassign else staff_member(ctx, q, assignee, "assignee")
    if unassign and t.status == "in_progress":
        raise Conflict(
            f"{t.id} is in progress and needs an assignee; assign someone else or change its status first",
            "unassign",
        )
    previous = t.assignee
    if email != previous:
        t.assignee = email
        t.updated = ctx.now
    return {**detail(ctx, t), "previous_assignee": previous or None}


@app.action(read_only=False)
def change_status(
    ctx: Context[HelpdeskState], ticket_id: str, status: Status, resolution: LongText = ""
) -> dict[str, Any]:
    """Move a ticket along: open, in_progress, waiting (on the requester or someone else), resolved, closed.

    Allowed moves: open, in_progress and waiting go to any other status; resolved goes to
    closed or back to open; closed can only be reopened (status=open). Resolving, or closing a
    ticket that was never resolved, needs a resolution note saying what was done. In progress
    needs an assignee. Reopening clears the resolution.

    Example:
        ticket_id="HD-1045" status="resolved" resolution="Deep clean done; kitchen open again." -> the ticket.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        status: The new status: open, in_progress, waiting, resolved or closed.
        resolution: What was done (required for resolved, and for closed when the ticket was not resolved).

    Returns:
        The ticket in full (as get-ticket) plus "previous_status".
    """
    t = find_ticket(ctx, ticket_id)
    note = resolution.strip()
    if t.status == status:
        raise Conflict(f"{t.id} is already {status}", "status")
    if status not in TRANSITIONS[t.status]:
        allowed = ", ".join(TRANSITIONS[t.status])
        raise Conflict(f"{t.id} is {t.status}; from there it can only go to: {allowed}", "status")
    if note:
        refuse_encoded(note, "resolution", instead=attach_hint(t))
    if status in ("open", "in_progress", "waiting") and note:
        raise InvalidArgument("a resolution is only for status resolved or closed; add a comment instead", "resolution")
    if status == "resolved" and not note:
        raise InvalidArgument("resolving a ticket needs a resolution note saying what was done", "resolution")
    if status == "closed" and not note and not t.resolution:
        raise InvalidArgument(
            "closing a ticket that was not resolved needs a resolution note (e.g. why it is not needed)", "resolution"
        )
    if status == "in_progress" and not t.assignee:
        raise Conflict(f"{t.id} has no assignee; assign it with helpdesk assign-ticket first", "status")
    previous = t.status
    if status == "open":
        t.resolution, t.resolved_at, t.closed_at = "", None, None
    elif status == "resolved":
        t.resolution, t.resolved_at = note, ctx.now
    elif status == "closed":
        if note:
            t.resolution = note
        t.resolved_at = t.resolved_at or ctx.now
        t.closed_at = ctx.now
    t.status = status
    t.updated = ctx.now
    return {**detail(ctx, t), "previous_status": previous}
