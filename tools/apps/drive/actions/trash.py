"""Drive actions on the trash: move an item to it, restore an item from it."""

from __future__ import annotations

from typing import Any

from tools.apps.drive._rules import (
    access,
    check_free,
    descendants,
    get_item,
    path_of,
    require_edit,
    require_organize,
)
from tools.apps.drive.app import app
from tools.apps.drive.state import DriveState
from tools.kernel.exceptions import Conflict
from tools.kernel.world import Context

__all__ = ["restore_file", "trash_file"]


@app.action(read_only=False)
def trash_file(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Move a file or folder to the trash; a folder's contents go with it. Restore-file brings it back.

    Example:
        file_id="fld_archive" -> {"trashed": ["fld_archive", "file_leadership_offsite_2025_agenda", ...]}.

    Args:
        file_id: The id of the file or folder.

    Returns:
        {"trashed": [ids now in the trash], "count": how many}.
    """
    f = get_item(ctx, file_id)
    require_edit(ctx, f, "file_id")
    require_organize(ctx, f, "file_id")
    items = [f, *(descendants(ctx.state, f.id) if f.kind == "folder" else [])]
    newly = [x for x in items if not x.trashed]
    for x in newly:
        x.trashed = True
        x.trashed_with = f.id
    return {"trashed": [x.id for x in newly], "count": len(newly)}


@app.action(read_only=False)
def restore_file(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Take a file or folder out of the trash, back where it was; a folder brings back what was trashed with it.

    Example:
        file_id="file_untitled_document" -> {"restored": ["file_untitled_document"], "count": 1, "path": ...}.

    Args:
        file_id: The id of the item in the trash (search-files with include_trashed=true finds it).

    Returns:
        {"restored": [ids], "count": how many, "path": the item's path}.
    """
    f = get_item(ctx, file_id)
    if not f.trashed:
        raise Conflict(f"'{f.name}' ({f.id}) is not in the trash", "file_id")
    role = access(ctx.state, f, ctx.user)
    if role not in ("writer", "owner"):
        raise Conflict(f"you have {role} access to '{f.name}'; ask its owner {f.owner} to restore it", "file_id")
    require_organize(ctx, f, "file_id")
    parent = ctx.state.files.get(f.parent_id)
    if parent is not None and parent.trashed:
        raise Conflict(
            f"its folder '{parent.name}' ({parent.id}) is in the trash too; restore that folder first", "file_id"
        )
    check_free(ctx, f.parent_id, f.name, "file_id", skip=f.id)
    back = [f, *(x for x in descendants(ctx.state, f.id) if x.trashed and x.trashed_with == f.id)]
    for x in back:
        x.trashed = False
        x.trashed_with = ""
    return {"restored": [x.id for x in back], "count": len(back), "path": path_of(ctx.state, f)}
