"""Filter actions: create, list and delete the mail filters that sort arriving mail."""

from __future__ import annotations

from typing import Any

from tools.apps.gmail._rules import (
    check_addresses,
    check_filter_labels,
    filter_labels,
    filter_matches,
    query_terms,
)
from tools.apps.gmail._views import filter_view
from tools.apps.gmail.app import app
from tools.apps.gmail.state import Filter, GmailState
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, matching
from tools.kits.text import SearchText

__all__ = ["create_filter", "delete_filter", "list_filters"]


@app.action(read_only=False)
def create_filter(
    ctx: Context[GmailState],
    sender: str = "",
    to: str = "",
    subject: str = "",
    query: SearchText = "",
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
        query_terms(ctx, text_query)
    labels = check_filter_labels(state, add_labels)
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
    hits = matching(state.messages, lambda m: filter_matches(ctx, new, m))
    changed: list[str] = []
    if apply_to_existing:
        for m in hits:
            labels_now = filter_labels(new, m.labels)
            if labels_now != m.labels:
                m.labels = labels_now
                changed.append(m.id)
    state.filters[new.id] = new
    return {"filter": filter_view(ctx, new), "matching_messages": len(hits), "changed_messages": changed}


@app.action(read_only=True)
def list_filters(ctx: Context[GmailState]) -> dict[str, Any]:
    """List your mail filters, oldest first.

    Example:
        (no parameters) -> [{"id": "filter_0001", "sender": "billing@fabrikam.example", "add_labels": ["Vendors"]}]

    Returns:
        {"filters": [{"id", "sender", "to", "subject", "query", "has_attachment", "add_labels", "archive",
        "mark_read", "forward_to", "search" (the same criteria as a search query), "created"}]}.
    """
    ordered = sorted(ctx.state.filters.values(), key=lambda f: (f.created, f.id))
    return {"filters": [filter_view(ctx, f) for f in ordered]}


@app.action(read_only=False)
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
