"""SharePoint actions on folders: list what a library (or a folder in it) holds, create a folder."""

from __future__ import annotations

from typing import Any

from tools.apps.sharepoint._rules import (
    FORBIDDEN,
    find_folder,
    find_library,
    find_site,
    item_path,
    name_holder,
    name_taken,
    require_role,
)
from tools.apps.sharepoint._views import item_detail, item_summary
from tools.apps.sharepoint.app import app
from tools.apps.sharepoint.state import LibraryItem, SharePointState
from tools.kernel.world import Context
from tools.kits.folders import check_name
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["create_folder", "list_library"]


@app.action(read_only=True)
def list_library(
    ctx: Context[SharePointState],
    site: str,
    library: str = "Documents",
    folder: str = "",
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """List what a document library (or a folder in it) holds: folders first, then files, by name.

    Example:
        site="Finance" folder="Invoices" -> the invoice PDFs in Finance's Documents/Invoices.

    Args:
        site: The site's name (e.g. "Operations"), id or address.
        library: The library's name or id.
        folder: A folder's id, or its path inside the library such as "Vendor management"; empty for the top.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"site", "library", "folder": {"id" ("" at the top), "path"}, "results": [{"id", "name", "kind", "site",
        "library", "folder_id", "path", "mime_type", "size" (bytes), "version", "modified", "modified_by"}],
        "page", "page_size", "total", "next_page"}.
    """
    s = find_site(ctx, site)
    lib = find_library(ctx, s, library)
    parent = find_folder(ctx, lib, folder, "folder")
    pid = parent.id if parent else ""
    kids = [f for f in ctx.state.files.values() if f.library_id == lib.id and f.parent_id == pid and not f.deleted]
    kids.sort(key=lambda f: (f.kind != "folder", fold(f.name), f.id))
    head = {"id": pid, "path": item_path(ctx.state, parent) if parent else lib.name}
    return {
        "site": s.name,
        "library": lib.name,
        "folder": head,
        **page_of([item_summary(ctx, f) for f in kids], page, page_size),
    }


@app.action(read_only=False)
def create_folder(
    ctx: Context[SharePointState], site: str, name: str, folder: str = "", library: str = "Documents"
) -> dict[str, Any]:
    """Make a new folder in a document library.

    Example:
        site="Operations" name="Quotes" folder="Vendor management" -> the folder Documents/Vendor management/Quotes.

    Args:
        site: The site's name, id or address.
        name: The new folder's name; must not be taken in the parent folder.
        folder: The parent folder's id or path inside the library; empty for the top.
        library: The library's name or id.

    Returns:
        The new folder's details (as get-file).
    """
    s = find_site(ctx, site)
    lib = find_library(ctx, s, library)
    parent = find_folder(ctx, lib, folder, "folder")
    name = check_name(name, "name", FORBIDDEN)
    require_role(ctx, s, "contribute", "site")
    pid = parent.id if parent else ""
    other = name_holder(ctx, lib.id, pid, name)
    if other is not None:
        raise name_taken(other, "name")
    item = LibraryItem(
        id=ctx.new_id("folder"),
        site_id=s.id,
        library_id=lib.id,
        parent_id=pid,
        name=name,
        kind="folder",
        created=ctx.now,
        created_by=ctx.user,
        modified=ctx.now,
        modified_by=ctx.user,
    )
    ctx.state.files[item.id] = item
    return item_detail(ctx, item)
