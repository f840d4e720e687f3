"""SharePoint actions on library files and folders: search, show, download, upload, move and rename."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

from tools.apps.sharepoint._rules import (
    FORBIDDEN,
    ancestors_of,
    descendants_of,
    document_text,
    find_file,
    find_folder,
    find_library,
    find_site,
    item_path,
    name_holder,
    name_taken,
    next_version,
    require_role,
    role_of,
)
from tools.apps.sharepoint._views import item_detail, item_summary
from tools.apps.sharepoint.app import app
from tools.apps.sharepoint.state import LibraryItem, SharePointState, Version
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context
from tools.kits.files import deliver_file, receive_file, refuse_encoded, refuse_folder_path, refuse_typed_document
from tools.kits.folders import check_name
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import FileText, SearchText, fold

__all__ = ["download_file", "get_file", "move_file", "rename_file", "search_files", "upload_file"]


@app.action(read_only=True)
def search_files(
    ctx: Context[SharePointState],
    query: SearchText = "",
    site: str = "",
    file_type: str = "",
    kind: Literal["", "file", "folder"] = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Find files and folders across your sites by words in their name, folder or text, newest change first.

    Every word must appear (case-insensitive). The text of Word, Excel, PDF and text files is searched.

    Example:
        query="runbook" file_type="pdf" -> the Atlas cutover runbook on the Atlas Program site.

    Args:
        query: Words to find, e.g. "vendor onboarding checklist".
        site: Only this site (name, id or address); empty for every site you belong to.
        file_type: Only files with this extension, e.g. "pdf", "docx", "xlsx", "csv".
        kind: "file" or "folder" to return only that kind.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [item as in list-library], "page", "page_size", "total", "next_page"}.
    """
    only = find_site(ctx, site).id if site.strip() else None
    words = fold(query).split()
    ext = "." + file_type.strip().lower().lstrip(".") if file_type.strip() else ""
    hits = []
    for f in ctx.state.files.values():
        if f.deleted or (only and f.site_id != only) or not role_of(ctx.state.sites[f.site_id], ctx.user):
            continue
        if (kind and f.kind != kind) or (ext and PurePosixPath(f.name).suffix.lower() != ext):
            continue
        hay = fold(item_path(ctx.state, f))
        if all(w in hay for w in words) or all(w in hay + " " + fold(document_text(ctx, f)) for w in words):
            hits.append(f)
    hits.sort(key=lambda f: (-f.modified.timestamp(), fold(f.name), f.id))
    return page_of(hits, page, page_size, view=lambda f: item_summary(ctx, f))


@app.action(read_only=True)
def get_file(ctx: Context[SharePointState], file_id: str) -> dict[str, Any]:
    """Show a file's or folder's details: where it is, who made and changed it, and its version history.

    Example:
        file_id="doc_vendor_onboarding_checklist" -> path, url, version "3.0" and the two earlier versions.

    Args:
        file_id: The file's or folder's id (from list-library or search-files).

    Returns:
        The item as in list-library plus "url", "created", "created_by", "in_recycle_bin", and for a file
        "versions" ([{"version", "size", "modified", "modified_by"}], earlier versions oldest first) or for a
        folder "items" (how many it holds).
    """
    return item_detail(ctx, find_file(ctx, file_id, deleted=True))


@app.action(read_only=True)
def download_file(ctx: Context[SharePointState], file_id: str, save_as: str = "", version: str = "") -> dict[str, Any]:
    """Download a file. With a workspace it is saved there and you get its path; otherwise text comes inline.

    Word, Excel and PDF files need a workspace; only text files can be shown inline.

    Example:
        file_id="doc_atlas_cutover_runbook" save_as="atlas/runbook.pdf" -> {"saved_to": "atlas/runbook.pdf", ...}.

    Args:
        file_id: The file's id.
        save_as: Workspace path to save it to; default downloads/<file name>.
        version: An earlier version to download, e.g. "1.0" (see get-file); empty for the current one.

    Returns:
        {"id", "name", "mime_type", "version", "size" (bytes), and "saved_to" (workspace path) or "content" (text)}.
    """
    item = find_file(ctx, file_id)
    if item.kind == "folder":
        raise InvalidArgument(f"'{item.name}' is a folder; use sharepoint list-library to see inside", "file_id")
    blob, label = item.blob, item.version
    if version.strip() and version.strip() != item.version:
        old = next((v for v in item.versions if v.version == version.strip()), None)
        if old is None:
            have = ", ".join([v.version for v in item.versions] + [item.version])
            raise NotFound(f"'{item.name}' has no version '{version}'; its versions: {have}", "version")
        blob, label = old.blob, old.version
    got = deliver_file(ctx, item.name, ctx.blobs.get(blob), save_as)
    return {"id": item.id, "name": item.name, "mime_type": item.mime_type, "version": label, **got}


