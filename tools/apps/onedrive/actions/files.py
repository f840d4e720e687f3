"""OneDrive actions for creating and changing: new folders, uploads, copies, moves and renames."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

from tools.apps.onedrive._rules import (
    ancestors_of,
    descendants_of,
    folder_ref,
    free_name,
    item_path,
    require_edit,
    require_own,
    resolve,
    resolve_file,
    taken,
    upload_bytes,
)
from tools.apps.onedrive._versions import copy_of, new_item, save_version
from tools.apps.onedrive._views import detail
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import FORBIDDEN, ROOT, OneDriveState
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.folders import check_name
from tools.kits.text import FileText

__all__ = ["copy_item", "create_folder", "move_item", "rename_item", "upload_file"]


@app.action(read_only=False)
def create_folder(
    ctx: Context[OneDriveState], name: str, parent: str = "/", conflict_behavior: Literal["fail", "rename"] = "fail"
) -> dict[str, Any]:
    r"""Make a new folder in your OneDrive.

    Example:
        name="Travel" parent="/Documents" -> the new folder /Documents/Travel with its id.

    Args:
        name: The folder's name (no / \\ : * ? " < > |).
        parent: Id or path of the folder to create it in; "/" is the top of your OneDrive.
        conflict_behavior: When the name is taken: "fail" (error) or "rename" (adds a number, e.g. "Travel 1").

    Returns:
        The new folder's details (as get-item).
    """
    name = check_name(name, "name", FORBIDDEN)
    folder = folder_ref(ctx, parent, "parent")
    pid = folder.id if folder else ROOT
    clash = taken(ctx.state, pid, name)
    if clash is not None:
        if conflict_behavior == "fail":
            raise Conflict(
                f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); use it, pick another name, "
                'or pass conflict_behavior="rename"',
                "name",
            )
        name = free_name(ctx.state, pid, name)
    new = new_item(ctx, name, pid, None)
    ctx.state.items[new.id] = new
    return detail(ctx, new)


@app.action(read_only=False)
def upload_file(
    ctx: Context[OneDriveState],
    name: str = "",
    folder: str = "/",
    content: FileText = "",
    path: str = "",
    conflict_behavior: Literal["fail", "replace", "rename"] = "fail",
    item_id: str = "",
) -> dict[str, Any]:
    """Upload a file from your workspace (or text you give) into OneDrive.

    Give exactly one of path (a workspace file: any kind, e.g. .xlsx or .pdf) and content (plain
    text, for .txt, .md or .csv files). To save a new version of an existing file, give its
    item_id instead of name and folder; replacing keeps the old version in the history.

    Example:
        path="downloads/itinerary.txt" folder="/Documents/Travel" name="Chicago itinerary.txt"

    Args:
        name: The file's name with its extension; default the workspace file's name.
        folder: Id or path of the folder to put it in; "/" is the top of your OneDrive.
        content: The file's text (never base64: for other files save them in the workspace and pass path).
        path: Path of the workspace file to upload.
        conflict_behavior: When the folder already has that name: "fail" (error), "replace" (new version of
            that file) or "rename" (adds a number, e.g. "notes 1.txt").
        item_id: Id or path of an existing file to save a new version of (then leave name and folder empty).

    Returns:
        The file's details (as get-item), with "version" the number just saved.
    """
    if item_id.strip():
        if name.strip() or folder.strip() not in ("", "/", ROOT):
            raise InvalidArgument("give item_id alone, or name and folder for a new file, not both", "item_id")
        target = resolve_file(ctx, item_id, "item_id")
        require_edit(ctx, target, "item_id")
        save_version(ctx, target, upload_bytes(ctx, target.name, content, path))
        return detail(ctx, target)
    parent = folder_ref(ctx, folder, "folder")
    pid = parent.id if parent else ROOT
    if not name.strip() and path.strip():
        name = PurePosixPath(path.strip()).name
    name = check_name(name, "name", FORBIDDEN)
    clash = taken(ctx.state, pid, name)
    if clash is not None and conflict_behavior == "fail":
        raise Conflict(
            f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pass conflict_behavior=\"replace\" "
            'to save a new version of it, or "rename" to keep both',
            "name",
        )
    if clash is not None and conflict_behavior == "replace":
        if clash.kind == "folder":
            raise Conflict(f"'{clash.name}' is a folder and cannot be replaced by a file; pick another name", "name")
        save_version(ctx, clash, upload_bytes(ctx, name, content, path))
        return detail(ctx, clash)
    data = upload_bytes(ctx, name, content, path)
    if clash is not None:
        name = free_name(ctx.state, pid, name)
    new = new_item(ctx, name, pid, data)
    ctx.state.items[new.id] = new
    return detail(ctx, new)


@app.action(read_only=False)
def copy_item(
    ctx: Context[OneDriveState],
    item: str,
    destination: str = "/",
    new_name: str = "",
    conflict_behavior: Literal["fail", "rename"] = "fail",
) -> dict[str, Any]:
    """Copy a file or folder (with everything inside) into a folder of your OneDrive.

    Works for files shared with you too, read-only ones included. The copy is yours and is not
    shared with anyone.

    Example:
        item="itm_shared_q1_forecast" destination="/Documents/Budgets" -> your own copy of Priya's forecast.

    Args:
        item: Id or path of the file or folder to copy.
        destination: Id or path of the folder to copy into; "/" is the top of your OneDrive.
        new_name: Name for the copy; default the original's name.
        conflict_behavior: When the name is taken there: "fail" (error) or "rename" (adds a number).

    Returns:
        The copy's details (as get-item), plus "copied" (how many items were created).
    """
    src = resolve(ctx, item, "item")
    dest = folder_ref(ctx, destination, "destination")
    name = check_name(new_name, "new_name", FORBIDDEN) if new_name.strip() else src.name
    if dest is not None and (dest.id == src.id or src.id in {a.id for a in ancestors_of(ctx.state, dest)}):
        raise InvalidArgument(f"'{dest.name}' is '{src.name}' itself or inside it; pick another folder", "destination")
    pid = dest.id if dest else ROOT
    clash = taken(ctx.state, pid, name)
    if clash is not None:
        if conflict_behavior == "fail":
            raise Conflict(
                f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pass new_name, "
                'or conflict_behavior="rename"',
                "new_name",
            )
        name = free_name(ctx.state, pid, name)
    inside = [d for d in descendants_of(ctx.state, src.id) if d.deleted is None] if src.kind == "folder" else []
    top = copy_of(ctx, src, name, pid)
    made = {src.id: top.id}
    clones = [top]
    for child in sorted(inside, key=lambda d: len(ancestors_of(ctx.state, d))):
        clone = copy_of(ctx, child, child.name, made[child.parent_id])
        made[child.id] = clone.id
        clones.append(clone)
    for clone in clones:
        ctx.state.items[clone.id] = clone
    return {**detail(ctx, top), "copied": len(clones)}


@app.action(read_only=False)
def move_item(ctx: Context[OneDriveState], item: str, destination: str) -> dict[str, Any]:
    """Move a file or folder (with everything inside) to another folder of your OneDrive.

    Example:
        item="/Pictures/Screenshots/INC-3021 checkout error.png" destination="/Documents" -> its new path.

    Args:
        item: Id or path of the file or folder to move.
        destination: Id or path of the folder to move it into; "/" is the top of your OneDrive.

    Returns:
        The item's details (as get-item) after the move.
    """
    it = resolve(ctx, item, "item")
    require_own(it, "item", "move")
    dest = folder_ref(ctx, destination, "destination")
    if dest is not None and (dest.id == it.id or it.id in {a.id for a in ancestors_of(ctx.state, dest)}):
        raise InvalidArgument(f"'{dest.name}' is '{it.name}' itself or inside it; pick another folder", "destination")
    pid = dest.id if dest else ROOT
    if pid == it.parent_id:
        return detail(ctx, it)
    clash = taken(ctx.state, pid, it.name, skip=it.id)
    if clash is not None:
        raise Conflict(
            f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); rename one of them first", "destination"
        )
    it.parent_id = pid
    return detail(ctx, it)


@app.action(read_only=False)
def rename_item(ctx: Context[OneDriveState], item: str, new_name: str) -> dict[str, Any]:
    r"""Give a file or folder a new name; it stays where it is.

    Example:
        item="itm_q2_budget_draft" new_name="Q2 budget.xlsx" -> its details with the new name.

    Args:
        item: Id or path of the file or folder.
        new_name: The new name, with the extension for files (no / \\ : * ? " < > |).

    Returns:
        The item's details (as get-item) after renaming.
    """
    it = resolve(ctx, item, "item")
    name = check_name(new_name, "new_name", FORBIDDEN)
    require_edit(ctx, it, "item")
    if name == it.name:
        return detail(ctx, it)
    clash = taken(ctx.state, it.parent_id, name, skip=it.id) if it.parent_id else None
    if clash is not None:
        raise Conflict(f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pick another name", "new_name")
    it.name, it.modified, it.modified_by = name, ctx.now, ctx.user
    if it.kind == "file":
        it.mime_type = mime_type_for(name)
    return detail(ctx, it)
