"""Helpdesk actions on tickets: show, search, SLA overview, create, update, assign and change status."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.apps.helpdesk._rules import (
    Title,
    attach_hint,
    check_title,
    find_queue,
    find_ticket,
    hours_left,
    load_paths,
    next_key,
    parse_bound,
    parse_due,
    person_email,
    require_editable,
    staff_member,
    store_attachment,
    words,
)
from tools.apps.helpdesk._views import detail, sla_row, summary
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import ACTIVE, PRIORITY_RANK, TRANSITIONS, HelpdeskState, Priority, Status, Ticket
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, format_instant
from tools.kits.files import refuse_encoded
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import LongText, SearchText, fold, require_text

__all__ = [
    "assign_ticket",
    "change_status",
    "create_ticket",
    "get_ticket",
    "search_tickets",
    "sla_overview",
    "update_ticket",
]


@app.action(read_only=True)
def get_ticket(ctx: Context[HelpdeskState], ticket_id: str) -> dict[str, Any]:
    """Show one ticket in full: its request, people, status, due time, comments, attachments and links.

    Example:
        ticket_id="HD-1035" -> title, description, requester, assignee, watchers, comments, attachments, links.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035" (from search-tickets).

    Returns:
        {"id", "queue", "queue_name", "title", "description", "status", "priority", "category", "requester",
        "assignee", "watchers", "created", "updated", "due", "overdue", "hours_to_due", "resolution",
        "resolved_at", "closed_at", ("reopens", "reopened_at": once reopened), "next_statuses", "comments":
        [{"id", "author", "body", "internal", "created"}], "attachments": [{"id", "name", "mime_type", "size",
        ...}], "links": [{"id", "relation", "ticket_id", "title", "status"}]}.
    """
    return detail(ctx, find_ticket(ctx, ticket_id))


@app.action(read_only=True)
def search_tickets(
    ctx: Context[HelpdeskState],
    text: SearchText = "",
    queue: str = "",
    status: Literal["", "open", "in_progress", "waiting", "resolved", "closed", "active"] = "",
    priority: Literal["", "low", "normal", "high", "urgent"] = "",
    assignee: str = "",
    requester: str = "",
    watcher: str = "",
    category: str = "",
    created_after: str = "",
    created_before: str = "",
    sort: Literal["newest", "oldest", "due", "priority", "updated"] = "newest",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Find tickets by words and filters; every filter given must match.

    Words are looked for in the key, title, description and comments: every word must appear,
    as a whole word or the start of one ("laptop" finds "laptops"; case-insensitive). Without a
    status filter tickets of every status are returned.

    Example:
        queue="Facilities" status="waiting" sort="due" -> Facilities tickets waiting on someone, soonest due first.

    Args:
        text: Words to find, e.g. "laptop REQ-1042".
        queue: Queue id or name: "it", "facilities", "people_ops", "finance_ops" (or "IT", "People Ops", ...).
        status: One status, or "active" for open, in_progress and waiting together.
        priority: Only tickets of this priority.
        assignee: Email or full name of the assignee; "none" for unassigned tickets.
        requester: Email or full name of the person who asked; "me" for your own requests.
        watcher: Email or full name of someone watching the ticket; "me" for tickets you watch.
        category: Part of the category, e.g. "access" or "change request".
        created_after: Only tickets created at or after this date (YYYY-MM-DD, start of day) or date-time.
        created_before: Only tickets created before this date (YYYY-MM-DD, start of day) or date-time.
        sort: "newest" or "oldest" (by creation), "due" (soonest first), "priority" (urgent first), "updated".
        page: Page number, starting at 1.
        page_size: Tickets per page.

    Returns:
        {"results": [{"id", "queue", "title", "status", "priority", "category", "requester", "assignee",
        "created", "updated", "due", "overdue"}], "page", "page_size", "total", "next_page"}.
    """
    q = find_queue(ctx, queue).id if queue.strip() else ""
    unassigned = fold(assignee) in ("none", "unassigned")
    who_assigned = person_email(ctx, assignee, "assignee") if assignee.strip() and not unassigned else ""
    who_asked = person_email(ctx, requester, "requester") if requester.strip() else ""
    who_watches = person_email(ctx, watcher, "watcher") if watcher.strip() else ""
    after = parse_bound(ctx, created_after, "created_after") if created_after.strip() else None
    before = parse_bound(ctx, created_before, "created_before") if created_before.strip() else None
    wanted = words(text)
    cat = fold(category)
    notes: dict[str, str] = {}
    if wanted:
        for c in ctx.state.comments.values():
            notes[c.ticket_id] = notes.get(c.ticket_id, "") + " " + c.body
    hits = []
    for t in ctx.state.tickets.values():
        if (q and t.queue_id != q) or (priority and t.priority != priority) or (cat and cat not in fold(t.category)):
            continue
        if status == "active" and t.status not in ACTIVE or status not in ("", "active") and t.status != status:
            continue
        if (unassigned and t.assignee) or (who_assigned and t.assignee != who_assigned):
            continue
        if (who_asked and t.requester != who_asked) or (who_watches and who_watches not in t.watchers):
            continue
        if (after and t.created < after) or (before and t.created >= before):
            continue
        if wanted:
            have = set(words(f"{t.id} {t.title} {t.description} {notes.get(t.id, '')}"))
            if not all(any(h.startswith(w) for h in have) for w in wanted):
                continue
        hits.append(t)
    keys = {
        "newest": lambda t: (-t.created.timestamp(), t.id),
        "oldest": lambda t: (t.created.timestamp(), t.id),
        "due": lambda t: (t.due.timestamp(), t.id),
        "priority": lambda t: (PRIORITY_RANK[t.priority], t.due.timestamp(), t.id),
        "updated": lambda t: (-t.updated.timestamp(), t.id),
    }
    hits.sort(key=keys[sort])
    return page_of(hits, page, page_size, view=lambda t: summary(ctx, t))


