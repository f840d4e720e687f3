"""Drive actions on files: search, show, read and download; create, upload, update, copy, move and rename."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

from tools.apps.drive._rules import (
    access,
    ancestors,
    check_free,
    check_name,
    descendants,
    file_text,
    free_name,
    get_file_only,
    get_item,
    is_text,
    new_file,
    new_item,
    new_version,
    place,
    readable_text,
    require_edit,
    require_organize,
    require_write,
    same_name,
)
from tools.apps.drive._views import detail, summary
from tools.apps.drive.app import app
from tools.apps.drive.state import ROOT, DriveState
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.files import deliver_file, receive_file, refuse_encoded, refuse_folder_path, refuse_typed_document
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import FileText, SearchText, fold, require_text

__all__ = [
    "copy_file",
    "create_file",
    "download_file",
    "get_file",
    "move_file",
    "read_file",
    "rename_file",
    "search_files",
    "update_file",
    "upload_file",
]


@app.action(read_only=True)
def search_files(
    ctx: Context[DriveState],
    query: SearchText = "",
    mime_type: str = "",
    kind: Literal["", "file", "folder"] = "",
    owner: str = "",
    folder_id: str = "",
    include_trashed: bool = False,
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Find files and folders by words in their name or text, newest change first.

    Searches My Drive, files shared with you and the shared drives you belong to. Every word
    of the query must appear in the name or the document's text (Word, Excel and PDF files
    included; case-insensitive). Every other filter given must match too. Items in the trash
    are left out unless asked for.

    Example:
        query="budget" mime_type="spreadsheet" folder_id="fld_finance" -> the budget workbooks under Finance.

    Args:
        query: Words to find in the name or text, e.g. "vendor invoices".
        mime_type: Part of the content type, e.g. "csv", "pdf", "spreadsheet", "wordprocessing" or "folder".
        kind: "file" or "folder" to return only that kind.
        owner: The owner's email address (part of it is fine), or "me" for your own items.
        folder_id: Search only inside this folder or shared drive (e.g. "sd_atlas_program"), at any depth.
        include_trashed: Also return items that are in the trash.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [{"id", "name", "kind", "mime_type", "parent_id", "shared_drive_id", "owner", "modified",
        "size", "trashed"}], "page", "page_size", "total", "next_page"}.
    """
    inside = None
    if folder_id.strip() not in ("", ROOT):
        where = place(ctx, folder_id, "folder_id")
        inside = {f.id for f in descendants(ctx.state, where.id)}
    words = fold(query).split()
    who = fold(ctx.user if fold(owner) == "me" else owner)
    mime = fold(mime_type)
    hits = []
    for f in ctx.state.files.values():
        if (f.trashed and not include_trashed) or (inside is not None and f.id not in inside):
            continue
        if (
            (kind and f.kind != kind)
            or (mime and mime not in f.mime_type.lower())
            or (who and who not in fold(f.owner))
        ):
            continue
        if access(ctx.state, f, ctx.user) is None:
            continue
        name = fold(f.name)
        missing = [w for w in words if w not in name]
        if missing:
            text = file_text(ctx, f)  # folded once per file, not once per word
            if not all(w in text for w in missing):
                continue
        hits.append(f)
    hits.sort(key=lambda f: (-f.modified.timestamp(), fold(f.name), f.id))
    return page_of(hits, page, page_size, view=lambda f: summary(ctx, f))


