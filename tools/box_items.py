"""Box actions on folders and items: create folders, move, copy, rename, trash and restore."""

from __future__ import annotations

from typing import Any

from tools.box_model import (
    ROOT,
    BoxFile,
    BoxState,
    Folder,
    Item,
    add_version,
    ancestors,
    app,
    check_free,
    check_name,
    children,
    descendants,
    detail,
    get_folder,
    get_item,
    in_trash,
    kind_of,
    owner_for,
    path_of,
    require,
    role_of,
    suffix,
    summary,
)
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__: list[str] = []

Ctx = Context[BoxState]


def _item(ctx: Ctx, item_id: str, parameter: str = "item_id", trashed_ok: bool = False) -> Item:
    return get_item(ctx, item_id, parameter, trashed_ok)


@app.action(read_only=False)
def create_folder(ctx: Ctx, name: str, parent_id: str = ROOT, description: str = "") -> dict[str, Any]:
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
    parent = get_folder(ctx, parent_id, "parent_id")
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


def _destination(ctx: Ctx, folder_id: str, parameter: str) -> Folder | None:
    dest = get_folder(ctx, folder_id, parameter)
    require(ctx, dest, "upload", parameter)
    return dest


@app.action(read_only=False)
def move_item(ctx: Ctx, item_id: str, folder_id: str) -> dict[str, Any]:
    """Move a file or a folder (with everything inside it) into another folder.

    Example:
        item_id="file_inv_20463" folder_id="folder_invoices_2026_03" -> its details with the new path.

    Args:
        item_id: The id of the file or folder to move.
        folder_id: Id of the destination folder; "0" for the top (All Files).

    Returns:
        The item's details (as box get-item) after the move.
    """
    item = _item(ctx, item_id)
    dest = _destination(ctx, folder_id, "folder_id")
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


def _copy_file(ctx: Ctx, f: BoxFile, parent: str, owner: str, name: str) -> BoxFile:
    twin = BoxFile(
        id=ctx.new_id("file"),
        name=name,
        parent_id=parent,
        owner=owner,
        created_by=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        modified_by=ctx.user,
        description=f.description,
        mime_type=f.mime_type,
        size=f.size,
        blob=f.blob,
    )
    ctx.state.files[twin.id] = twin
    add_version(ctx, twin, 1)
    return twin


def _copy_folder(ctx: Ctx, src: Folder, parent: str, owner: str, name: str) -> Folder:
    twin = Folder(
        id=ctx.new_id("folder"),
        name=name,
        parent_id=parent,
        owner=owner,
        created_by=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        description=src.description,
    )
    ctx.state.folders[twin.id] = twin
    for kid in sorted(children(ctx.state, src.id), key=lambda k: k.id):
        if kid.trashed:
            continue
        if isinstance(kid, Folder):
            _copy_folder(ctx, kid, twin.id, owner, kid.name)
        else:
            _copy_file(ctx, kid, twin.id, owner, kid.name)
    return twin


@app.action(read_only=False)
def copy_item(ctx: Ctx, item_id: str, folder_id: str, new_name: str = "") -> dict[str, Any]:
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
    item = _item(ctx, item_id)
    dest = _destination(ctx, folder_id, "folder_id")
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
        _copy_folder(ctx, item, dest_id, owner, name)
        if isinstance(item, Folder)
        else _copy_file(ctx, item, dest_id, owner, name)
    )
    return detail(ctx, twin)


@app.action(read_only=False)
def rename_item(ctx: Ctx, item_id: str, new_name: str) -> dict[str, Any]:
    """Rename a file or folder; it stays where it is. A file keeps its extension.

    Example:
        item_id="file_payment_run_2026_03_06" new_name="Payment run 2026-03-06 (final).csv"

    Args:
        item_id: The id of the file or folder.
        new_name: The new name; must not already be used in the same folder.

    Returns:
        The item's details (as box get-item) after renaming.
    """
    item = _item(ctx, item_id)
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


# ---- trash ------------------------------------------------------------------------------------------


