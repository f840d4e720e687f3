"""Helpdesk actions on a ticket's conversation: add a comment or an internal note, list them."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.helpdesk._rules import attach_hint, find_ticket, require_editable
from tools.apps.helpdesk._views import comment_view
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import Comment, HelpdeskState
from tools.kernel.world import Context
from tools.kits.files import refuse_encoded
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import LongText, require_text

__all__ = ["add_comment", "list_comments"]


@app.action(read_only=False)
def add_comment(ctx: Context[HelpdeskState], ticket_id: str, body: LongText, internal: bool = False) -> dict[str, Any]:
    """Reply on a ticket, or leave an internal note that only support staff see.

    A public reply from the requester on a ticket that is waiting moves it back to open, so the
    support staff see there is news. Closed tickets take no comments: reopen them first.

    Example:
        ticket_id="HD-1044" body="The form is under Reviews > 2026." -> the new comment and the ticket's status.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        body: The comment text (plain text; attach files with attach-file).
        internal: True for an internal note hidden from the requester.

    Returns:
        {"comment": {"id", "ticket_id", "author", "body", "internal", "created"}, "ticket_status"}.
    """
    t = find_ticket(ctx, ticket_id)
    text = require_text(body, "body")
    refuse_encoded(text, "body", instead=attach_hint(t))
    require_editable(t)
    c = Comment(id=ctx.new_id("cmt"), ticket_id=t.id, author=ctx.user, body=text, internal=internal, created=ctx.now)
    ctx.state.comments[c.id] = c
    if not internal and t.status == "waiting" and t.requester == ctx.user:
        t.status = "open"
    t.updated = ctx.now
    return {"comment": comment_view(ctx, c), "ticket_status": t.status}


@app.action(read_only=True)
def list_comments(
    ctx: Context[HelpdeskState],
    ticket_id: str,
    visibility: Literal["", "public", "internal"] = "",
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """List a ticket's comments, oldest first.

    Example:
        ticket_id="HD-1038" visibility="internal" -> only the internal notes.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        visibility: "public" for replies only, "internal" for internal notes only; default both.
        page: Page number, starting at 1.
        page_size: Comments per page.

    Returns:
        {"results": [{"id", "ticket_id", "author", "body", "internal", "created"}], "page", "page_size", "total",
        "next_page"}.
    """
    t = find_ticket(ctx, ticket_id)
    rows = [
        c
        for c in ctx.state.comments.values()
        if c.ticket_id == t.id and (not visibility or c.internal == (visibility == "internal"))
    ]
    rows.sort(key=lambda c: (c.created, c.id))
    return page_of([comment_view(ctx, c) for c in rows], page, page_size)