@app.action(read_only=True)
def sla_overview(
    ctx: Context[HelpdeskState],
    queue: str = "",
    assignee: str = "",
    overdue_only: bool = False,
    due_within_hours: Annotated[int, Field(ge=0, le=8760)] = 0,
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """See which unfinished tickets are overdue or due soon, most urgent first.

    Covers tickets that are open, in progress or waiting; resolved and closed tickets have no
    due time left to track. Hours are counted from now to each ticket's due time.

    Example:
        queue="it" due_within_hours=48 -> IT tickets overdue or due in the next two days.

    Args:
        queue: Queue id or name, e.g. "it" or "Facilities"; default every queue.
        assignee: Email or full name of the assignee; "none" for unassigned tickets.
        overdue_only: Only tickets whose due time has passed.
        due_within_hours: Only tickets due within this many hours from now (overdue ones included); 0 = no limit.
        page: Page number, starting at 1.
        page_size: Tickets per page.

    Returns:
        {"as_of": now, "overdue_count", "results": [{"id", "queue", "title", "status", "priority", "assignee",
        "due", "hours_left" (negative when overdue), "overdue"}], "page", "page_size", "total", "next_page"}.
    """
    q = find_queue(ctx, queue).id if queue.strip() else ""
    unassigned = fold(assignee) in ("none", "unassigned")
    who = person_email(ctx, assignee, "assignee") if assignee.strip() and not unassigned else ""
    rows = []
    for t in ctx.state.tickets.values():
        if t.status not in ACTIVE or (q and t.queue_id != q):
            continue
        if (unassigned and t.assignee) or (who and t.assignee != who):
            continue
        left = hours_left(ctx, t)
        if (overdue_only and left >= 0) or (due_within_hours and left > due_within_hours):
            continue
        rows.append((t.due, t.id, t, left))
    rows.sort(key=lambda r: (r[0], r[1]))
    results = [sla_row(ctx, t, left) for _, _, t, left in rows]
    out = page_of(results, page, page_size)
    return {"as_of": format_instant(ctx.now, ctx.tz), "overdue_count": sum(r["overdue"] for r in results), **out}


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
    if previous in ("resolved", "closed") and status in ("open", "in_progress", "waiting"):
        t.reopens, t.reopened_at = t.reopens + 1, ctx.now
    t.status = status
    t.updated = ctx.now
    return {**detail(ctx, t), "previous_status": previous}
