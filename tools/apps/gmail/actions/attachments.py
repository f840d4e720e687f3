"""Attachment actions: download a message's attachment into the workspace (or inline, for text)."""

from __future__ import annotations

from typing import Any

from tools.apps.gmail._rules import find_attachment, find_message
from tools.apps.gmail.app import app
from tools.apps.gmail.state import GmailState
from tools.kernel.world import Context
from tools.kits.files import deliver_file

__all__ = ["get_attachment"]


@app.action(read_only=True)
def get_attachment(ctx: Context[GmailState], message_id: str, attachment_id: str, save_as: str = "") -> dict[str, Any]:
    """Download a message's attachment, of any kind (PDF, spreadsheet, document, image or text).

    Where you have a workspace, the file is saved there (under downloads/ unless save_as says where)
    and only its path is returned; attach it elsewhere or upload it by that path. Without a
    workspace, text files are returned inline and other kinds cannot be opened.

    Example:
        message_id="msg_0102" attachment_id="att_0017" save_as="invoices/INV-20417.pdf"

    Args:
        message_id: The message's id, from gmail search-messages.
        attachment_id: The attachment's id (or its exact file name), from gmail get-message.
        save_as: Workspace path to save the file to.

    Returns:
        {"message_id", "attachment_id", "filename", "mime_type", "size" (bytes), and "saved_to" (path) or
        "content" (text)}.
    """
    msg = find_message(ctx.state, message_id)
    att = find_attachment(msg, attachment_id)
    got = deliver_file(ctx, att.filename, ctx.blobs.get(att.blob), save_as, "save_as")
    return {"message_id": msg.id, "attachment_id": att.id, "filename": att.filename, "mime_type": att.mime_type, **got}