@app.action(read_only=False)
def upload_file(
    ctx: Context[SharePointState],
    site: str,
    name: str = "",
    folder: str = "",
    library: str = "Documents",
    path: str = "",
    content: FileText = "",
    overwrite: bool = False,
) -> dict[str, Any]:
    """Upload a file to a library: a file from your workspace (any kind) or text you type (text files only).

    A file with the same name in the folder is kept as an earlier version when overwrite is true.

    Example:
        site="Finance" folder="Invoices" path="downloads/INV-20417.txt" -> the new file's details.

    Args:
        site: The site's name, id or address.
        name: The file's name with its extension; default: the workspace file's name.
        folder: The folder's id or path inside the library (e.g. "Invoices"); empty for the top.
        library: The library's name or id.
        path: Path of the workspace file to upload (Word, Excel, PDF, images, text).
        content: The text of a new text file (.txt, .md, .csv ...), instead of path.
        overwrite: Replace a file of the same name, keeping the old one as an earlier version.

    Returns:
        The file's details (as get-file), with "version" "1.0" for a new file.
    """
    s = find_site(ctx, site)
    lib = find_library(ctx, s, library)
    parent = find_folder(ctx, lib, folder, "folder")
    refuse_folder_path(path)
    if not name.strip() and path.strip():
        name = PurePosixPath(path.strip()).name
    name = check_name(name, "name", FORBIDDEN)
    require_role(ctx, s, "contribute", "site")
    if content:
        refuse_encoded(content, "content")
        refuse_typed_document(name, content)
    pid = parent.id if parent else ""
    existing = name_holder(ctx, lib.id, pid, name)
    if existing is not None and (existing.kind == "folder" or not overwrite):
        hint = "" if existing.kind == "folder" else "; pass overwrite=true to save a new version"
        raise Conflict(f"this folder already has an item named '{existing.name}' ({existing.id}){hint}", "name")
    data = receive_file(ctx, content, path)
    blob = ctx.blobs.put(data)
    if existing is not None:
        old = Version(
            version=existing.version,
            blob=existing.blob,
            size=existing.size,
            modified=existing.modified,
            modified_by=existing.modified_by,
        )
        existing.versions = [*existing.versions, old]
        existing.blob, existing.size, existing.version = blob, len(data), next_version(existing.version)
        existing.modified, existing.modified_by = ctx.now, ctx.user
        return item_detail(ctx, existing)
    item = LibraryItem(
        id=ctx.new_id("doc"),
        site_id=s.id,
        library_id=lib.id,
        parent_id=pid,
        name=name,
        kind="file",
        mime_type=mime_type_for(name),
        blob=blob,
        size=len(data),
        version="1.0",
        created=ctx.now,
        created_by=ctx.user,
        modified=ctx.now,
        modified_by=ctx.user,
    )
    ctx.state.files[item.id] = item
    return item_detail(ctx, item)


@app.action(read_only=False)
def move_file(
    ctx: Context[SharePointState], file_id: str, to_folder: str = "", to_library: str = "", to_site: str = ""
) -> dict[str, Any]:
    """Move a file or folder (with everything in it) to another folder, library or site.

    Example:
        file_id="doc_atlas_status_2026_03_04" to_folder="Status reports" -> its details at the new path.

    Args:
        file_id: The id of the file or folder to move.
        to_folder: The destination folder's id or path inside the destination library; empty for its top.
        to_library: The destination library's name or id; default: the item's own library (or "Documents" on
            another site).
        to_site: The destination site's name, id or address; default: the item's own site.

    Returns:
        The item's details (as get-file) after the move.
    """
    item = find_file(ctx, file_id)
    src = ctx.state.sites[item.site_id]
    dest_site = find_site(ctx, to_site, "to_site") if to_site.strip() else src
    if to_library.strip():
        lib = find_library(ctx, dest_site, to_library, "to_library")
    elif dest_site.id == src.id:
        lib = ctx.state.libraries[item.library_id]
    else:
        lib = find_library(ctx, dest_site, "Documents", "to_library")
    dest = find_folder(ctx, lib, to_folder, "to_folder")
    require_role(ctx, src, "contribute", "file_id")
    require_role(ctx, dest_site, "contribute", "to_site")
    if dest is not None and (dest.id == item.id or item.id in {a.id for a in ancestors_of(ctx.state, dest)}):
        raise InvalidArgument(
            f"'{dest.name}' is '{item.name}' itself or inside it; pick a folder outside it", "to_folder"
        )
    pid = dest.id if dest else ""
    if pid == item.parent_id and lib.id == item.library_id:
        return item_detail(ctx, item)
    other = name_holder(ctx, lib.id, pid, item.name, skip=item.id)
    if other is not None:
        raise name_taken(other, "to_folder")
    moving = [item, *(descendants_of(ctx.state, item.id) if item.kind == "folder" else [])]
    item.parent_id = pid
    for f in moving:
        if f.library_id != lib.id:
            f.library_id = lib.id
        if f.site_id != dest_site.id:
            f.site_id = dest_site.id
    return item_detail(ctx, item)


@app.action(read_only=False)
def rename_file(ctx: Context[SharePointState], file_id: str, new_name: str) -> dict[str, Any]:
    """Rename a file or folder; it stays where it is. A file keeps its extension.

    Example:
        file_id="doc_ops_weekly_2026_03_06" new_name="Operations weekly - March 6.docx" -> its details.

    Args:
        file_id: The id of the file or folder.
        new_name: The new name; must not be taken in the same folder.

    Returns:
        The item's details (as get-file) after renaming.
    """
    item = find_file(ctx, file_id)
    name = check_name(new_name, "new_name", FORBIDDEN)
    old_ext, new_ext = PurePosixPath(item.name).suffix.lower(), PurePosixPath(name).suffix.lower()
    if item.kind == "file" and old_ext != new_ext:
        raise InvalidArgument(
            f"keep the extension '{old_ext}' (the file's content does not change), e.g. "
            f"'{PurePosixPath(name).stem}{old_ext}'",
            "new_name",
        )
    require_role(ctx, ctx.state.sites[item.site_id], "contribute", "file_id")
    if name == item.name:
        return item_detail(ctx, item)
    other = name_holder(ctx, item.library_id, item.parent_id, name, skip=item.id)
    if other is not None:
        raise name_taken(other, "new_name")
    item.name = name
    item.modified, item.modified_by = ctx.now, ctx.user
    return item_detail(ctx, item)
