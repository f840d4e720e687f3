"""OneDrive actions on files and folders: show, search, recent files, download, upload, copy, move, rename."""

from __future__ import annotations

from datetime import timedelta
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.apps.onedrive._rules import (
    ancestors_of,
    descendants_of,
    folder_ref,
    free_name,
    item_path,
    require_edit,
    require_own,
    resolve,
    resolve_file,
    role_of,
    taken,
    text_of,
    upload_bytes,
)
from tools.apps.onedrive._versions import copy_of, new_item, save_version
from tools.apps.onedrive._views import detail, snippet, summary
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import FORBIDDEN, ROOT, OneDriveState
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.files import INLINE_LIMIT, deliver_file, refuse_folder_path
from tools.kits.folders import check_name
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import FileText, SearchText, fold

__all__ = [
    "copy_item",
    "download_file",
    "get_item",
    "list_recent",
    "move_item",
    "rename_item",
    "search_items",
    "upload_file",
]


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


@app.action(read_only=False)
def upload_file(
    ctx: Context[OneDriveState],
    name: str = "",
    folder: str = "/",
    content: FileText = "",
    path: str = "",
    conflict_behavior: Literal["fail", "replace", "rename"] = "fail",
    item_id: str = "",
) -> dict[str, Any]:
    """Upload a file from your workspace (or text you give) into OneDrive.

    Give exactly one of path (a workspace file: any kind, e.g. .xlsx or .pdf) and content (plain
    text, for .txt, .md or .csv files). To save a new version of an existing file, give its
    item_id instead of name and folder; replacing keeps the old version in the history.

    Example:
        path="downloads/itinerary.txt" folder="/Documents/Travel" name="Chicago itinerary.txt"

    Args:
        name: The file's name with its extension; default the workspace file's name.
        folder: Id or path of the folder to put it in; "/" is the top of your OneDrive.
        content: The file's text (never base64: for other files save them in the workspace and pass path).
        path: Path of the workspace file to upload.
        conflict_behavior: When the folder already has that name: "fail" (error), "replace" (new version of
            that file) or "rename" (adds a number, e.g. "notes 1.txt").
        item_id: Id or path of an existing file to save a new version of (then leave name and folder empty).

    Returns:
        The file's details (as get-item), with "version" the number just saved.
    """
    if item_id.strip():
        if name.strip() or folder.strip() not in ("", "/", ROOT):
            raise InvalidArgument("give item_id alone, or name and folder for a new file, not both", "item_id")
        target = resolve_file(ctx, item_id, "item_id")
        require_edit(ctx, target, "item_id")
        save_version(ctx, target, upload_bytes(ctx, target.name, content, path))
        return detail(ctx, target)
    parent = folder_ref(ctx, folder, "folder")
    pid = parent.id if parent else ROOT
    refuse_folder_path(path)
    if not name.strip() and path.strip():
        name = PurePosixPath(path.strip()).name
    name = check_name(name, "name", FORBIDDEN)
    clash = taken(ctx.state, pid, name)
    if clash is not None and conflict_behavior == "fail":
        raise Conflict(
            f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pass conflict_behavior=\"replace\" "
            'to save a new version of it, or "rename" to keep both',
            "name",
        )
    if clash is not None and conflict_behavior == "replace":
        if clash.kind == "folder":
            raise Conflict(f"'{clash.name}' is a folder and cannot be replaced by a file; pick another name", "name")
        save_version(ctx, clash, upload_bytes(ctx, name, content, path))
        return detail(ctx, clash)
    data = upload_bytes(ctx, name, content, path)
    if clash is not None:
        name = free_name(ctx.state, pid, name)
    new = new_item(ctx, name, pid, data)
    ctx.state.items[new.id] = new
    return detail(ctx, new)


