"""Box: the company's file store for contracts, invoices and partner files.

Browsing, search over names and document text, downloads, uploads and versions live here;
folders, moving, copying and the trash in :mod:`tools.box_items`; collaborations, shared links
and comments in :mod:`tools.box_sharing`; records, access rules and views in :mod:`tools.box_model`.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import Field

from tools import box_model
from tools.box_model import (
    BINARY_KINDS,
    ROOT,
    ROOT_NAME,
    BoxFile,
    BoxState,
    FileVersion,
    Folder,
    Item,
    add_version,
    app,
    check_free,
    check_kind,
    check_name,
    children,
    descendants,
    detail,
    get_file,
    get_folder,
    in_trash,
    kind_of,
    owner_for,
    path_of,
    refuse_encoded,
    require,
    role_of,
    suffix,
    summary,
    text_of,
)
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.files import deliver_file, receive_file
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import fold

__all__ = ["BoxState", "app"]

Ctx = Context[BoxState]
VersionNumber = Annotated[int, Field(ge=1, le=1000)]


# ---- browsing -------------------------------------------------------------------------------------


@app.action(read_only=True)
def list_folder(
    ctx: Ctx,
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
    folder = get_folder(ctx, folder_id)
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
def get_item(ctx: Ctx, item_id: str) -> dict[str, Any]:
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
    return detail(ctx, _item(ctx, item_id))


def _item(ctx: Ctx, item_id: str, parameter: str = "item_id", trashed_ok: bool = False) -> Item:
    return box_model.get_item(ctx, item_id, parameter, trashed_ok)


_TERM_RE = re.compile(r'"([^"]+)"|(\S+)')


def _snippet(text: str, term: str) -> str:
    at = text.find(term)
    if at < 0:
        return ""
    start = max(0, at - 60)
    return ("..." if start else "") + text[start : at + len(term) + 80].strip() + "..."


@app.action(read_only=True)
def search(
    ctx: Ctx,
    query: str = "",
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
    scope = get_folder(ctx, folder_id)
    if scope is not None:
        require(ctx, scope, "list", "folder_id")
    inside = {i.id for i in descendants(ctx.state, scope.id)} if scope else None
    terms = [fold(a or b) for a, b in _TERM_RE.findall(query)]
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
        snippet = next((s for s in (_snippet(body, t) for t in terms) if s), "") if by_content else ""
        hits.append((by_name, item, matched, snippet))
    hits.sort(key=lambda h: (not h[0], -h[1].modified.timestamp(), fold(h[1].name)))
    rows = [
        {**summary(ctx, it), "path": path_of(ctx.state, it), "matched_in": matched, "snippet": snippet}
        for _, it, matched, snippet in hits
    ]
    return page_of(rows, page, page_size)


# ---- files and versions ---------------------------------------------------------------------------


def _numbers(f: BoxFile) -> str:
    return "only version 1" if f.version_number == 1 else f"versions 1 to {f.version_number}"


def _versions(ctx: Ctx, f: BoxFile) -> list[FileVersion]:
    return sorted((v for v in ctx.state.versions.values() if v.file_id == f.id), key=lambda v: v.number)


@app.action(read_only=True)
def download_file(
    ctx: Ctx, file_id: str, version: Annotated[int, Field(ge=0, le=1000)] = 0, save_as: str = ""
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
    f = get_file(ctx, file_id)
    require(ctx, f, "download", "file_id")
    number = version or f.version_number
    chosen = next((v for v in _versions(ctx, f) if v.number == number), None)
    if chosen is None:
        raise NotFound(f"'{f.name}' has {_numbers(f)}; see box list-versions", "version")
    got = deliver_file(ctx, f.name, ctx.blobs.get(chosen.blob), save_as)
    return {"id": f.id, "name": f.name, "version_number": number, "mime_type": f.mime_type, **got}


@app.action(read_only=True)
def list_versions(ctx: Ctx, file_id: str) -> dict[str, Any]:
    """List a file's versions, newest first, with who uploaded each and when.

    Example:
        file_id="file_ct2291_agreement_docx" -> versions 3 (current, Hannah Wood), 2 and 1 (Maya Young).

    Args:
        file_id: The id of the file.

    Returns:
        {"id", "name", "current_version": n, "versions": [{"id", "number", "current", "size", "uploaded_by",
        "uploaded_at", "promoted_from" (the older number it restored, or null)}]}.
    """
    f = get_file(ctx, file_id)
    require(ctx, f, "download", "file_id")
    rows = [
        {
            "id": v.id,
            "number": v.number,
            "current": v.number == f.version_number,
            "size": v.size,
            "uploaded_by": v.uploaded_by,
            "uploaded_at": format_instant(v.uploaded_at, ctx.tz),
            "promoted_from": v.promoted_from,
        }
        for v in reversed(_versions(ctx, f))
    ]
    return {"id": f.id, "name": f.name, "current_version": f.version_number, "versions": rows}


def _read_upload(ctx: Ctx, name: str, content: str, path: str) -> bytes:
    refuse_encoded(content, "content")
    if content and suffix(name) in BINARY_KINDS:
        raise InvalidArgument(
            f"'{name}' is a {suffix(name)} document, which cannot be made from text; save the file in your "
            "workspace and pass path=<its path> instead",
            "content",
        )
    data = receive_file(ctx, content, path)
    check_kind(data, name, "path")
    return data


@app.action(read_only=False)
def upload_file(
    ctx: Ctx, folder_id: str = ROOT, name: str = "", content: str = "", path: str = "", description: str = ""
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
    folder = get_folder(ctx, folder_id)
    if not name.strip() and not path.strip():
        raise InvalidArgument("give the file's name (and its text in content, or a workspace file in path)", "name")
    fname = check_name(name or (PurePosixPath(path.strip()).name if path.strip() else ""), "name")
    require(ctx, folder, "upload", "folder_id")
    parent = folder.id if folder else ROOT
    check_free(ctx, parent, fname, "name")
    data = _read_upload(ctx, fname, content, path)
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
def upload_version(ctx: Ctx, file_id: str, content: str = "", path: str = "") -> dict[str, Any]:
    """Upload a new version of an existing file; older versions stay in its history.

    Example:
        file_id="file_nda_guidance" path="drafts/NDA template guidance.md" -> the file at its next version number.

    Args:
        file_id: The id of the file to update.
        content: The new text of a text file (.txt, .md, .csv). Do not paste encoded bytes here; use path.
        path: Path of a workspace file holding the new version (it must be the same kind, e.g. .docx).

    Returns:
        The file's details (as box get-item) with the new "version_number".
    """
    f = get_file(ctx, file_id)
    require(ctx, f, "upload", "file_id")
    data = _read_upload(ctx, f.name, content, path)
    blob = ctx.blobs.put(data)
    if blob == f.blob:
        raise Conflict(
            f"the content is the same as the current version {f.version_number} of '{f.name}'; nothing to upload",
            "path" if path else "content",
        )
    f.blob, f.size, f.modified, f.modified_by = blob, len(data), ctx.now, ctx.user
    f.version_number += 1
    add_version(ctx, f, f.version_number)
    return detail(ctx, f)


@app.action(read_only=False)
def promote_version(ctx: Ctx, file_id: str, version: VersionNumber) -> dict[str, Any]:
    """Make an older version current again (Box's "promote"): it is copied as the newest version.

    Nothing is lost: every version stays in the history.

    Example:
        file_id="file_ct2291_agreement_docx" version=2 -> the file now at version 4, a copy of version 2.

    Args:
        file_id: The id of the file.
        version: The number of the version to restore (see box list-versions).

    Returns:
        The file's details (as box get-item) plus "promoted_from": the version restored.
    """
    f = get_file(ctx, file_id)
    older = next((v for v in _versions(ctx, f) if v.number == version), None)
    if older is None:
        raise NotFound(f"'{f.name}' has {_numbers(f)}; see box list-versions", "version")
    if version == f.version_number:
        raise Conflict(f"version {version} is already the current version of '{f.name}'", "version")
    require(ctx, f, "edit", "file_id")
    f.blob, f.size, f.modified, f.modified_by = older.blob, older.size, ctx.now, ctx.user
    f.version_number += 1
    add_version(ctx, f, f.version_number, promoted_from=version)
    return {**detail(ctx, f), "promoted_from": version}


from tools import box_items as _items  # noqa: E402, F401 - folders, moving, copying, trash
from tools import box_sharing as _sharing  # noqa: E402, F401 - collaborations, shared links, comments
