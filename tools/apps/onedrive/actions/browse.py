"""OneDrive actions for browsing and reading: list a folder, show an item, search, recent files, download."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.apps.onedrive._rules import descendants_of, folder_ref, item_path, resolve, resolve_file, role_of, text_of
from tools.apps.onedrive._views import detail, snippet, summary
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import ROOT, OneDriveState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context
from tools.kits.files import INLINE_LIMIT, deliver_file
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["download_file", "get_item", "list_children", "list_recent", "search_items"]


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


@app.action(read_only=True)
def get_item(ctx: Context[OneDriveState], item: str) -> dict[str, Any]:
    """Show a file's or folder's details: where it is, its size, who made and changed it, your access.

    Example:
        item="/Documents/Budgets/Q1 budget.xlsx" -> id itm_q1_budget, size, created_by, version 3, shared.

    Args:
        item: The item's id (e.g. "itm_q1_budget") or path (e.g. "/Documents/Budgets/Q1 budget.xlsx").

    Returns:
        {"id", "name", "kind", "path" (null for items shared with you), "size" (bytes), "mime_type",
        "modified", "modified_by", "owner", "parent_id", "created", "created_by", "your_access"
        (owner, write or read), "shared_with_me", "shared", "active_links", "version" (current number)}.
    """
    return detail(ctx, resolve(ctx, item, "item"))


@app.action(read_only=True)
def search_items(
    ctx: Context[OneDriveState],
    query: SearchText,
    folder: str = "",
    file_type: str = "",
    include_shared: bool = True,
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Find files and folders by words in their name or in the text of the document.

    Every word must appear in the name or the document's text (Word, Excel, PDF, CSV and text
    files are searched inside). Name matches come first, then the newest change.

    Example:
        query="NWT-4471" -> the Lakeside Lodge contract (the booking number is in the PDF's text).

    Args:
        query: Words to find, e.g. "contoso pricing".
        folder: Search only inside this folder (id or path), at any depth; empty for everything.
        file_type: Only files with this extension, e.g. "xlsx" or ".pdf"; "folder" for folders only.
        include_shared: Also search the files other people shared with you.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [{... as list-children, "shared_with_me", "matched_in": ["name"/"text"], "snippet"}],
        "page", "page_size", "total", "next_page"}.
    """
    words = fold(query).split()
    if not words:
        raise InvalidArgument("give words to search for; use onedrive list-children to browse a folder", "query")
    scope = folder_ref(ctx, folder, "folder")
    inside = {i.id for i in descendants_of(ctx.state, scope.id)} if scope else None
    kind = fold(file_type).lstrip(".")
    hits: list[tuple[int, float, str, dict[str, Any]]] = []
    for it in ctx.state.items.values():
        if it.deleted is not None or role_of(ctx.state, it, ctx.user) is None:
            continue
        if (inside is not None and it.id not in inside) or (not include_shared and it.parent_id == ""):
            continue
        if kind and (it.kind != "folder" if kind == "folder" else PurePosixPath(it.name).suffix.lower() != f".{kind}"):
            continue
        name, text = fold(it.name), text_of(ctx, it)
        folded = fold(text)
        if not all(w in name or w in folded for w in words):
            continue
        row = summary(ctx, it)
        in_name = all(w in name for w in words)
        row.update(
            shared_with_me=it.parent_id == "",
            matched_in=[
                p
                for p, ok in (("name", any(w in name for w in words)), ("text", any(w in folded for w in words)))
                if ok
            ],
            snippet=snippet(text, words),
        )
        hits.append((0 if in_name else 1, -it.modified.timestamp(), it.id, row))
    hits.sort(key=lambda h: h[:3])
    return page_of([h[3] for h in hits], page, page_size)


@app.action(read_only=True)
def list_recent(
    ctx: Context[OneDriveState],
    days: Annotated[int, Field(ge=1, le=365)] = 30,
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """List the files changed recently, yours and those shared with you, newest first.

    Example:
        days=7 -> files changed since last Monday, e.g. Offsite seating.xlsx (shared by Ruby).

    Args:
        days: How many days back to look.
        page: Page number, starting at 1.
        page_size: Files per page.

    Returns:
        {"results": [{... as list-children, "shared_with_me"}], "page", "page_size", "total", "next_page"}.
    """
    since = ctx.now - timedelta(days=days)
    files = [
        i
        for i in ctx.state.items.values()
        if i.kind == "file" and i.deleted is None and i.modified >= since and role_of(ctx.state, i, ctx.user)
    ]
    files.sort(key=lambda i: (-i.modified.timestamp(), i.id))
    rows = [{**summary(ctx, i), "shared_with_me": i.parent_id == ""} for i in files]
    return page_of(rows, page, page_size)


@app.action(read_only=True)
def download_file(ctx: Context[OneDriveState], item: str, save_as: str = "", as_text: bool = False) -> dict[str, Any]:
    """Download a file, or read the text of a document.

    With a workspace the file is saved there (under downloads/ unless save_as names a path) and
    you get its path; without one, text files come back inline. as_text=true returns the text of a
    Word, Excel, PDF or text file directly instead of the file.

    Example:
        item="itm_shared_q1_forecast" save_as="work/Q1 forecast.xlsx" -> {"saved_to": "work/Q1 forecast.xlsx"}.

    Args:
        item: The file's id or path.
        save_as: Workspace path to save the file to; default downloads/<file name>.
        as_text: Return the document's text (spreadsheets as tab-separated rows) instead of the file.

    Returns:
        {"id", "name", "mime_type", "size" (bytes), and "saved_to" (workspace path) or "content" (text);
        with as_text: "text" and "truncated"}.
    """
    f = resolve_file(ctx, item)
    head = {"id": f.id, "name": f.name, "mime_type": f.mime_type}
    if as_text:
        if save_as.strip():
            raise InvalidArgument("as_text returns the text directly; leave save_as empty or drop as_text", "save_as")
        text = text_of(ctx, f)
        if not text:
            raise InvalidArgument(f"'{f.name}' has no text to show (an image or an empty file)", "as_text")
        return {**head, "size": f.size, "text": text[:INLINE_LIMIT], "truncated": len(text) > INLINE_LIMIT}
    data = ctx.blobs.get(f.blob)
    if ctx.files is None:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidArgument(
                f"'{f.name}' is not a text file and there is no workspace to save it in; "
                "pass as_text=true to read its text instead",
                "item",
            ) from None
    return {**head, **deliver_file(ctx, f.name, data, save_as)}
