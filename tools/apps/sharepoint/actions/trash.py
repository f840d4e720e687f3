"""SharePoint actions on a site's recycle bin: list it, delete a file or folder to it, restore one."""

from __future__ import annotations

from typing import Any

from tools.apps.sharepoint._rules import (
    descendants_of,
    find_file,
    find_site,
    name_holder,
    require_role,
)
from tools.apps.sharepoint._views import item_detail, recycled_item
from tools.apps.sharepoint.app import app
from tools.apps.sharepoint.state import SharePointState
from tools.kernel.exceptions import Conflict
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of

__all__ = ["delete_file", "list_recycle_bin", "restore_file"]


@app.action(read_only=True)
def list_recycle_bin(
    ctx: Context[SharePointState], site: str, page: Page = 1, page_size: PageSize = 20
) -> dict[str, Any]:
    """List what was deleted from a site's libraries and can still be restored, most recent first.

    Example:
        site="Operations" -> [{"id": "doc_vendor_list_2024", "original_path": "Documents/...", ...}].

    Args:
        site: The site's name, id or address.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"site", "results": [{"id", "name", "kind", "original_path", "size", "deleted_at", "deleted_by"}],
        "page", "page_size", "total", "next_page"}.
    """
    s = find_site(ctx, site)
    gone = [f for f in ctx.state.files.values() if f.site_id == s.id and f.deleted and not f.deleted_with]
    gone.sort(key=lambda f: (-(f.deleted_at.timestamp() if f.deleted_at else 0), f.id))
    return {"site": s.name, **page_of([recycled_item(ctx, f) for f in gone], page, page_size)}


@app.action(read_only=False)
def delete_file(ctx: Context[SharePointState], file_id: str) -> dict[str, Any]:
    """Delete a file or folder; it goes to the site's recycle bin (a folder takes its contents along).

    Example:
        file_id="folder_ops_offsite_2026" -> {"deleted": ["folder_ops_offsite_2026", "doc_lakeside_lodge_agreement"],
        "count": 2, ...}.

    Args:
        file_id: The id of the file or folder.

    Returns:
        {"deleted": [ids now in the recycle bin], "count", "restore_with": how to undo}.
    """
    item = find_file(ctx, file_id)
    require_role(ctx, ctx.state.sites[item.site_id], "contribute", "file_id")
    inside = [f for f in descendants_of(ctx.state, item.id) if not f.deleted] if item.kind == "folder" else []
    item.deleted, item.deleted_at, item.deleted_by = True, ctx.now, ctx.user
    for f in inside:
        f.deleted, f.deleted_at, f.deleted_by, f.deleted_with = True, ctx.now, ctx.user, item.id
    ids = [item.id, *(f.id for f in inside)]
    return {"deleted": ids, "count": len(ids), "restore_with": f"sharepoint restore-file --file-id={item.id}"}


@app.action(read_only=False)
def restore_file(ctx: Context[SharePointState], file_id: str) -> dict[str, Any]:
    """Bring a file or folder back from the recycle bin to where it was.

    Example:
        file_id="doc_vendor_list_2024" -> its details, back in its original folder.

    Args:
        file_id: The id of the deleted item (from list-recycle-bin).

    Returns:
        The item's details (as get-file) plus "restored": [ids brought back].
    """
    item = find_file(ctx, file_id, deleted=True)
    if not item.deleted:
        raise Conflict(f"'{item.name}' ({item.id}) is not in the recycle bin", "file_id")
    if item.deleted_with:
        raise Conflict(f"'{item.name}' was deleted with the folder {item.deleted_with}; restore that folder", "file_id")
    parent = ctx.state.files.get(item.parent_id) if item.parent_id else None
    if parent is not None and parent.deleted:
        raise Conflict(f"its folder '{parent.name}' ({parent.id}) is in the recycle bin; restore it first", "file_id")
    require_role(ctx, ctx.state.sites[item.site_id], "contribute", "file_id")
    other = name_holder(ctx, item.library_id, item.parent_id, item.name, skip=item.id)
    if other is not None:
        raise Conflict(
            f"'{other.name}' ({other.id}) now has its name in that folder; rename one of them first", "file_id"
        )
    back = [item, *(f for f in ctx.state.files.values() if f.deleted and f.deleted_with == item.id)]
    for f in back:
        f.deleted, f.deleted_at, f.deleted_by, f.deleted_with = False, None, "", ""
    return {**item_detail(ctx, item), "restored": [f.id for f in back]}
