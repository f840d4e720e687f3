"""Box actions on files and folders as items: show, search, download, upload, move, copy and rename."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import Field

from tools.apps.box._rules import (
    add_version,
    ancestors,
    check_free,
    check_name,
    copy_file,
    copy_folder,
    descendants,
    destination,
    find_file,
    find_folder,
    find_item,
    in_trash,
    kind_of,
    owner_for,
    read_upload,
    require,
    role_of,
    search_terms,
    snippet,
    suffix,
    text_of,
    version_span,
    versions_of,
)
from tools.apps.box._views import detail, search_hit
from tools.apps.box.app import app
from tools.apps.box.state import ROOT, BoxFile, BoxState, Folder, Item
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context
from tools.kits.files import deliver_file, refuse_folder_path
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import FileText, LongText, SearchText, fold

__all__ = ["copy_item", "download_file", "get_item", "move_item", "rename_item", "search", "upload_file"]


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


@app.action(read_only=True)
def download_file(
    ctx: Context[BoxState], file_id: str, version: Annotated[int, Field(ge=0, le=1000)] = 0, save_as: str = ""
) -> dict[str, Any]:
    """Download a file (its current version, or an older one).

    With a workspace the file is saved there (under downloads/ unless save_as says where) and
    only its path is returned; without one, text files are returned inline.

    Example:
        file_id="file_ct2291_agreement_docx" version=2 save_as="contracts/CT-2291 v2.docx"

    Args:
        file_id: The id of the file.
        version: Version number to download (see box list-versions); 0 means the current version.
        save_as: Workspace path to save the file to; default downloads/<file name>.

    Returns:
        {"id", "name", "version_number", "mime_type", "size" (bytes), and "saved_to" (path) or "content" (text)}.
    """
    f = find_file(ctx, file_id)
    require(ctx, f, "download", "file_id")
    number = version or f.version_number
    chosen = next((v for v in versions_of(ctx, f) if v.number == number), None)
    if chosen is None:
        raise NotFound(f"'{f.name}' has {version_span(f)}; see box list-versions", "version")
    got = deliver_file(ctx, f.name, ctx.blobs.get(chosen.blob), save_as)
    return {"id": f.id, "name": f.name, "version_number": number, "mime_type": f.mime_type, **got}


@app.action(read_only=False)
def upload_file(
    ctx: Context[BoxState],
    folder_id: str = ROOT,
    name: str = "",
    content: FileText = "",
    path: str = "",
    description: LongText = "",
) -> dict[str, Any]:
    """Upload a new file: a file from your workspace (any kind), or text you give (.txt, .md, .csv only).

    The name must be new in the folder; to replace an existing file's content, upload a new
    version of it with box upload-version instead.

    Example:
        folder_id="folder_invoices_2026_03" path="downloads/INV-20480.pdf" -> the new file's details.

    Args:
        folder_id: Id of the folder to upload into; "0" for the top (All Files).
        name: The file's name with its extension; default: the file name of path.
        content: The text of a text file. Do not paste encoded bytes here; use path.
        path: Path of a workspace file to upload (any kind: .docx, .xlsx, .pdf, .png, .csv, ...).
        description: A short description shown with the file.

    Returns:
        The new file's details (as box get-item).
    """
    folder = find_folder(ctx, folder_id)
    refuse_folder_path(path)
    if not name.strip() and not path.strip():
        raise InvalidArgument("give the file's name (and its text in content, or a workspace file in path)", "name")
    fname = check_name(name or (PurePosixPath(path.strip()).name if path.strip() else ""), "name")
    require(ctx, folder, "upload", "folder_id")
    parent = folder.id if folder else ROOT
    check_free(ctx, parent, fname, "name")
    data = read_upload(ctx, fname, content, path)
    blob = ctx.blobs.put(data)
    f = BoxFile(
        id=ctx.new_id("file"),
        name=fname,
        parent_id=parent,
        owner=owner_for(ctx, folder),
        created_by=ctx.user,
        created=ctx.now,
        modified=ctx.now,
        modified_by=ctx.user,
        description=description.strip(),
        mime_type=mime_type_for(fname),
        size=len(data),
        blob=blob,
    )
    ctx.state.files[f.id] = f
    add_version(ctx, f, 1)
    return detail(ctx, f)


@app.action(read_only=False)
def move_item(ctx: Context[BoxState], item_id: str, folder_id: str) -> dict[str, Any]:
    """Move a file or a folder (with everything inside it) into another folder.

    Example:
        item_id="file_inv_20463" folder_id="folder_invoices_2026_03" -> its details with the new path.

    Args:
        item_id: The id of the file or folder to move.
        folder_id: Id of the destination folder; "0" for the top (All Files).

    Returns:
        The item's details (as box get-item) after the move.
    """
    item = find_item(ctx, item_id)
    dest = destination(ctx, folder_id, "folder_id")
    require(ctx, item, "edit", "item_id")
    dest_id = dest.id if dest else ROOT
    if dest is not None and (dest.id == item.id or item.id in {a.id for a in ancestors(ctx.state, dest)}):
        raise InvalidArgument(
            f"'{dest.name}' is '{item.name}' itself or inside it; pick a folder outside it", "folder_id"
        )
    if dest_id == item.parent_id:
        raise Conflict(f"'{item.name}' is already in that folder", "folder_id")
    check_free(ctx, dest_id, item.name, "folder_id", skip=item.id)
    item.parent_id = dest_id
    item.modified = ctx.now
    return detail(ctx, item)


@app.action(read_only=False)
def copy_item(ctx: Context[BoxState], item_id: str, folder_id: str, new_name: str = "") -> dict[str, Any]:
    """Copy a file (its current version) or a folder (with its contents) into a folder.

    Collaborators, shared links and comments are not copied. A copy into the same folder
    needs a new name.

    Example:
        item_id="file_mutual_nda_template" folder_id="folder_partners_lakeside" -> the copy's details.

    Args:
        item_id: The id of the file or folder to copy.
        folder_id: Id of the destination folder; "0" for the top (All Files).
        new_name: Name for the copy; default: the same name.

    Returns:
        The copy's details (as box get-item).
    """
    item = find_item(ctx, item_id)
    dest = destination(ctx, folder_id, "folder_id")
    require(ctx, item, "download", "item_id")
    name = check_name(new_name, "new_name") if new_name.strip() else item.name
    dest_id = dest.id if dest else ROOT
    if (
        isinstance(item, Folder)
        and dest is not None
        and (dest.id == item.id or item.id in {a.id for a in ancestors(ctx.state, dest)})
    ):
        raise InvalidArgument(
            f"'{dest.name}' is inside '{item.name}'; a folder cannot be copied into itself", "folder_id"
        )
    check_free(ctx, dest_id, name, "new_name" if new_name.strip() else "folder_id")
    owner = owner_for(ctx, dest)
    twin = (
        copy_folder(ctx, item, dest_id, owner, name)
        if isinstance(item, Folder)
        else copy_file(ctx, item, dest_id, owner, name)
    )
    return detail(ctx, twin)


@app.action(read_only=False)
def rename_item(ctx: Context[BoxState], item_id: str, new_name: str) -> dict[str, Any]:
    """Rename a file or folder; it stays where it is. A file keeps its extension.

    Example:
        item_id="file_payment_run_2026_03_06" new_name="Payment run 2026-03-06 (final).csv"

    Args:
        item_id: The id of the file or folder.
        new_name: The new name; must not already be used in the same folder.

    Returns:
        The item's details (as box get-item) after renaming.
    """
    item = find_item(ctx, item_id)
    name = check_name(new_name, "new_name")
    if isinstance(item, BoxFile) and suffix(item.name) and suffix(name) != suffix(item.name):
        raise InvalidArgument(
            f"keep the extension {suffix(item.name)}; a new extension does not convert the file", "new_name"
        )
    require(ctx, item, "edit", "item_id")
    if name == item.name:
        raise Conflict(f"'{item.name}' already has that name", "new_name")
    check_free(ctx, item.parent_id, name, "new_name", skip=item.id)
    item.name = name
    item.modified = ctx.now
    return detail(ctx, item)
