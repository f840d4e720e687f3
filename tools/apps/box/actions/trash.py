"""Box actions on the trash: move an item to it, list it, restore an item from it."""

from __future__ import annotations

from typing import Any

from tools.apps.box._rules import (
    check_free,
    check_name,
    descendants,
    destination,
    find_item,
    in_trash,
    kind_of,
    path_of,
    require,
    role_of,
    suffix,
)
from tools.apps.box._views import detail, trashed_view
from tools.apps.box.app import app
from tools.apps.box.state import ROOT, BoxFile, BoxState, Folder, Item
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["list_trash", "restore_item", "trash_item"]


@app.action(read_only=False)
def trash_item(ctx: Context[BoxState], item_id: str) -> dict[str, Any]:
    """Move a file or folder to the trash; a folder's contents go with it. It can be restored later.

    Example:
        item_id="file_payment_run_2026_03_06" -> {"id", "name", "type", "trashed_at", "items_inside": 0}.

    Args:
        item_id: The id of the file or folder.

    Returns:
        {"id", "name", "type", "path" (where it was), "trashed_at", "items_inside" (for a folder)}.
    """
    item = find_item(ctx, item_id)
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
def list_trash(ctx: Context[BoxState], page: Page = 1, page_size: PageSize = 50) -> dict[str, Any]:
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
    return page_of([trashed_view(ctx, i) for i in gone], page, page_size)


@app.action(read_only=False)
def restore_item(ctx: Context[BoxState], item_id: str, new_name: str = "", folder_id: str = "") -> dict[str, Any]:
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
        The item's details (as box get-item) after restoring, with "restored_at" and "restored_by": an item
        keeps when and by whom it last came back from the trash.
    """
    item = find_item(ctx, item_id, trashed_ok=True)
    if not item.trashed:
        hint = "; restore the folder that holds it" if in_trash(ctx.state, item) else ""
        raise Conflict(f"'{item.name}' ({item.id}) is not itself in the trash{hint}", "item_id")
    require(ctx, item, "edit", "item_id")
    if folder_id.strip():
        dest = destination(ctx, folder_id, "folder_id")
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
    item.restored_at, item.restored_by = ctx.now, ctx.user
    item.parent_id, item.name = dest_id, name
    return detail(ctx, item)