@app.action(read_only=True)
def get_file(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Show a file's or folder's details: where it is, who owns it, its version and who can open it.

    Example:
        file_id="file_q1_budget" -> path "/Finance/Budgets/Q1 budget.xlsx", owner, size, version, permissions.

    Args:
        file_id: The id of the file or folder (from search-files or list-folder).

    Returns:
        The item summary plus "path", "shared_drive" ({"id", "name"} or null), "created", "last_modified_by",
        "permissions" ([{"email", "role"}] set on the item itself), "inherited_permissions" ([{"email", "role",
        "from_folder_id" or "from_shared_drive_id"}]), "your_access" (owner, writer, commenter or reader),
        once someone's access was removed "removed_permissions" ([{"email", "role", "removed_at", "removed_by"}],
        the sharing history) and, for files, "version" and "open_comments".
    """
    return detail(ctx, get_item(ctx, file_id))


@app.action(read_only=True)
def read_file(ctx: Context[DriveState], file_id: str, save_as: str = "") -> dict[str, Any]:
    """Read a file's text: text files as they are, Word, Excel and PDF files converted to plain text.

    When you have a workspace the text is saved there and you get its path (a converted
    document is saved as "<name>.txt"); otherwise the text is returned directly. To get the
    original file (e.g. the .xlsx itself) use download-file.

    Example:
        file_id="file_vendor_list" -> {"name": "Vendor list.csv", "content": "Vendor,Category,..."}.

    Args:
        file_id: The id of the file (folders cannot be read; use list-folder).
        save_as: Workspace path to save the text to; default downloads/<file name> (plus .txt when converted).

    Returns:
        {"id", "name", "mime_type", "converted" (true when the text was taken out of a document), "size"
        (bytes of text), and either "content" (the text) or "saved_to" (workspace path)}.
    """
    f = get_file_only(ctx, file_id, "read")
    data = ctx.blobs.get(f.blob)
    converted = not (f.mime_type.startswith("text/") or f.mime_type == "application/json") or not is_text(data)
    out_name = f.name
    if converted:
        text = readable_text(data, f.name)
        if not text.strip():
            raise InvalidArgument(
                f"'{f.name}' ({f.mime_type}) has no text to read; use drive download-file to get the file itself",
                "file_id",
            )
        data = text.encode("utf-8")
        out_name = f"{PurePosixPath(f.name).stem}.txt"
    delivered = deliver_file(ctx, out_name, data, save_as)
    return {"id": f.id, "name": f.name, "mime_type": f.mime_type, "converted": converted, **delivered}


@app.action(read_only=True)
def download_file(ctx: Context[DriveState], file_id: str, save_as: str = "") -> dict[str, Any]:
    """Download a file exactly as stored (any type: .xlsx, .docx, .pdf, images, text) into your workspace.

    Without a workspace only text files can be returned (inline); use read-file to get the
    text of a Word, Excel or PDF file instead.

    Example:
        file_id="file_q1_budget" save_as="finance/Q1 budget.xlsx" -> {"saved_to": "finance/Q1 budget.xlsx", ...}.

    Args:
        file_id: The id of the file (folders cannot be downloaded).
        save_as: Workspace path to save the file to; default downloads/<file name>.

    Returns:
        {"id", "name", "mime_type", "version", "size" (bytes), and "saved_to" (workspace path) or "content" (text)}.
    """
    f = get_file_only(ctx, file_id, "downloaded")
    data = ctx.blobs.get(f.blob)
    if ctx.files is None and not is_text(data):
        raise InvalidArgument(
            f"'{f.name}' is a {f.mime_type} file and there is no workspace to save it in; "
            "use drive read-file to get its text",
            "file_id",
        )
    delivered = deliver_file(ctx, f.name, data, save_as)
    return {"id": f.id, "name": f.name, "mime_type": f.mime_type, "version": len(f.versions) + 1, **delivered}


@app.action(read_only=False)
def create_file(
    ctx: Context[DriveState], name: str, parent_id: str = ROOT, content: FileText = "", path: str = ""
) -> dict[str, Any]:
    """Create a new file from text you give, or from a file in your workspace.

    Give exactly one of content and path. The content type follows the name's extension
    (.md, .csv, .txt, .docx, .xlsx, .pdf, ...). To add a file that may already exist, use
    upload-file, which can keep a new version instead.

    Example:
        name="Offsite packing list.md" parent_id="fld_offsite_2026" content="# Packing list..." -> the new file.

    Args:
        name: The file's name with its extension (no slashes); must not already be used in the folder.
        parent_id: Id of the folder or shared drive to put it in; "root" for the top of My Drive.
        content: The file's text (plain text only; never base64).
        path: Path of a workspace file to store instead of content (any type).

    Returns:
        The new file's details (as get-file).
    """
    name = check_name(name, "name")
    refuse_encoded(content, "content")
    refuse_typed_document(name, content)
    where = place(ctx, parent_id, "parent_id")
    require_write(ctx, where, "parent_id")
    check_free(ctx, where.id, name, "name")
    data = receive_file(ctx, content, path)
    f = new_file(ctx, name, where, data)
    ctx.state.files[f.id] = f
    return detail(ctx, f)


@app.action(read_only=False)
def upload_file(
    ctx: Context[DriveState],
    path: str,
    parent_id: str = ROOT,
    name: str = "",
    conflict: Literal["fail", "replace", "keep_both"] = "fail",
) -> dict[str, Any]:
    """Upload a file from your workspace (any type) into My Drive, a folder or a shared drive.

    When the folder already has a file of that name, conflict decides: "fail" (default)
    changes nothing, "replace" makes your file the new content of the existing one (the old
    content stays in its version history), "keep_both" adds yours as "name (1).ext".

    Example:
        path="downloads/INV-20417.pdf" parent_id="fld_invoices" -> the new file in Finance/Invoices.

    Args:
        path: Workspace path of the file to upload, e.g. "reports/q2.xlsx".
        parent_id: Id of the destination folder or shared drive; "root" for the top of My Drive.
        name: Name to give it in the drive; default the workspace file's name.
        conflict: What to do when the name is taken: "fail", "replace" or "keep_both".

    Returns:
        The file's details (as get-file) plus "result": "created", "replaced" or "kept_both".
    """
    path = require_text(path, "path")
    if ctx.files is None:
        raise InvalidArgument(
            "there is no workspace here to upload from; use drive create-file with content=... for text", "path"
        )
    refuse_folder_path(path)
    name = check_name(name or PurePosixPath(path).name, "name")
    where = place(ctx, parent_id, "parent_id")
    require_write(ctx, where, "parent_id")
    existing = same_name(ctx.state, where.id, name)
    if existing is not None:
        if conflict == "fail":
            raise Conflict(
                f"'{where.name}' already has '{existing.name}' ({existing.id}); pass conflict=replace to add a new "
                "version of it, or conflict=keep_both to keep both",
                "conflict",
            )
        if existing.kind == "folder" and conflict == "replace":
            raise Conflict(f"'{existing.name}' ({existing.id}) is a folder and cannot be replaced by a file", "name")
        if conflict == "replace":
            require_edit(ctx, existing, "conflict")
    data = receive_file(ctx, "", path)
    if existing is not None and conflict == "replace":
        new_version(ctx, existing, data)
        return {**detail(ctx, existing), "result": "replaced"}
    result = "kept_both" if existing is not None else "created"
    f = new_file(ctx, free_name(ctx.state, where.id, name), where, data)
    ctx.state.files[f.id] = f
    return {**detail(ctx, f), "result": result}


@app.action(read_only=False)
def update_file(ctx: Context[DriveState], file_id: str, content: FileText = "", path: str = "") -> dict[str, Any]:
    """Replace a file's content with new text or a workspace file; the previous content is kept as a version.

    The name stays the same. Give exactly one of content and path; a Word, Excel or PDF
    file can only be replaced from a workspace path.

    Example:
        file_id="file_offsite_agenda_draft" content="# Leadership offsite 2026 ..." -> the file, now version 3.

    Args:
        file_id: The id of the file to change.
        content: The new text (plain text only; never base64).
        path: Workspace path of the new content instead of content.

    Returns:
        The file's details (as get-file) with its new "version".
    """
    f = get_file_only(ctx, file_id, "updated")
    refuse_encoded(content, "content")
    require_edit(ctx, f, "file_id")
    refuse_typed_document(f.name, content)
    if content and not (f.mime_type.startswith("text/") or f.mime_type == "application/json"):
        raise InvalidArgument(
            f"'{f.name}' is a {f.mime_type} file; put the new file in your workspace and pass path=...", "content"
        )
    data = receive_file(ctx, content, path)
    new_version(ctx, f, data)
    return detail(ctx, f)


@app.action(read_only=False)
def copy_file(ctx: Context[DriveState], file_id: str, parent_id: str = "", name: str = "") -> dict[str, Any]:
    """Make a copy of a file, in the same folder or another one (also across shared drives).

    The copy is yours, starts with no comments, no earlier versions and no sharing beyond
    the folder it lands in. Folders cannot be copied.

    Example:
        file_id="file_q1_budget" parent_id="sd_atlas_program" name="Q1 budget (Engineering).xlsx" -> the copy.

    Args:
        file_id: The id of the file to copy.
        parent_id: Id of the destination folder or shared drive ("root" for My Drive); default the same folder.
        name: Name of the copy; default "Copy of <name>".

    Returns:
        The copy's details (as get-file).
    """
    f = get_file_only(ctx, file_id, "copied")
    if f.trashed:
        raise Conflict(f"'{f.name}' ({f.id}) is in the trash; use drive restore-file first", "file_id")
    where = place(ctx, parent_id or f.parent_id, "parent_id")
    require_write(ctx, where, "parent_id")
    new_name = check_name(name or f"Copy of {f.name}", "name")
    check_free(ctx, where.id, new_name, "name")
    copy = new_item(ctx, new_name, where, f.mime_type, f.blob, f.size)
    ctx.state.files[copy.id] = copy
    return detail(ctx, copy)


@app.action(read_only=False)
def move_file(ctx: Context[DriveState], file_id: str, new_parent_id: str) -> dict[str, Any]:
    """Move a file or folder (with everything inside it) into another folder of the same drive.

    Items cannot move between My Drive and a shared drive, or between shared drives: use
    copy-file there. In a shared drive only managers and content managers can move items.

    Example:
        file_id="file_offsite_venue_options" new_parent_id="fld_archive" -> its details with the new path.

    Args:
        file_id: The id of the file or folder to move.
        new_parent_id: Id of the destination folder, "root" for the top of My Drive, or a shared drive's id.

    Returns:
        The item's details (as get-file) after the move.
    """
    f = get_item(ctx, file_id)
    dest = place(ctx, new_parent_id, "new_parent_id")
    require_edit(ctx, f, "file_id")
    require_organize(ctx, f, "file_id")
    require_write(ctx, dest, "new_parent_id")
    if dest.drive_id != f.drive_id:
        raise InvalidArgument(
            f"'{f.name}' and '{dest.name}' are in different drives; items move only within one drive. "
            "Use drive copy-file to put a copy there",
            "new_parent_id",
        )
    if dest.folder is not None and (dest.id == f.id or f.id in {a.id for a in ancestors(ctx.state, dest.folder)}):
        raise InvalidArgument(
            f"'{dest.name}' is '{f.name}' itself or inside it; pick a folder outside it", "new_parent_id"
        )
    if dest.id == f.parent_id:
        return detail(ctx, f)
    check_free(ctx, dest.id, f.name, "new_parent_id", skip=f.id)
    f.parent_id = dest.id
    f.modified = ctx.now
    return detail(ctx, f)


@app.action(read_only=False)
def rename_file(ctx: Context[DriveState], file_id: str, new_name: str) -> dict[str, Any]:
    """Give a file or folder a new name; it stays where it is.

    Example:
        file_id="file_q2_budget_draft" new_name="Q2 budget.csv" -> its details with the new name.

    Args:
        file_id: The id of the file or folder.
        new_name: The new name (no slashes); must not already be used in the same folder.

    Returns:
        The item's details (as get-file) after renaming.
    """
    f = get_item(ctx, file_id)
    name = check_name(new_name, "new_name")
    require_edit(ctx, f, "file_id")
    if name == f.name:
        return detail(ctx, f)
    check_free(ctx, f.parent_id, name, "new_name", skip=f.id)
    f.name = name
    f.modified = ctx.now
    return detail(ctx, f)
