"""OneDrive actions on the recycle bin: delete an item to it, list it, restore an item from it."""

from __future__ import annotations

from typing import Any

from tools.apps.onedrive._rules import descendants_of, item_path, resolve, taken
from tools.apps.onedrive._views import detail
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import OneDriveState
from tools.kernel.exceptions import Conflict
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of

__all__ = ["delete_item", "list_recycle_bin", "restore_item"]


@app.action(read_only=False)
def delete_item(ctx: Context[OneDriveState], item: str) -> dict[str, Any]:
    """Delete a file or folder: it goes to the recycle bin (a folder with everything inside).

    Deleted items can be brought back with restore-item.

    Example:
        item="/Desktop/Scratch notes.txt" -> {"deleted": ["itm_scratch_notes"], "count": 1}.

    Args:
        item: Id or path of the file or folder.

    Returns:
        {"deleted": [ids now in the recycle bin], "count": how many}.
    """
    it = resolve(ctx, item, "item")
    if it.parent_id == "":
        raise Conflict(
            f"'{it.name}' belongs to {it.owner}; to take it off your shared list use onedrive remove-permission "
            "with your own address",
            "item",
        )
    inside = [d for d in descendants_of(ctx.state, it.id) if d.deleted is None] if it.kind == "folder" else []
    for x in [it, *inside]:
        x.deleted, x.deleted_by, x.deleted_with = ctx.now, ctx.user, it.id
    return {"deleted": [x.id for x in [it, *inside]], "count": 1 + len(inside)}


@app.action(read_only=True)
def list_recycle_bin(ctx: Context[OneDriveState], page: Page = 1, page_size: PageSize = 20) -> dict[str, Any]:
    """List what is in your recycle bin, most recently deleted first.

    Example:
        (no parameters) -> Q1 budget draft (old).xlsx from /Documents/Budgets, deleted March 2.

    Args:
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [{"id", "name", "kind", "original_path", "size" (bytes), "deleted", "deleted_by",
        "items" (how many come back with it)}], "page", "page_size", "total", "next_page"}.
    """
    top = [i for i in ctx.state.items.values() if i.deleted is not None and i.deleted_with in ("", i.id)]
    top.sort(key=lambda i: (-i.deleted.timestamp() if i.deleted else 0, i.id))
    rows = []
    for i in top:
        group = [i, *(d for d in descendants_of(ctx.state, i.id) if d.deleted_with == i.id)]
        rows.append(
            {
                "id": i.id,
                "name": i.name,
                "kind": i.kind,
                "original_path": item_path(ctx.state, i),
                "size": sum(g.size for g in group),
                "deleted": format_instant(i.deleted, ctx.tz) if i.deleted else None,
                "deleted_by": i.deleted_by,
                "items": len(group),
            }
        )
    return page_of(rows, page, page_size)


@app.action(read_only=False)
def restore_item(ctx: Context[OneDriveState], item_id: str) -> dict[str, Any]:
    """Bring a file or folder back from the recycle bin to where it was.

    Example:
        item_id="itm_q1_budget_old" -> back at /Documents/Budgets/Q1 budget draft (old).xlsx.

    Args:
        item_id: The deleted item's id, from list-recycle-bin.

    Returns:
        The item's details (as get-item), plus "restored" (how many items came back).
    """
    it = resolve(ctx, item_id, "item_id", deleted=True)
    if it.deleted is None:
        raise Conflict(f"'{it.name}' ({it.id}) is not in the recycle bin", "item_id")
    if it.deleted_with not in ("", it.id):
        owner = ctx.state.items.get(it.deleted_with)
        what = f"folder '{owner.name}' ({owner.id})" if owner else "its folder"
        raise Conflict(f"'{it.name}' went to the recycle bin with {what}; restore that instead", "item_id")
    parent = ctx.state.items.get(it.parent_id)
    if parent is not None and parent.deleted is not None:
        raise Conflict(
            f"its folder '{parent.name}' ({parent.id}) is in the recycle bin too; restore that first", "item_id"
        )
    clash = taken(ctx.state, it.parent_id, it.name)
    if clash is not None:
        raise Conflict(
            f"'{item_path(ctx.state, clash)}' now holds that name ({clash.id}); rename or move it first", "item_id"
        )
    group = [it, *(d for d in descendants_of(ctx.state, it.id) if d.deleted_with == it.id)]
    for g in group:
        g.deleted, g.deleted_by, g.deleted_with = None, "", ""
    return {**detail(ctx, it), "restored": len(group)}