@app.action(read_only=False)
def trash_item(ctx: Ctx, item_id: str) -> dict[str, Any]:
    """Move a file or folder to the trash; a folder's contents go with it. It can be restored later.

    Example:
        item_id="file_payment_run_2026_03_06" -> {"id", "name", "type", "trashed_at", "items_inside": 0}.

    Args:
        item_id: The id of the file or folder.

    Returns:
        {"id", "name", "type", "path" (where it was), "trashed_at", "items_inside" (for a folder)}.
    """
    item = _item(ctx, item_id)
    require(ctx, item, "edit", "item_id")
    where = path_of(ctx.state, item)
    item.trashed, item.trashed_at, item.trashed_by = True, ctx.now, ctx.user
    inside = len(descendants(ctx.state, item.id)) if isinstance(item, Folder) else 0
    return {
        "id": item.id,
        "name": item.name,
        "type": kind_of(item),
        "path": where,
        "trashed_at": format_instant(ctx.now, ctx.tz),
        "items_inside": inside,
    }


@app.action(read_only=True)
def list_trash(ctx: Ctx, page: Page = 1, page_size: PageSize = 50) -> dict[str, Any]:
    """List the items in the trash that you can restore, most recently trashed first.

    Example:
        (no parameters) -> [{"id": "file_fabrikam_coi_2026", "name": "Fabrikam certificate of ... .pdf", ...}].

    Args:
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [item summary plus "trashed_at", "trashed_by", "original_folder_id", "original_path",
        "items_inside"], "page", "page_size", "total", "next_page"}.
    """
    items: list[Item] = [*ctx.state.folders.values(), *ctx.state.files.values()]
    gone = [i for i in items if i.trashed and role_of(ctx, i) in ("owner", "co-owner", "editor")]
    gone.sort(key=lambda i: (-(i.trashed_at.timestamp() if i.trashed_at else 0), fold(i.name)))
    rows = []
    for i in gone:
        parent = ctx.state.folders.get(i.parent_id)
        rows.append(
            {
                **summary(ctx, i),
                "trashed_at": format_instant(i.trashed_at, ctx.tz) if i.trashed_at else None,
                "trashed_by": i.trashed_by,
                "original_folder_id": i.parent_id,
                "original_path": path_of(ctx.state, parent) if parent else "/",
                "items_inside": len(descendants(ctx.state, i.id)) if isinstance(i, Folder) else 0,
            }
        )
    return page_of(rows, page, page_size)


@app.action(read_only=False)
def restore_item(ctx: Ctx, item_id: str, new_name: str = "", folder_id: str = "") -> dict[str, Any]:
    """Restore an item from the trash into its folder (or another one you name).

    Restoring is refused when an item with the same name is now in that folder: give
    new_name to restore it under another name. A folder comes back with its contents.

    Example:
        item_id="file_fabrikam_coi_2026" -> the file's details, back in /Partners/Fabrikam Logistics.

    Args:
        item_id: The id of the trashed item (see box list-trash).
        new_name: Restore under this name instead of the old one.
        folder_id: Restore into this folder instead of the original one (needed when that folder is gone).

    Returns:
        The item's details (as box get-item) after restoring.
    """
    item = _item(ctx, item_id, trashed_ok=True)
    if not item.trashed:
        hint = "; restore the folder that holds it" if in_trash(ctx.state, item) else ""
        raise Conflict(f"'{item.name}' ({item.id}) is not itself in the trash{hint}", "item_id")
    require(ctx, item, "edit", "item_id")
    if folder_id.strip():
        dest = _destination(ctx, folder_id, "folder_id")
    else:
        dest = ctx.state.folders.get(item.parent_id)
        if dest is not None and in_trash(ctx.state, dest):
            raise Conflict(
                f"its folder '{dest.name}' ({dest.id}) is in the trash too; restore that folder first, "
                "or pass folder_id to restore it elsewhere",
                "folder_id",
            )
    name = check_name(new_name, "new_name") if new_name.strip() else item.name
    if isinstance(item, BoxFile) and suffix(item.name) and suffix(name) != suffix(item.name):
        raise InvalidArgument(f"keep the extension {suffix(item.name)}", "new_name")
    dest_id = dest.id if dest else ROOT
    try:
        check_free(ctx, dest_id, name, "new_name", skip=item.id)
    except Conflict as exc:
        raise Conflict(f"{exc.message}; pass new_name to restore it under another name", "new_name") from None
    item.trashed, item.trashed_at, item.trashed_by = False, None, ""
    item.parent_id, item.name = dest_id, name
    return detail(ctx, item)
