"""Box actions on a file's versions: list them, upload a new version, promote an earlier one."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.box._rules import (
    add_version,
    find_file,
    read_upload,
    require,
    version_span,
    versions_of,
)
from tools.apps.box._views import detail, version_view
from tools.apps.box.app import app
from tools.apps.box.state import BoxState
from tools.kernel.exceptions import Conflict, NotFound
from tools.kernel.world import Context
from tools.kits.text import FileText

__all__ = ["list_versions", "promote_version", "upload_version"]


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
