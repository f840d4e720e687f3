"""The JSON shapes Box's actions return: items, links, versions, trash rows, collaborations, comments."""

from __future__ import annotations

from typing import Any

from tools.apps.box._rules import (
    ancestors,
    children,
    descendants,
    folder_size,
    kind_of,
    path_of,
    role_of,
    suffix,
)
from tools.apps.box.state import (
    ROOT,
    ROOT_NAME,
    BoxFile,
    BoxState,
    Collaboration,
    Comment,
    FileVersion,
    Folder,
    Item,
    SharedLink,
)
from tools.kernel.world import Context, format_instant

__all__ = [
    "collaboration_view",
    "comment_view",
    "detail",
    "link_view",
    "search_hit",
    "summary",
    "trashed_view",
    "version_view",
]


def link_view(ctx: Context[BoxState], link: SharedLink | None) -> dict[str, Any] | None:
    """A shared link as callers see it (never a password)."""
    if link is None:
        return None
    return {
        "url": link.url,
        "access": link.access,
        "password_protected": link.password_protected,
        "expires": link.expires.isoformat() if link.expires else None,
        "can_download": link.can_download,
        "created_by": link.created_by,
        "created": format_instant(link.created, ctx.tz),
    }


def summary(ctx: Context[BoxState], item: Item) -> dict[str, Any]:
    """The short view of an item used in lists and search results."""
    out: dict[str, Any] = {
        "id": item.id,
        "type": kind_of(item),
        "name": item.name,
        "parent_id": item.parent_id,
        "owner": item.owner,
        "modified": format_instant(item.modified, ctx.tz),
    }
    if isinstance(item, BoxFile):
        out.update(
            size=item.size,
            extension=suffix(item.name).lstrip("."),
            version_number=item.version_number,
            modified_by=item.modified_by,
        )
    out["shared_link_access"] = item.shared_link.access if item.shared_link else None
    return out


def detail(ctx: Context[BoxState], item: Item) -> dict[str, Any]:
    """The full view of an item: its place, role, link and counts."""
    state = ctx.state
    out = summary(ctx, item)
    trail = [{"id": ROOT, "name": ROOT_NAME}] + [{"id": a.id, "name": a.name} for a in reversed(ancestors(state, item))]
    out.update(
        path=path_of(state, item),
        path_collection=trail,
        description=item.description,
        created=format_instant(item.created, ctx.tz),
        created_by=item.created_by,
        your_role=role_of(ctx, item),
        shared_link=link_view(ctx, item.shared_link),
    )
    if item.restored_at is not None:  # it came back from the trash: when and by whom
        out.update(restored_at=format_instant(item.restored_at, ctx.tz), restored_by=item.restored_by)
    if isinstance(item, BoxFile):
        out.update(
            mime_type=item.mime_type,
            versions=sum(v.file_id == item.id for v in state.versions.values()),
            comments=sum(c.file_id == item.id for c in state.comments.values()),
        )
    else:
        live = [k for k in children(state, item.id) if not k.trashed]
        out.update(
            size=folder_size(state, item),
            item_count=len(live),
            collaborators=sum(c.folder_id == item.id for c in state.collaborations.values()),
        )
    return out


def search_hit(ctx: Context[BoxState], item: Item, matched: list[str], snippet: str) -> dict[str, Any]:
    """A search result: the item's summary, its path, where the query matched and a snippet of text."""
    return {**summary(ctx, item), "path": path_of(ctx.state, item), "matched_in": matched, "snippet": snippet}


def version_view(ctx: Context[BoxState], v: FileVersion, current: int) -> dict[str, Any]:
    """One version of a file, as list-versions shows it; ``current`` is the file's version number."""
    return {
        "id": v.id,
        "number": v.number,
        "current": v.number == current,
        "size": v.size,
        "uploaded_by": v.uploaded_by,
        "uploaded_at": format_instant(v.uploaded_at, ctx.tz),
        "promoted_from": v.promoted_from,
    }


def trashed_view(ctx: Context[BoxState], item: Item) -> dict[str, Any]:
    """An item in the trash: its summary, when and by whom it was trashed, and where it came from."""
    parent = ctx.state.folders.get(item.parent_id)
    return {
        **summary(ctx, item),
        "trashed_at": format_instant(item.trashed_at, ctx.tz) if item.trashed_at else None,
        "trashed_by": item.trashed_by,
        "original_folder_id": item.parent_id,
        "original_path": path_of(ctx.state, parent) if parent else "/",
        "items_inside": len(descendants(ctx.state, item.id)) if isinstance(item, Folder) else 0,
    }


def collaboration_view(ctx: Context[BoxState], c: Collaboration, inherited_from: str = "") -> dict[str, Any]:
    """A collaboration; ``inherited_from`` (a folder's path) is set for one given on a folder above."""
    out: dict[str, Any] = {
        "id": c.id,
        "folder_id": c.folder_id,
        "email": c.email,
        "role": c.role,
        "status": c.status,
        "invited_by": c.invited_by,
        "created": format_instant(c.created, ctx.tz),
    }
    if inherited_from:
        out["inherited_from"] = inherited_from
    return out


def comment_view(ctx: Context[BoxState], c: Comment) -> dict[str, Any]:
    """A comment, with whether the acting user wrote it."""
    return {
        "id": c.id,
        "file_id": c.file_id,
        "author": c.author,
        "message": c.message,
        "created": format_instant(c.created, ctx.tz),
        "yours": c.author.lower() == ctx.user.lower(),
    }