@app.action(read_only=False)
def copy_item(
    ctx: Context[OneDriveState],
    item: str,
    destination: str = "/",
    new_name: str = "",
    conflict_behavior: Literal["fail", "rename"] = "fail",
) -> dict[str, Any]:
    """Copy a file or folder (with everything inside) into a folder of your OneDrive.

    Works for files shared with you too, read-only ones included. The copy is yours and is not
    shared with anyone.

    Example:
        item="itm_shared_q1_forecast" destination="/Documents/Budgets" -> your own copy of Priya's forecast.

    Args:
        item: Id or path of the file or folder to copy.
        destination: Id or path of the folder to copy into; "/" is the top of your OneDrive.
        new_name: Name for the copy; default the original's name.
        conflict_behavior: When the name is taken there: "fail" (error) or "rename" (adds a number).

    Returns:
        The copy's details (as get-item), plus "copied" (how many items were created).
    """
    src = resolve(ctx, item, "item")
    dest = folder_ref(ctx, destination, "destination")
    name = check_name(new_name, "new_name", FORBIDDEN) if new_name.strip() else src.name
    if dest is not None and (dest.id == src.id or src.id in {a.id for a in ancestors_of(ctx.state, dest)}):
        raise InvalidArgument(f"'{dest.name}' is '{src.name}' itself or inside it; pick another folder", "destination")
    pid = dest.id if dest else ROOT
    clash = taken(ctx.state, pid, name)
    if clash is not None:
        if conflict_behavior == "fail":
            raise Conflict(
                f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pass new_name, "
                'or conflict_behavior="rename"',
                "new_name",
            )
        name = free_name(ctx.state, pid, name)
    inside = [d for d in descendants_of(ctx.state, src.id) if d.deleted is None] if src.kind == "folder" else []
    top = copy_of(ctx, src, name, pid)
    made = {src.id: top.id}
    clones = [top]
    for child in sorted(inside, key=lambda d: len(ancestors_of(ctx.state, d))):
        clone = copy_of(ctx, child, child.name, made[child.parent_id])
        made[child.id] = clone.id
        clones.append(clone)
    for clone in clones:
        ctx.state.items[clone.id] = clone
    return {**detail(ctx, top), "copied": len(clones)}


@app.action(read_only=False)
def move_item(ctx: Context[OneDriveState], item: str, destination: str) -> dict[str, Any]:
    """Move a file or folder (with everything inside) to another folder of your OneDrive.

    Example:
        item="/Pictures/Screenshots/INC-3021 checkout error.png" destination="/Documents" -> its new path.

    Args:
        item: Id or path of the file or folder to move.
        destination: Id or path of the folder to move it into; "/" is the top of your OneDrive.

    Returns:
        The item's details (as get-item) after the move.
    """
    it = resolve(ctx, item, "item")
    require_own(it, "item", "move")
    dest = folder_ref(ctx, destination, "destination")
    if dest is not None and (dest.id == it.id or it.id in {a.id for a in ancestors_of(ctx.state, dest)}):
        raise InvalidArgument(f"'{dest.name}' is '{it.name}' itself or inside it; pick another folder", "destination")
    pid = dest.id if dest else ROOT
    if pid == it.parent_id:
        return detail(ctx, it)
    clash = taken(ctx.state, pid, it.name, skip=it.id)
    if clash is not None:
        raise Conflict(
            f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); rename one of them first", "destination"
        )
    it.parent_id = pid
    return detail(ctx, it)


@app.action(read_only=False)
def rename_item(ctx: Context[OneDriveState], item: str, new_name: str) -> dict[str, Any]:
    r"""Give a file or folder a new name; it stays where it is.

    Example:
        item="itm_q2_budget_draft" new_name="Q2 budget.xlsx" -> its details with the new name.

    Args:
        item: Id or path of the file or folder.
        new_name: The new name, with the extension for files (no / \\ : * ? " < > |).

    Returns:
        The item's details (as get-item) after renaming.
    """
    it = resolve(ctx, item, "item")
    name = check_name(new_name, "new_name", FORBIDDEN)
    require_edit(ctx, it, "item")
    if name == it.name:
        return detail(ctx, it)
    clash = taken(ctx.state, it.parent_id, name, skip=it.id) if it.parent_id else None
    if clash is not None:
        raise Conflict(f"'{item_path(ctx.state, clash)}' already exists ({clash.id}); pick another name", "new_name")
    it.name, it.modified, it.modified_by = name, ctx.now, ctx.user
    if it.kind == "file":
        it.mime_type = mime_type_for(name)
    return detail(ctx, it)
