"""Box actions that arrange items: create a folder, move, copy and rename files and folders."""

from __future__ import annotations

from typing import Any

from tools.apps.box._rules import (
    ancestors,
    check_free,
    check_name,
    copy_file,
    copy_folder,
    destination,
    find_folder,
    find_item,
    owner_for,
    require,
    suffix,
)
from tools.apps.box._views import detail
from tools.apps.box.app import app
from tools.apps.box.state import ROOT, BoxFile, BoxState, Folder
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.text import LongText

__all__ = ["copy_item", "create_folder", "move_item", "rename_item"]


@app.action(read_only=False)
def create_folder(
    ctx: Context[BoxState], name: str, parent_id: str = ROOT, description: LongText = ""
) -> dict[str, Any]:
    """Make a new folder.

    Example:
        name="2026-04" parent_id="folder_vendor_invoices" -> the new folder with its id and path.

    Args:
        name: The folder's name; must not already be used in the parent folder.
        parent_id: Id of the folder to create it in; "0" for the top (All Files).
        description: A short description shown with the folder.

    Returns:
        The new folder's details (as box get-item).
    """
    fname = check_name(name, "name")
    parent = find_folder(ctx, parent_id, "parent_id")
    require(ctx, parent, "upload", "parent_id")
    pid = parent.id if parent else ROOT
    check_free(ctx, pid, fname, "name")
    folder = Folder(
        id=ctx.new_id("folder"),
        name=fname,
        parent_id=pid,
        owner=owner_for(ctx, parent),
        created_by=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        description=description.strip(),
    )
    ctx.state.folders[folder.id] = folder
    return detail(ctx, folder)


@app.action(read_only=False)
def move_item(ctx: Context[BoxState], item_id: str, folder_id: str) -> dict[str, Any]:
    """Move a file or a folder (with everything inside it) into another folder.

    Example:
        item_id="file_inv_20463" folder_id="folder_invoices_2026_03" -> its details with the new path.

    Args:
        item_id: The id of the file or folder to move.
        folder_id: Id of the destination folder; "0" for the top (All Files).

    Returns:
        The item's details (as box get-item) after the move.
    """
    item = find_item(ctx, item_id)
    dest = destination(ctx, folder_id, "folder_id")
    require(ctx, item, "edit", "item_id")
    dest_id = dest.id if dest else ROOT
    if dest is not None and (dest.id == item.id or item.id in {a.id for a in ancestors(ctx.state, dest)}):
        raise InvalidArgument(
            f"'{dest.name}' is '{item.name}' itself or inside it; pick a folder outside it", "folder_id"
        )
    if dest_id == item.parent_id:
        raise Conflict(f"'{item.name}' is already in that folder", "folder_id")
    check_free(ctx, dest_id, item.name, "folder_id", skip=item.id)
    item.parent_id = dest_id
    item.modified = ctx.now
    return detail(ctx, item)


@app.action(read_only=False)
def copy_item(ctx: Context[BoxState], item_id: str, folder_id: str, new_name: str = "") -> dict[str, Any]:
    """Copy a file (its current version) or a folder (with its contents) into a folder.

    Collaborators, shared links and comments are not copied. A copy into the same folder
    needs a new name.

    Example:
        item_id="file_mutual_nda_template" folder_id="folder_partners_lakeside" -> the copy's details.

    Args:
        item_id: The id of the file or folder to copy.
        folder_id: Id of the destination folder; "0" for the top (All Files).
        new_name: Name for the copy; default: the same name.

    Returns:
        The copy's details (as box get-item).
    """
    item = find_item(ctx, item_id)
    dest = destination(ctx, folder_id, "folder_id")
    require(ctx, item, "download", "item_id")
    name = check_name(new_name, "new_name") if new_name.strip() else item.name
    dest_id = dest.id if dest else ROOT
    if (
        isinstance(item, Folder)
        and dest is not None
        and (dest.id == item.id or item.id in {a.id for a in ancestors(ctx.state, dest)})
    ):
        raise InvalidArgument(
            f"'{dest.name}' is inside '{item.name}'; a folder cannot be copied into itself", "folder_id"
        )
    check_free(ctx, dest_id, name, "new_name" if new_name.strip() else "folder_id")
    owner = owner_for(ctx, dest)
    twin = (
        copy_folder(ctx, item, dest_id, owner, name)
        if isinstance(item, Folder)
        else copy_file(ctx, item, dest_id, owner, name)
    )
    return detail(ctx, twin)


@app.action(read_only=False)
def rename_item(ctx: Context[BoxState], item_id: str, new_name: str) -> dict[str, Any]:
    """Rename a file or folder; it stays where it is. A file keeps its extension.

    Example:
        item_id="file_payment_run_2026_03_06" new_name="Payment run 2026-03-06 (final).csv"

    Args:
        item_id: The id of the file or folder.
        new_name: The new name; must not already be used in the same folder.

    Returns:
        The item's details (as box get-item) after renaming.
    """
    item = find_item(ctx, item_id)
    name = check_name(new_name, "new_name")
    if isinstance(item, BoxFile) and suffix(item.name) and suffix(name) != suffix(item.name):
        raise InvalidArgument(
            f"keep the extension {suffix(item.name)}; a new extension does not convert the file", "new_name"
        )
    require(ctx, item, "edit", "item_id")
    if name == item.name:
        raise Conflict(f"'{item.name}' already has that name", "new_name")
    check_free(ctx, item.parent_id, name, "new_name", skip=item.id)
    item.name = name
    item.modified = ctx.now
    return detail(ctx, item)
