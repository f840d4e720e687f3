"""The JSON shapes the drive's actions return: items, version histories, shared drives and comments."""

from __future__ import annotations

from typing import Any

from tools.apps.drive._rules import MEMBER_ACCESS, access, ancestors, descendants, path_of
from tools.apps.drive.state import Comment, DriveFile, DriveState, SharedDrive
from tools.kernel.world import Context, format_instant

__all__ = ["comment_view", "detail", "shared_drive_view", "summary", "version_rows"]


def summary(ctx: Context[DriveState], f: DriveFile) -> dict[str, Any]:
    """The short view of an item used in lists."""
    return {
        "id": f.id,
        "name": f.name,
        "kind": f.kind,
        "mime_type": f.mime_type,
        "parent_id": f.parent_id,
        "shared_drive_id": f.drive_id or None,
        "owner": f.owner,
        "modified": format_instant(f.modified, ctx.tz),
        "size": f.size,
        "trashed": f.trashed,
    }


def detail(ctx: Context[DriveState], f: DriveFile) -> dict[str, Any]:
    """The full view of an item: path, versions, direct and inherited access."""
    direct = {p.email.lower() for p in f.permissions}
    inherited: list[dict[str, Any]] = []
    for folder in ancestors(ctx.state, f):
        for p in folder.permissions:
            if p.email.lower() not in direct:
                direct.add(p.email.lower())
                inherited.append({"email": p.email, "role": p.role, "from_folder_id": folder.id})
    sd = ctx.state.shared_drives.get(f.drive_id) if f.drive_id else None
    members = [(m, sd.id) for m in sd.members] if sd else []
    for m, sd_id in members:
        if m.email.lower() not in direct:
            direct.add(m.email.lower())
            inherited.append({"email": m.email, "role": MEMBER_ACCESS[m.role], "from_shared_drive_id": sd_id})
    out = summary(ctx, f)
    out.update(
        path=path_of(ctx.state, f),
        shared_drive={"id": sd.id, "name": sd.name} if sd else None,
        created=format_instant(f.created, ctx.tz),
        last_modified_by=f.modified_by or f.owner,
        permissions=[p.model_dump() for p in f.permissions],
        inherited_permissions=inherited,
        your_access=access(ctx.state, f, ctx.user),
    )
    if f.removed_permissions:  # the sharing history: access taken off this item, oldest first
        out["removed_permissions"] = [
            {"email": r.email, "role": r.role, "removed_at": format_instant(r.removed_at, ctx.tz),
             "removed_by": r.removed_by}
            for r in f.removed_permissions
        ]  # fmt: skip
    if f.kind == "file":
        out["version"] = len(f.versions) + 1
        out["open_comments"] = sum(1 for c in ctx.state.comments.values() if c.file_id == f.id and not c.resolved)
    return out


def version_rows(ctx: Context[DriveState], f: DriveFile) -> list[dict[str, Any]]:
    """A file's versions, the current content included, newest first."""
    rows = [
        {
            "version": v.number,
            "name": v.name,
            "size": v.size,
            "mime_type": v.mime_type,
            "modified": format_instant(v.modified, ctx.tz),
            "modified_by": v.modified_by,
            "current": False,
        }
        for v in f.versions
    ]
    rows.append(
        {
            "version": len(f.versions) + 1,
            "name": f.name,
            "size": f.size,
            "mime_type": f.mime_type,
            "modified": format_instant(f.modified, ctx.tz),
            "modified_by": f.modified_by or f.owner,
            "current": True,
        }
    )
    return rows[::-1]


def shared_drive_view(ctx: Context[DriveState], sd: SharedDrive, role: str) -> dict[str, Any]:
    """A shared drive with its members, the user's ``role`` there and how many items it holds outside the trash."""
    return {
        "id": sd.id,
        "name": sd.name,
        "created": format_instant(sd.created, ctx.tz),
        "your_role": role,
        "members": [m.model_dump() for m in sd.members],
        "items": sum(1 for f in descendants(ctx.state, sd.id) if not f.trashed),
    }


def comment_view(ctx: Context[DriveState], c: Comment) -> dict[str, Any]:
    """A comment with its replies."""
    return {
        "id": c.id,
        "file_id": c.file_id,
        "author": c.author,
        "body": c.body,
        "quote": c.quote,
        "created": format_instant(c.created, ctx.tz),
        "resolved": c.resolved,
        "resolved_by": c.resolved_by or None,
        "replies": [
            {"id": r.id, "author": r.author, "body": r.body, "created": format_instant(r.created, ctx.tz)}
            for r in c.replies
        ],
    }
