"""Mail settings and the address book: filters, the vacation reply and the people you write with.

The functions are declared as actions by :mod:`tools.gmail`, which owns the app.
"""

# ruff: noqa: D417  (an action's first parameter is the context, which callers never pass)

from __future__ import annotations

from datetime import datetime
from typing import Any

from tools.apps.gmail._query import parse_query
from tools.apps.gmail._rules import check_addresses, directory_names
from tools.apps.gmail.state import (
    Filter,
    GmailState,
    Vacation,
    filter_labels,
    filter_matches,
    filter_query,
    resolve_label,
)
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant, parse_date
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["create_filter", "delete_filter", "get_vacation", "list_contacts", "list_filters", "set_vacation"]

#: Labels a filter may not add: they describe where mail is, not how it is filed.
_NOT_BY_FILTER = {
    "INBOX": "a filter cannot move mail into the inbox",
    "SENT": "SENT is set by sending",
    "DRAFT": "DRAFT is set by drafting",
    "UNREAD": "use mark_read=false (the default) to leave mail unread",
    "TRASH": "a filter here cannot delete mail; use archive=true to keep it out of the inbox",
}


def _filter_view(ctx: Context[GmailState], f: Filter) -> dict[str, Any]:
    out = f.model_dump(exclude={"created"})
    return {**out, "search": filter_query(f), "created": format_instant(f.created, ctx.tz)}


def create_filter(
    ctx: Context[GmailState],
    sender: str = "",
    to: str = "",
    subject: str = "",
    query: str = "",
    has_attachment: bool = False,
    add_labels: list[str] = [],  # noqa: B006 - never mutated; the registry copies defaults
    archive: bool = False,
    mark_read: bool = False,
    forward_to: str = "",
    apply_to_existing: bool = False,
) -> dict[str, Any]:
    """Create a filter that sorts mail arriving from now on: label it, archive it, mark it read or forward it.

    Give at least one criterion (sender, to, subject, query, has_attachment; every one given must
    match) and at least one action (add_labels, archive, mark_read, forward_to). With
    apply_to_existing the label, archive and mark-read actions are also applied to matching mail
    already in the mailbox (never forwarding; trashed mail is left alone).

    Example:
        sender="billing@fabrikam.example" add_labels=["Vendors"] archive=true apply_to_existing=true
        -> the new filter, and how many existing messages it changed.

    Args:
        sender: Match mail from this address or name (part of it works, e.g. "fabrikam.example").
        to: Match mail sent to this address or name (to or cc).
        subject: Match mail whose subject contains these words.
        query: Any gmail search-messages query the mail must also match, e.g. "INV- -label:Finance".
        has_attachment: Match only mail with attachments.
        add_labels: Labels to put on matching mail: your labels, STARRED or IMPORTANT.
        archive: Skip the inbox (remove the INBOX label).
        mark_read: Mark matching mail as read.
        forward_to: An address to forward matching mail to when it arrives.
        apply_to_existing: Also apply the labels, archive and mark-read actions to mail already received.

    Returns:
        {"filter": {"id", "sender", "to", "subject", "query", "has_attachment", "add_labels", "archive",
        "mark_read", "forward_to", "search", "created"}, "matching_messages": n, "changed_messages": [ids]}.
    """
    state = ctx.state
    crit = {k: " ".join(v.split()) for k, v in (("sender", sender), ("to", to), ("subject", subject))}
    text_query = query.strip()
    if not any(crit.values()) and not text_query and not has_attachment:
        raise InvalidArgument("give at least one criterion: sender, to, subject, query or has_attachment", "sender")
    if text_query:
        parse_query(text_query, ctx.tz, ctx.now, lambda n: resolve_label(state, n, "query"))
    labels: list[str] = []
    for value in add_labels:
        name = resolve_label(state, value, "add_labels")
        if name in _NOT_BY_FILTER:
            raise InvalidArgument(f"{_NOT_BY_FILTER[name]} ({name})", "add_labels")
        if name not in labels:
            labels.append(name)
    target = ""
    if forward_to.strip():
        [target] = check_addresses(ctx, [forward_to], "forward_to")
        if target == ctx.user:
            raise InvalidArgument("mail cannot be forwarded to your own address", "forward_to")
    if not (labels or archive or mark_read or target):
        raise InvalidArgument("give at least one action: add_labels, archive, mark_read or forward_to", "add_labels")
    new = Filter(
        id=ctx.new_id("filter"),
        query=text_query,
        has_attachment=has_attachment,
        add_labels=labels,
        archive=archive,
        mark_read=mark_read,
        forward_to=target,
        created=ctx.now,
        **crit,
    )
    same = ("sender", "to", "subject", "query", "has_attachment", "add_labels", "archive", "mark_read", "forward_to")
    twin = next((f for f in state.filters.values() if all(getattr(f, k) == getattr(new, k) for k in same)), None)
    if twin is not None:
        raise Conflict(f"filter '{twin.id}' already does exactly this; see gmail list-filters", "sender")
    hits = [m for m in state.messages.values() if filter_matches(ctx, new, m)]
    changed: list[str] = []
    if apply_to_existing:
        for m in hits:
            labels_now = filter_labels(new, m.labels)
            if labels_now != m.labels:
                m.labels = labels_now
                changed.append(m.id)
    state.filters[new.id] = new
    return {"filter": _filter_view(ctx, new), "matching_messages": len(hits), "changed_messages": changed}


