"""Helpdesk actions that read: the queues, one ticket, ticket search and the SLA overview."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from tools.apps.helpdesk._rules import find_queue, find_ticket, hours_left, parse_bound, person_email, words
from tools.apps.helpdesk._views import detail, queue_view, sla_row, summary
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import ACTIVE, PRIORITY_RANK, HelpdeskState
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["get_ticket", "list_queues", "search_tickets", "sla_overview"]


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
        "resolved_at", "closed_at", "next_statuses", "comments": [{"id", "author", "body", "internal",
        "created"}], "attachments": [{"id", "name", "mime_type", "size", ...}], "links": [{"id", "relation",
        "ticket_id", "title", "status"}]}.
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
