"""Drive actions on folders: list what a folder or a shared drive holds, create a folder."""

from __future__ import annotations

from typing import Any

from tools.apps.drive._rules import (
    access,
    check_free,
    check_name,
    new_item,
    place,
    require_write,
)
from tools.apps.drive._views import detail, summary
from tools.apps.drive.app import app
from tools.apps.drive.state import ROOT, DriveState
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["create_folder", "list_folder"]


@app.action(read_only=True)
def list_folder(
    ctx: Context[DriveState], folder_id: str = ROOT, page: Page = 1, page_size: PageSize = 50
) -> dict[str, Any]:
    """List what a folder or a shared drive holds: subfolders first, then files, each group by name.

    Items in the trash are not listed. Give a shared drive's id (from list-shared-drives) to
    see the top of that shared drive.

    Example:
        folder_id="sd_atlas_program" -> the top of the Atlas Program shared drive.

    Args:
        folder_id: The folder's id, a shared drive's id, or "root" for the top of My Drive.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"folder": {"id", "name", "path", "shared_drive_id"}, "results": [item summary], "page", "page_size",
        "total", "next_page"}.
    """
    where = place(ctx, folder_id, "folder_id")
    kids = [
        f
        for f in ctx.state.files.values()
        if f.parent_id == where.id and not f.trashed and access(ctx.state, f, ctx.user) is not None
    ]
    kids.sort(key=lambda f: (f.kind != "folder", fold(f.name), f.id))
    out = page_of([summary(ctx, f) for f in kids], page, page_size)
    head = {"id": where.id, "name": where.name, "path": where.path, "shared_drive_id": where.drive_id or None}
    return {"folder": head, **out}


@app.action(read_only=False)
def create_folder(ctx: Context[DriveState], name: str, parent_id: str = ROOT) -> dict[str, Any]:
    """Make a new folder in My Drive, in a folder, or at the top of a shared drive.

    Example:
        name="Vendor quotes" parent_id="fld_operations" -> the new folder with its id and path.

    Args:
        name: The folder's name (no slashes); must not already be used in the parent folder.
        parent_id: Id of the folder or shared drive to create it in; "root" for the top of My Drive.

    Returns:
        The new folder's details (as get-file).
    """
    name = check_name(name, "name")
    where = place(ctx, parent_id, "parent_id")
    require_write(ctx, where, "parent_id")
    check_free(ctx, where.id, name, "name")
    f = new_item(ctx, name, where)
    ctx.state.files[f.id] = f
    return detail(ctx, f)
