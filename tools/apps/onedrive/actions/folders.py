"""OneDrive actions on folders: list what a folder holds, create a folder."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from tools.apps.onedrive._rules import (
    folder_ref,
    free_name,
    item_path,
    taken,
)
from tools.apps.onedrive._versions import new_item
from tools.apps.onedrive._views import detail, summary
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import FORBIDDEN, ROOT, OneDriveState
from tools.kernel.exceptions import Conflict
from tools.kernel.world import Context
from tools.kits.folders import check_name
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["create_folder", "list_children"]


@app.action(read_only=True)
def list_children(
    ctx: Context[OneDriveState],
    folder: str = "/",
    order_by: Literal["name", "modified", "size"] = "name",
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """List what a folder in your OneDrive holds.

    Sorted by name with folders first, or newest change first, or largest first.
    Items in the recycle bin are not listed.

    Example:
        folder="/Documents/Offsite 2026" -> Attendees.csv, Lakeside Lodge contract NWT-4471.pdf, ...

    Args:
        folder: The folder's id (e.g. "itm_budgets") or path (e.g. "/Documents/Budgets"); "/" is the top.
        order_by: "name" (folders first), "modified" (newest first) or "size" (largest first).
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"folder": {"id", "name", "path"}, "results": [{"id", "name", "kind", "path", "size" (bytes),
        "mime_type", "modified", "modified_by", "owner", "child_count" (folders)}], "page", "page_size",
        "total", "next_page"}.
    """
    parent = folder_ref(ctx, folder, "folder")
    pid = parent.id if parent else ROOT
    rows = [summary(ctx, i) for i in ctx.state.items.values() if i.parent_id == pid and i.deleted is None]
    if order_by == "name":
        rows.sort(key=lambda r: (r["kind"] != "folder", fold(r["name"]), r["id"]))
    elif order_by == "modified":
        rows.sort(key=lambda r: (-datetime.fromisoformat(r["modified"]).timestamp(), r["id"]))
    else:
        rows.sort(key=lambda r: (-r["size"], fold(r["name"])))
    head = {
        "id": pid,
        "name": parent.name if parent else "My files",
        "path": item_path(ctx.state, parent) if parent else "/",
    }
    return {"folder": head, **page_of(rows, page, page_size)}


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
