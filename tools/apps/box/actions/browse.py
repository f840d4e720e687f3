"""Box actions for finding things: list a folder, show an item, search names and document text."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.box._rules import (
    children,
    descendants,
    find_folder,
    find_item,
    in_trash,
    kind_of,
    path_of,
    require,
    role_of,
    search_terms,
    snippet,
    suffix,
    text_of,
)
from tools.apps.box._views import detail, search_hit, summary
from tools.apps.box.app import app
from tools.apps.box.state import ROOT, ROOT_NAME, BoxFile, BoxState, Folder, Item
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["get_item", "list_folder", "search"]


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


@app.action(read_only=True)
def get_item(ctx: Context[BoxState], item_id: str) -> dict[str, Any]:
    """Show a file's or folder's details: its path, owner, your role, its shared link and counts.

    Example:
        item_id="file_inv_20417" -> path "/Finance/Vendor invoices/2026-02/INV-20417 Fabrikam Logistics.pdf", ...

    Args:
        item_id: The id of the file or folder (from box search or box list-folder).

    Returns:
        The item's summary (as list-folder) plus "path", "path_collection" ([{"id", "name"}] from All Files down),
        "description", "created", "created_by", "your_role", "shared_link" (null or {"url", "access",
        "password_protected", "expires", "can_download", ...}); files add "mime_type", "versions" and "comments"
        counts; folders add "size", "item_count" and "collaborators".
    """
    return detail(ctx, find_item(ctx, item_id))


@app.action(read_only=True)
def search(
    ctx: Context[BoxState],
    query: SearchText = "",
    file_extensions: list[str] = [],  # noqa: B006 - never mutated
    item_type: Literal["", "file", "folder"] = "",
    folder_id: str = "",
    owner: str = "",
    search_in: Literal["all", "name", "content"] = "all",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    r"""Search files and folders by name, description and the text inside documents (Word, Excel, PDF, text).

    Every word of the query must appear (case-insensitive); put a phrase in double quotes to
    match it exactly. Items whose name matches come first, then the most recently modified.
    Items in the trash are not searched.

    Example:
        query="Fabrikam 12,480" file_extensions=["pdf"] -> the INV-20417 invoice PDF, with a snippet of its text.

    Args:
        query: Words or "quoted phrases" to find, e.g. "CT-2291 renewal" or "\\"liability cap\\"".
        file_extensions: Only files with these extensions, e.g. ["pdf", "docx"].
        item_type: "file" or "folder" to return only that type.
        folder_id: Search only inside this folder, at any depth.
        owner: Only items owned by this email address (part of it is fine).
        search_in: "name" (names and descriptions only), "content" (document text only) or "all".
        page: Page number, starting at 1.
        page_size: Results per page.

    Returns:
        {"results": [item summary plus "path", "matched_in" (["name"] and/or ["content"]) and "snippet"],
        "page", "page_size", "total", "next_page"}.
    """
    scope = find_folder(ctx, folder_id)
    if scope is not None:
        require(ctx, scope, "list", "folder_id")
    inside = {i.id for i in descendants(ctx.state, scope.id)} if scope else None
    terms = search_terms(query)
    exts = {"." + e.strip().lower().lstrip(".") for e in file_extensions if e.strip()}
    who = fold(owner)
    hits: list[tuple[bool, Item, list[str], str]] = []
    items: list[Item] = [*ctx.state.folders.values(), *ctx.state.files.values()]
    for item in items:
        if inside is not None and item.id not in inside:
            continue
        if (item_type and kind_of(item) != item_type) or (
            exts and (isinstance(item, Folder) or suffix(item.name) not in exts)
        ):
            continue
        if who and who not in fold(item.owner):
            continue
        role = role_of(ctx, item)
        if role is None or in_trash(ctx.state, item) or (isinstance(item, BoxFile) and role == "uploader"):
            continue
        name_text = fold(item.name) + "\n" + fold(item.description)
        body = text_of(ctx, item) if isinstance(item, BoxFile) and search_in != "name" else ""
        haystack = {"all": name_text + "\n" + body, "name": name_text, "content": body}[search_in]
        if not all(t in haystack for t in terms):
            continue
        by_name = bool(terms) and search_in != "content" and all(t in name_text for t in terms)
        by_content = bool(terms) and bool(body) and any(t in body for t in terms)
        matched = (["name"] if by_name else []) + (["content"] if by_content else [])
        hits.append((by_name, item, matched, body if by_content else ""))
    hits.sort(key=lambda h: (not h[0], -h[1].modified.timestamp(), fold(h[1].name)))

    def view(hit: tuple[bool, Item, list[str], str]) -> dict[str, Any]:  # snippets for the page shown only
        _, item, matched, body = hit
        found = next((s for s in (snippet(body, t) for t in terms) if s), "") if body else ""
        return search_hit(ctx, item, matched, found)

    return page_of(hits, page, page_size, view=view)
