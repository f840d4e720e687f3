"""Draft actions: save, list, change, throw away and send drafts."""

from __future__ import annotations

from typing import Any

from tools.apps.gmail._rules import (
    check_addresses,
    deliver,
    find_draft,
    find_message,
    make_attachments,
    prefixed,
    read_attachments,
    refuse_pasted_file,
    reply_recipients,
)
from tools.apps.gmail._views import draft_view, full_view
from tools.apps.gmail.app import app
from tools.apps.gmail.state import Draft, GmailState
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import LongText

__all__ = ["create_draft", "delete_draft", "list_drafts", "send_draft", "update_draft"]


@app.action(read_only=False)
def create_draft(
    ctx: Context[GmailState],
    to: list[str] = [],  # noqa: B006
    subject: str = "",
    body: LongText = "",
    cc: list[str] = [],  # noqa: B006
    bcc: list[str] = [],  # noqa: B006
    attachments: list[str] = [],  # noqa: B006
    reply_to_message_id: str = "",
) -> dict[str, Any]:
    """Save an email as a draft to send later with gmail send-draft.

    With reply_to_message_id the draft answers that message: it joins its conversation, and the
    recipients and subject default to those of a reply.

    Example:
        to=["nora.patel@northwind.example"] subject="Q2 headcount" body="Draft numbers below..."

    Args:
        to: Recipient email addresses (may be left empty for now).
        subject: The subject line.
        body: The message text.
        cc: Addresses to copy.
        bcc: Addresses to copy without the others seeing them.
        attachments: Workspace paths of files to attach, of any kind: PDF, spreadsheet, document, image or text
            (only where a workspace exists).
        reply_to_message_id: Id of a message this draft replies to.

    Returns:
        The draft: {"id", "thread_id", "to", "cc", "bcc", "subject", "body", "attachments", "in_reply_to", "updated"}.
    """
    original = find_message(ctx.state, reply_to_message_id, "reply_to_message_id") if reply_to_message_id else None
    refuse_pasted_file(body, "body")
    rec = {p: check_addresses(ctx, v, p) for p, v in (("to", to), ("cc", cc), ("bcc", bcc))}
    files = read_attachments(ctx, attachments, "attachments")
    if original is not None:
        rec["to"] = rec["to"] or reply_recipients(ctx.user, original)
        subject = subject.strip() or prefixed("Re:", original.subject)
    draft = Draft(
        id=ctx.new_id("draft"),
        thread_id=original.thread_id if original else "",
        subject=subject.strip(),
        body=body,
        attachments=make_attachments(ctx, files),
        in_reply_to=original.id if original else "",
        updated=ctx.now,
        to=rec["to"],
        cc=rec["cc"],
        bcc=rec["bcc"],
    )
    ctx.state.drafts[draft.id] = draft
    return draft_view(ctx, draft)


@app.action(read_only=True)
def list_drafts(ctx: Context[GmailState], page: Page = 1, page_size: PageSize = 20) -> dict[str, Any]:
    """List your unsent drafts, most recently edited first.

    Example:
        (no parameters) -> [{"id": "draft_0001", "to": [...], "subject": "...", "body": "..."}, ...]

    Args:
        page: Page number, starting at 1.
        page_size: Drafts per page.

    Returns:
        {"drafts": [{"id", "thread_id", "to", "cc", "bcc", "subject", "body", "attachments", "in_reply_to",
        "updated"}], "page", "page_size", "total", "next_page"}.
    """
    drafts = [(d.updated, n, d) for n, d in enumerate(ctx.state.drafts.values()) if not d.sent_message_id]
    drafts.sort(key=lambda h: (h[0], h[1]), reverse=True)
    out = page_of([h[2] for h in drafts], page, page_size, key="drafts")
    out["drafts"] = [draft_view(ctx, d) for d in out["drafts"]]
    return out


