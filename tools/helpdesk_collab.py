"""Helpdesk actions around a ticket: comments, watchers, links between tickets and attachments.

Imported at the end of ``tools.helpdesk``, which registers these actions on its app.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

from tools.helpdesk import app
from tools.helpdesk_model import (
    Comment,
    HelpdeskState,
    Link,
    LinkKind,
    attachment_view,
    comment_view,
    find_ticket,
    link_view,
    person_email,
    refuse_encoded,
    require_editable,
    store_attachment,
)
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context
from tools.kits.files import deliver_file, receive_file
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import require_text

__all__: list[str] = []


# ---- comments and watchers ---------------------------------------------------------------------


@app.action(read_only=False)
def add_comment(ctx: Context[HelpdeskState], ticket_id: str, body: str, internal: bool = False) -> dict[str, Any]:
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
    refuse_encoded(text, "body", f"helpdesk attach-file --ticket-id={t.id} --path=...")
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


# ---- links -------------------------------------------------------------------------------------


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


# ---- attachments -------------------------------------------------------------------------------


@app.action(read_only=False)
def attach_file(
    ctx: Context[HelpdeskState], ticket_id: str, path: str = "", content: str = "", name: str = ""
) -> dict[str, Any]:
    """Attach a file to a ticket: a file from your workspace (any type), or a short text you write.

    Give exactly one of path and content. Files such as PDFs, spreadsheets and images must come
    from the workspace (download them there first, e.g. from mail or the drive).

    Example:
        ticket_id="HD-1030" path="downloads/certificate.pdf" -> {"id": "att_...", "name": "certificate.pdf", ...}.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".
        path: Workspace path of the file, e.g. "downloads/quote.pdf".
        content: Plain text to store as a text file (never base64); needs name.
        name: File name to show on the ticket; default the workspace file's name (required with content).

    Returns:
        The attachment: {"id", "ticket_id", "name", "mime_type", "size" (bytes), "uploaded_by", "created"}.
    """
    t = find_ticket(ctx, ticket_id)
    refuse_encoded(content, "content", f"helpdesk attach-file --ticket-id={t.id} --path=...")
    if content and not name.strip():
        raise InvalidArgument("give a file name (e.g. notes.txt) for the text in content", "name")
    fname = name.strip() or PurePosixPath(path.strip()).name
    if "/" in fname or "\\" in fname:
        raise InvalidArgument("a file name cannot contain slashes", "name")
    require_editable(t)
    data = receive_file(ctx, content, path.strip())
    att = store_attachment(ctx, t, fname, data)
    t.updated = ctx.now
    return attachment_view(ctx, att)


@app.action(read_only=True)
def list_attachments(ctx: Context[HelpdeskState], ticket_id: str) -> dict[str, Any]:
    """List the files attached to a ticket, oldest first.

    Example:
        ticket_id="HD-1029" -> {"attachments": [{"id": "att_007", "name": "CRM renewal quote Q-55817.pdf", ...}]}.

    Args:
        ticket_id: The ticket's key, e.g. "HD-1035".

    Returns:
        {"ticket_id", "attachments": [{"id", "ticket_id", "name", "mime_type", "size", "uploaded_by", "created"}]}.
    """
    t = find_ticket(ctx, ticket_id)
    rows = sorted((a for a in ctx.state.attachments.values() if a.ticket_id == t.id), key=lambda a: (a.created, a.id))
    return {"ticket_id": t.id, "attachments": [attachment_view(ctx, a) for a in rows]}


@app.action(read_only=True)
def download_attachment(ctx: Context[HelpdeskState], attachment_id: str, save_as: str = "") -> dict[str, Any]:
    """Download a ticket's attachment exactly as stored into your workspace.

    Without a workspace only text files can be returned (inline).

    Example:
        attachment_id="att_007" save_as="quotes/crm.pdf" -> {"saved_to": "quotes/crm.pdf", "size": ...}.

    Args:
        attachment_id: The attachment's id (from list-attachments or get-ticket).
        save_as: Workspace path to save it to; default downloads/<file name>.

    Returns:
        {"id", "ticket_id", "name", "mime_type", "size" (bytes), and "saved_to" (workspace path) or "content"}.
    """
    att = ctx.state.attachments.get(attachment_id.strip())
    if att is None:
        raise NotFound(
            f"no attachment '{attachment_id}'; use helpdesk list-attachments --ticket-id=... to find its id",
            "attachment_id",
        )
    delivered = deliver_file(ctx, att.name, ctx.blobs.get(att.blob), save_as)
    return {"id": att.id, "ticket_id": att.ticket_id, "name": att.name, "mime_type": att.mime_type, **delivered}
