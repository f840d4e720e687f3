"""Box actions on folders: list what a folder holds, create a folder."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.box._rules import (
    check_free,
    check_name,
    children,
    find_folder,
    owner_for,
    path_of,
    require,
    role_of,
)
from tools.apps.box._views import detail, summary
from tools.apps.box.app import app
from tools.apps.box.state import ROOT, ROOT_NAME, BoxFile, BoxState, Folder
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import LongText, fold

__all__ = ["create_folder", "list_folder"]


@app.action(read_only=True)
def list_folder(
    ctx: Context[BoxState],
    folder_id: str = ROOT,
    sort: Literal["name", "date", "size"] = "name",
    direction: Literal["asc", "desc"] = "asc",
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """List what a folder holds: subfolders first, then files. Items in the trash are not shown.

    Example:
        folder_id="folder_contracts_contoso" -> the Contoso contract folder: the renewal agreement (.docx, .pdf), ...

    Args:
        folder_id: The folder's id; "0" is the top (All Files).
        sort: Order within folders and within files: by name, by date modified, or by size.
        direction: "asc" (A-Z, oldest or smallest first) or "desc".
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"folder": {"id", "name", "path"}, "results": [{"id", "type", "name", "parent_id", "owner", "modified",
        "shared_link_access", and for files "size", "extension", "version_number", "modified_by"}],
        "page", "page_size", "total", "next_page"}.
    """
    folder = find_folder(ctx, folder_id)
    require(ctx, folder, "list", "folder_id")
    fid = folder.id if folder else ROOT
    kids = [k for k in children(ctx.state, fid) if not k.trashed and role_of(ctx, k) is not None]
    keys = {
        "name": lambda i: (fold(i.name), i.id),
        "date": lambda i: (i.modified, fold(i.name)),
        "size": lambda i: (i.size if isinstance(i, BoxFile) else 0, fold(i.name)),
    }
    kids.sort(key=keys[sort], reverse=direction == "desc")
    kids.sort(key=lambda i: isinstance(i, BoxFile))  # stable: folders first, each group in the asked order
    head = {
        "id": fid,
        "name": folder.name if folder else ROOT_NAME,
        "path": path_of(ctx.state, folder) if folder else "/",
    }
    return {"folder": head, **page_of([summary(ctx, k) for k in kids], page, page_size)}


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
