"""Drive actions that read: search files, list a folder, show an item, read and download a file."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

from tools.apps.drive._rules import (
    access,
    descendants,
    file_text,
    get_file_only,
    get_item,
    is_text,
    place,
    readable_text,
)
from tools.apps.drive._views import detail, summary
from tools.apps.drive.app import app
from tools.apps.drive.state import ROOT, DriveState
from tools.kernel.exceptions import InvalidArgument
from tools.kernel.world import Context
from tools.kits.files import deliver_file
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["download_file", "get_file", "list_folder", "read_file", "search_files"]


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
def list_folder(
    ctx: Context[DriveState], folder_id: str = ROOT, page: Page = 1, page_size: PageSize = 50
) -> dict[str, Any]:
    """List what a folder or a shared drive holds: subfolders first, then files, each group by name.

    Items in the trash are not listed. Give a shared drive's id (from list-shared-drives) to
    see the top of that shared drive.

    Example:
        folder_id="sd_atlas_program" -> the top of the Atlas Program shared drive.

    Args:
        folder_id: The folder's id, a shared drive's id, or "root" for the top of My Drive.
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"folder": {"id", "name", "path", "shared_drive_id"}, "results": [item summary], "page", "page_size",
        "total", "next_page"}.
    """
    where = place(ctx, folder_id, "folder_id")
    kids = [
        f
        for f in ctx.state.files.values()
        if f.parent_id == where.id and not f.trashed and access(ctx.state, f, ctx.user) is not None
    ]
    kids.sort(key=lambda f: (f.kind != "folder", fold(f.name), f.id))
    out = page_of([summary(ctx, f) for f in kids], page, page_size)
    head = {"id": where.id, "name": where.name, "path": where.path, "shared_drive_id": where.drive_id or None}
    return {"folder": head, **out}


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
        "from_folder_id" or "from_shared_drive_id"}]), "your_access" (owner, writer, commenter or reader) and,
        for files, "version" and "open_comments".
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
