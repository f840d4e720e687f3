"""The JSON shapes OneDrive's actions return: items, permissions, sharing links, search snippets."""

from __future__ import annotations

from typing import Any

from tools.apps.onedrive._rules import descendants_of, item_path, link_active, role_of
from tools.apps.onedrive.state import DriveItem, OneDriveState, RevokedLink, SharingLink
from tools.kernel.world import Context, format_instant

__all__ = ["detail", "link_view", "permission_rows", "revoked_view", "snippet", "summary"]


def summary(ctx: Context[OneDriveState], item: DriveItem) -> dict[str, Any]:
    """The short form of an item used in lists and search results.

    Returns:
        {"id", "name", "kind", "path", "size" (a folder's: what it holds), "mime_type", "modified",
        "modified_by", "owner", and "child_count" for folders}.
    """
    size = item.size
    if item.kind == "folder":
        inside = [d for d in descendants_of(ctx.state, item.id) if d.deleted is None]
        size = sum(d.size for d in inside if d.kind == "file")
    out: dict[str, Any] = {
        "id": item.id,
        "name": item.name,
        "kind": item.kind,
        "path": item_path(ctx.state, item),
        "size": size,
        "mime_type": item.mime_type,
        "modified": format_instant(item.modified, ctx.tz),
        "modified_by": item.modified_by,
        "owner": item.owner,
    }
    if item.kind == "folder":
        out["child_count"] = sum(1 for i in ctx.state.items.values() if i.parent_id == item.id and i.deleted is None)
    return out


def detail(ctx: Context[OneDriveState], item: DriveItem) -> dict[str, Any]:
    """Everything about an item but its content and sharing details.

    Returns:
        The :func:`summary` plus "parent_id", "created", "created_by", "your_access", "shared_with_me",
        "shared", "active_links", "version" and, when set, "description".
    """
    out = summary(ctx, item)
    active = [lnk for lnk in ctx.state.links.values() if lnk.item_id == item.id and link_active(ctx, lnk)]
    out.update(
        parent_id=item.parent_id or None,
        created=format_instant(item.created, ctx.tz),
        created_by=item.created_by,
        your_access=role_of(ctx.state, item, ctx.user),
        shared_with_me=item.parent_id == "",
        shared=len(item.permissions) > 1 or bool(active),
        active_links=len(active),
        version=item.versions[-1].number if item.versions else None,
    )
    if item.description:
        out["description"] = item.description
    return out


def permission_rows(ctx: Context[OneDriveState], item: DriveItem) -> list[dict[str, Any]]:
    """The item's own permissions as ``[{"email", "role", "granted"}]``, owner first."""
    return [{"email": p.email, "role": p.role, "granted": format_instant(p.granted, ctx.tz)} for p in item.permissions]


def link_view(ctx: Context[OneDriveState], link: SharingLink) -> dict[str, Any]:
    """A sharing link with every field and its "status": "active" or "expired"."""
    out = link.model_dump(mode="json", exclude={"created"})
    out["created"] = format_instant(link.created, ctx.tz)
    out["status"] = "active" if link_active(ctx, link) else "expired"
    return out


def revoked_view(ctx: Context[OneDriveState], gone: RevokedLink) -> dict[str, Any]:
    """A revoked link as the item's link history shows it, with "revoked_at" in the company's time."""
    out = gone.model_dump(mode="json", exclude={"revoked_at"})
    out["revoked_at"] = format_instant(gone.revoked_at, ctx.tz)
    return out


def snippet(text: str, words: list[str], width: int = 70) -> str:
    """A short piece of ``text`` around the first of ``words`` found in it (``""`` when none is)."""
    low = text.lower()
    at = min((i for i in (low.find(w) for w in words) if i >= 0), default=-1)
    if at < 0:
        return ""
    start, end = max(0, at - width), min(len(text), at + width)
    piece = " ".join(text[start:end].split())
    return ("..." if start else "") + piece + ("..." if end < len(text) else "")
