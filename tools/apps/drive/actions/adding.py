"""Drive actions that add content: create a folder or a file, upload, update and copy a file."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any, Literal

from tools.apps.drive._rules import (
    check_free,
    check_name,
    free_name,
    get_file_only,
    new_file,
    new_item,
    new_version,
    place,
    require_edit,
    require_write,
    same_name,
)
from tools.apps.drive._views import detail
from tools.apps.drive.app import app
from tools.apps.drive.state import ROOT, DriveState
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context
from tools.kits.files import receive_file, refuse_encoded
from tools.kits.text import FileText, require_text

__all__ = ["copy_file", "create_file", "create_folder", "update_file", "upload_file"]


@app.action(read_only=False)
def create_folder(ctx: Context[DriveState], name: str, parent_id: str = ROOT) -> dict[str, Any]:
    """Make a new folder in My Drive, in a folder, or at the top of a shared drive.

    Example:
        name="Vendor quotes" parent_id="fld_operations" -> the new folder with its id and path.

    Args:
        name: The folder's name (no slashes); must not already be used in the parent folder.
        parent_id: Id of the folder or shared drive to create it in; "root" for the top of My Drive.

    Returns:
        The new folder's details (as get-file).
    """
    name = check_name(name, "name")
    where = place(ctx, parent_id, "parent_id")
    require_write(ctx, where, "parent_id")
    check_free(ctx, where.id, name, "name")
    f = new_item(ctx, name, where)
    ctx.state.files[f.id] = f
    return detail(ctx, f)


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
