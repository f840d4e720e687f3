"""Drive actions that change where an item is: move, rename, trash and restore."""

from __future__ import annotations

from typing import Any

from tools.apps.drive._rules import (
    access,
    ancestors,
    check_free,
    check_name,
    descendants,
    get_item,
    path_of,
    place,
    require_edit,
    require_organize,
    require_write,
)
from tools.apps.drive._views import detail
from tools.apps.drive.app import app
from tools.apps.drive.state import DriveState
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context

__all__ = ["move_file", "rename_file", "restore_file", "trash_file"]


@app.action(read_only=False)
def move_file(ctx: Context[DriveState], file_id: str, new_parent_id: str) -> dict[str, Any]:
    """Move a file or folder (with everything inside it) into another folder of the same drive.

    Items cannot move between My Drive and a shared drive, or between shared drives: use
    copy-file there. In a shared drive only managers and content managers can move items.

    Example:
        file_id="file_offsite_venue_options" new_parent_id="fld_archive" -> its details with the new path.

    Args:
        file_id: The id of the file or folder to move.
        new_parent_id: Id of the destination folder, "root" for the top of My Drive, or a shared drive's id.

    Returns:
        The item's details (as get-file) after the move.
    """
    f = get_item(ctx, file_id)
    dest = place(ctx, new_parent_id, "new_parent_id")
    require_edit(ctx, f, "file_id")
    require_organize(ctx, f, "file_id")
    require_write(ctx, dest, "new_parent_id")
    if dest.drive_id != f.drive_id:
        raise InvalidArgument(
            f"'{f.name}' and '{dest.name}' are in different drives; items move only within one drive. "
            "Use drive copy-file to put a copy there",
            "new_parent_id",
        )
    if dest.folder is not None and (dest.id == f.id or f.id in {a.id for a in ancestors(ctx.state, dest.folder)}):
        raise InvalidArgument(
            f"'{dest.name}' is '{f.name}' itself or inside it; pick a folder outside it", "new_parent_id"
        )
    if dest.id == f.parent_id:
        return detail(ctx, f)
    check_free(ctx, dest.id, f.name, "new_parent_id", skip=f.id)
    f.parent_id = dest.id
    f.modified = ctx.now
    return detail(ctx, f)


@app.action(read_only=False)
def rename_file(ctx: Context[DriveState], file_id: str, new_name: str) -> dict[str, Any]:
    """Give a file or folder a new name; it stays where it is.

    Example:
        file_id="file_q2_budget_draft" new_name="Q2 budget.csv" -> its details with the new name.

    Args:
        file_id: The id of the file or folder.
        new_name: The new name (no slashes); must not already be used in the same folder.

    Returns:
        The item's details (as get-file) after renaming.
    """
    f = get_item(ctx, file_id)
    name = check_name(new_name, "new_name")
    require_edit(ctx, f, "file_id")
    if name == f.name:
        return detail(ctx, f)
    check_free(ctx, f.parent_id, name, "new_name", skip=f.id)
    f.name = name
    f.modified = ctx.now
    return detail(ctx, f)


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