@app.action(read_only=False)
def update_draft(
    ctx: Context[GmailState],
    draft_id: str,
    to: list[str] = [],  # noqa: B006
    subject: str = "",
    body: LongText = "",
    cc: list[str] = [],  # noqa: B006
    bcc: list[str] = [],  # noqa: B006
    attachments: list[str] = [],  # noqa: B006
    remove_attachments: list[str] = [],  # noqa: B006
) -> dict[str, Any]:
    """Change an unsent draft; only the fields you give change.

    A given to, cc or bcc list replaces the old one. To empty a field, delete the draft and create a new one.

    Example:
        draft_id="draft_0002" body="Revised text..." cc=["marcus.reed@northwind.example"]

    Args:
        draft_id: The draft's id, from gmail list-drafts.
        to: New recipient addresses (replace the old ones).
        subject: New subject line.
        body: New message text.
        cc: New addresses to copy (replace the old ones).
        bcc: New blind-copy addresses (replace the old ones).
        attachments: Workspace paths of more files to attach, of any kind (only where a workspace exists).
        remove_attachments: Ids or file names of attachments to drop from the draft.

    Returns:
        The updated draft, as gmail list-drafts shows it.
    """
    draft = find_draft(ctx.state, draft_id)
    refuse_pasted_file(body, "body")
    changes: dict[str, Any] = {p: check_addresses(ctx, v, p) for p, v in (("to", to), ("cc", cc), ("bcc", bcc)) if v}
    drop: set[str] = set()
    for item in remove_attachments:
        hit = next((a.id for a in draft.attachments if item.strip() in (a.id, a.filename)), None)
        if hit is None:
            names = ", ".join(f"{a.id} ({a.filename})" for a in draft.attachments) or "none"
            raise NotFound(f"the draft has no attachment '{item}'; its attachments: {names}", "remove_attachments")
        drop.add(hit)
    files = read_attachments(ctx, attachments, "attachments")
    if subject.strip():
        changes["subject"] = subject.strip()
    if body:
        changes["body"] = body
    kept = [a for a in draft.attachments if a.id not in drop]
    if files or drop:
        changes["attachments"] = kept + make_attachments(ctx, files)
    if not changes:
        raise InvalidArgument(
            "give at least one thing to change: to, subject, body, cc, bcc or attachments", "draft_id"
        )
    updated = draft.model_copy(update={**changes, "updated": ctx.now})
    ctx.state.drafts[draft.id] = Draft.model_validate(updated.model_dump())
    return draft_view(ctx, ctx.state.drafts[draft.id])


@app.action(read_only=False)
def delete_draft(ctx: Context[GmailState], draft_id: str) -> dict[str, Any]:
    """Throw away an unsent draft.

    Example:
        draft_id="draft_0003" -> {"deleted": "draft_0003"}

    Args:
        draft_id: The draft's id, from gmail list-drafts.

    Returns:
        {"deleted": draft id}.
    """
    draft = find_draft(ctx.state, draft_id)
    del ctx.state.drafts[draft.id]
    return {"deleted": draft.id}


@app.action(read_only=False)
def send_draft(ctx: Context[GmailState], draft_id: str) -> dict[str, Any]:
    """Send a saved draft as it stands; it then leaves your drafts and appears in your sent mail.

    Example:
        draft_id="draft_0001" -> the sent message.

    Args:
        draft_id: The draft's id, from gmail list-drafts.

    Returns:
        The sent message, as gmail get-message shows it, plus "draft_id".
    """
    draft = find_draft(ctx.state, draft_id)
    if not (draft.to or draft.cc or draft.bcc):
        raise Conflict(f"draft '{draft.id}' has no recipients; add them with gmail update-draft first", "draft_id")
    if not draft.subject.strip() and not draft.body.strip():
        raise Conflict(f"draft '{draft.id}' is empty; add a subject or body with gmail update-draft first", "draft_id")
    msg = deliver(
        ctx,
        thread_id=draft.thread_id,
        to=draft.to,
        cc=draft.cc,
        bcc=draft.bcc,
        subject=draft.subject,
        body=draft.body,
        attachments=list(draft.attachments),
        in_reply_to=draft.in_reply_to,
    )
    draft.sent_message_id = msg.id
    return {**full_view(ctx, msg), "draft_id": draft.id}