def list_filters(ctx: Context[GmailState]) -> dict[str, Any]:
    """List your mail filters, oldest first.

    Example:
        (no parameters) -> [{"id": "filter_0001", "sender": "billing@fabrikam.example", "add_labels": ["Vendors"]}]

    Returns:
        {"filters": [{"id", "sender", "to", "subject", "query", "has_attachment", "add_labels", "archive",
        "mark_read", "forward_to", "search" (the same criteria as a search query), "created"}]}.
    """
    ordered = sorted(ctx.state.filters.values(), key=lambda f: (f.created, f.id))
    return {"filters": [_filter_view(ctx, f) for f in ordered]}


def delete_filter(ctx: Context[GmailState], filter_id: str) -> dict[str, Any]:
    """Delete a mail filter; mail it already sorted stays where it is.

    Example:
        filter_id="filter_0002" -> {"deleted": "filter_0002"}

    Args:
        filter_id: The filter's id, from gmail list-filters.

    Returns:
        {"deleted": filter id}.
    """
    key = filter_id.strip()
    if key not in ctx.state.filters:
        raise NotFound(f"no filter with id '{filter_id}'; use gmail list-filters to find ids", "filter_id")
    del ctx.state.filters[key]
    return {"deleted": key}


def _vacation_view(ctx: Context[GmailState], v: Vacation) -> dict[str, Any]:
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


def get_vacation(ctx: Context[GmailState]) -> dict[str, Any]:
    """Show your vacation reply (out-of-office): whether it is on, its text and its dates.

    Example:
        (no parameters) -> {"enabled": false, "subject": "", "body": "", "start_date": "", "end_date": "", ...}

    Returns:
        {"enabled", "subject", "body", "start_date", "end_date" (YYYY-MM-DD or "" for none), "company_only",
        "replying_now": true when it is on and today is within its dates}.
    """
    return _vacation_view(ctx, ctx.state.vacation)


