"""The JSON shapes the mail actions return: messages, drafts, attachments, filters, the vacation reply, contacts."""

from __future__ import annotations

from typing import Any

from tools.apps.gmail._rules import Contact, filter_query
from tools.apps.gmail.state import Attachment, Draft, Filter, GmailState, Message, Vacation
from tools.kernel.world import Context, format_instant
from tools.kits.text import PART_CHARS, clip

__all__ = ["contact_view", "draft_view", "filter_view", "full_view", "summary_view", "vacation_view"]


def _files_view(items: list[Attachment]) -> list[dict[str, Any]]:
    return [{"id": a.id, "filename": a.filename, "mime_type": a.mime_type, "size": a.size} for a in items]


def summary_view(ctx: Context[GmailState], m: Message) -> dict[str, Any]:
    """A message as search results show it."""
    return {
        "id": m.id,
        "thread_id": m.thread_id,
        "from": m.sender,
        "to": m.to,
        "subject": m.subject,
        "date": format_instant(m.date, ctx.tz),
        "snippet": " ".join(m.body.split())[:120],
        "labels": m.labels,
        "has_attachments": bool(m.attachments),
    }


def full_view(ctx: Context[GmailState], m: Message, body_offset: int = 0, part: int = PART_CHARS) -> dict[str, Any]:
    """A message in full, as get-message shows it; a long body in parts of ``part`` characters."""
    body, next_offset = clip(m.body, body_offset, part)
    return {
        **summary_view(ctx, m),
        "cc": m.cc,
        "bcc": m.bcc,
        "body": body,
        "body_chars": len(m.body),
        "body_next_offset": next_offset,
        "attachments": _files_view(m.attachments),
        "in_reply_to": m.in_reply_to,
        "forwarded_from": m.forwarded_from,
    }


def draft_view(ctx: Context[GmailState], d: Draft) -> dict[str, Any]:
    """A draft as list-drafts shows it."""
    fields = d.model_dump(exclude={"attachments", "updated", "sent_message_id"})
    return {**fields, "attachments": _files_view(d.attachments), "updated": format_instant(d.updated, ctx.tz)}


def filter_view(ctx: Context[GmailState], f: Filter) -> dict[str, Any]:
    """A filter as list-filters shows it, with the search query it stands for."""
    out = f.model_dump(exclude={"created"})
    return {**out, "search": filter_query(f), "created": format_instant(f.created, ctx.tz)}


def vacation_view(ctx: Context[GmailState], v: Vacation) -> dict[str, Any]:
    """The vacation reply as get-vacation shows it, with whether it is replying today."""
    today = ctx.now.astimezone(ctx.tz).date()
    active = (
        v.enabled and (v.start_date is None or v.start_date <= today) and (v.end_date is None or today <= v.end_date)
    )
    return {
        "enabled": v.enabled,
        "subject": v.subject,
        "body": v.body,
        "start_date": v.start_date.isoformat() if v.start_date else "",
        "end_date": v.end_date.isoformat() if v.end_date else "",
        "company_only": v.company_only,
        "replying_now": active,
    }


def contact_view(ctx: Context[GmailState], c: Contact, name: str) -> dict[str, Any]:
    """A contact as list-contacts shows it; ``name`` is their directory name ("" outside the company)."""
    domain = "@" + ctx.user.rsplit("@", 1)[-1].lower()
    return {
        "email": c.address,
        "name": name,
        "in_company": c.address.lower().endswith(domain),
        "received": c.received,
        "sent": c.sent,
        "total": c.received + c.sent,
        "last_date": format_instant(c.last, ctx.tz),
    }
