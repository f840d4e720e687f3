"""Helpdesk actions on a ticket's files: attach one, list them, download one."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from tools.apps.helpdesk._rules import find_ticket, require_editable, store_attachment
from tools.apps.helpdesk._views import attachment_view
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import HelpdeskState
from tools.kernel.exceptions import InvalidArgument, NotFound
from tools.kernel.world import Context
from tools.kits.files import deliver_file, receive_file, refuse_encoded, refuse_typed_document
from tools.kits.folders import check_name
from tools.kits.text import FileText

__all__ = ["attach_file", "download_attachment", "list_attachments"]


@app.action(read_only=False)
def attach_file(
    ctx: Context[HelpdeskState], ticket_id: str, path: str = "", content: FileText = "", name: str = ""
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
    refuse_encoded(content, "content")
    if content and not name.strip():
        raise InvalidArgument("give a file name (e.g. notes.txt) for the text in content", "name")
    fname = name.strip() or PurePosixPath(path.strip()).name
    if fname:
        fname = check_name(fname, "name")
    refuse_typed_document(fname, content)
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