def set_vacation(
    ctx: Context[GmailState],
    enabled: bool,
    subject: str = "",
    body: str = "",
    start_date: str = "",
    end_date: str = "",
    company_only: bool = False,
) -> dict[str, Any]:
    """Turn your vacation reply (out-of-office) on or off.

    Turning it on saves every field as given: body is required, start_date defaults to today and
    an empty end_date means it runs until you turn it off. The first and last day are both
    included. Turning it off keeps the saved text and dates for next time (other fields are ignored).

    Example:
        enabled=true subject="Out of office" body="I'm in Chicago until April 2; Amelia Ward can help."
        start_date="2026-03-31" end_date="2026-04-02"

    Args:
        enabled: true to turn the reply on, false to turn it off.
        subject: Subject of the reply (e.g. "Out of office"); empty uses "Re:" and the original subject.
        body: The reply text.
        start_date: First day the reply is sent, YYYY-MM-DD. Defaults to today.
        end_date: Last day the reply is sent, YYYY-MM-DD, on or after start_date; empty for no last day.
        company_only: Reply only to people at your company.

    Returns:
        The vacation settings, as gmail get-vacation shows them.
    """
    state = ctx.state
    if not enabled:
        state.vacation = state.vacation.model_copy(update={"enabled": False, "updated": ctx.now})
        return _vacation_view(ctx, state.vacation)
    text = body.strip()
    if not text:
        raise InvalidArgument("give the reply text in body to turn the vacation reply on", "body")
    today = ctx.now.astimezone(ctx.tz).date()
    first = parse_date(start_date, "start_date") if start_date.strip() else today
    last = parse_date(end_date, "end_date") if end_date.strip() else None
    if last is not None and last < first:
        raise InvalidArgument(
            f"end_date ({last.isoformat()}) is before start_date ({first.isoformat()}); the last day must be on "
            "or after the first",
            "end_date",
        )
    if last is not None and last < today:
        raise InvalidArgument(f"end_date ({last.isoformat()}) has already passed (today is {today})", "end_date")
    state.vacation = Vacation(
        enabled=True,
        subject=" ".join(subject.split()),
        body=text,
        start_date=first,
        end_date=last,
        company_only=company_only,
        updated=ctx.now,
    )
    return _vacation_view(ctx, state.vacation)


def list_contacts(
    ctx: Context[GmailState],
    query: str = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List the people you have exchanged mail with, most frequent first, gathered from your mailbox.

    Each contact counts the messages they sent you and the messages you sent them (to, cc or bcc).
    Names come from the company directory; people outside the company show their address only.

    Example:
        query="fabrikam" -> [{"email": "billing@fabrikam.example", "received": 1, "sent": 0, ...}]

    Args:
        query: Words that must all appear in the contact's name or address.
        page: Page number, starting at 1.
        page_size: Contacts per page.

    Returns:
        {"contacts": [{"email", "name", "in_company", "received", "sent", "total", "last_date"}],
        "page", "page_size", "total", "next_page"}.
    """
    names = directory_names(ctx)
    domain = "@" + ctx.user.rsplit("@", 1)[-1].lower()
    seen: dict[str, dict[str, Any]] = {}

    def bump(address: str, kind: str, when: datetime) -> None:
        row = seen.setdefault(address, {"received": 0, "sent": 0, "last": when})
        row[kind] += 1
        row["last"] = max(row["last"], when)

    for m in ctx.state.messages.values():
        if m.sender == ctx.user:
            for address in dict.fromkeys([*m.to, *m.cc, *m.bcc]):
                if address != ctx.user:
                    bump(address, "sent", m.date)
        else:
            bump(m.sender, "received", m.date)
    words = fold(query).split()
    rows = []
    for address, row in seen.items():
        name = names.get(address.lower(), "")
        if all(w in fold(f"{name} {address}") for w in words):
            rows.append((address, name, row))
    rows.sort(key=lambda r: (-(r[2]["received"] + r[2]["sent"]), -r[2]["last"].timestamp(), r[0]))
    out = page_of(rows, page, page_size, key="contacts")
    out["contacts"] = [
        {
            "email": address,
            "name": name,
            "in_company": address.lower().endswith(domain),
            "received": row["received"],
            "sent": row["sent"],
            "total": row["received"] + row["sent"],
            "last_date": format_instant(row["last"], ctx.tz),
        }
        for address, name, row in out["contacts"]
    ]
    return out
