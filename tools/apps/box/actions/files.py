"""Box actions on a file's content: download, list versions, upload a file or a new version, promote one."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Any

from pydantic import Field

from tools.apps.box._rules import (
    add_version,
    check_free,
    check_name,
    find_file,
    find_folder,
    owner_for,
    read_upload,
    require,
    version_span,
    versions_of,
)
from tools.apps.box._views import detail, version_view
from tools.apps.box.app import app
from tools.apps.box.state import ROOT, BoxFile, BoxState
from tools.kernel.documents import mime_type_for
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context
from tools.kits.files import deliver_file
from tools.kits.text import FileText, LongText

__all__ = ["download_file", "list_versions", "promote_version", "upload_file", "upload_version"]


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


@app.action(read_only=True)
def list_versions(ctx: Context[BoxState], file_id: str) -> dict[str, Any]:
    """List a file's versions, newest first, with who uploaded each and when.

    Example:
        file_id="file_ct2291_agreement_docx" -> versions 3 (current, Hannah Wood), 2 and 1 (Maya Young).

    Args:
        file_id: The id of the file.

    Returns:
        {"id", "name", "current_version": n, "versions": [{"id", "number", "current", "size", "uploaded_by",
        "uploaded_at", "promoted_from" (the older number it restored, or null)}]}.
    """
    f = find_file(ctx, file_id)
    require(ctx, f, "download", "file_id")
    rows = [version_view(ctx, v, f.version_number) for v in reversed(versions_of(ctx, f))]
    return {"id": f.id, "name": f.name, "current_version": f.version_number, "versions": rows}


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
def upload_version(ctx: Context[BoxState], file_id: str, content: FileText = "", path: str = "") -> dict[str, Any]:
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
    f = find_file(ctx, file_id)
    require(ctx, f, "upload", "file_id")
    data = read_upload(ctx, f.name, content, path)
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
def promote_version(
    ctx: Context[BoxState], file_id: str, version: Annotated[int, Field(ge=1, le=1000)]
) -> dict[str, Any]:
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
    f = find_file(ctx, file_id)
    older = next((v for v in versions_of(ctx, f) if v.number == version), None)
    if older is None:
        raise NotFound(f"'{f.name}' has {version_span(f)}; see box list-versions", "version")
    if version == f.version_number:
        raise Conflict(f"version {version} is already the current version of '{f.name}'", "version")
    require(ctx, f, "edit", "file_id")
    f.blob, f.size, f.modified, f.modified_by = older.blob, older.size, ctx.now, ctx.user
    f.version_number += 1
    add_version(ctx, f, f.version_number, promoted_from=version)
    return {**detail(ctx, f), "promoted_from": version}
