"""Drive actions for a file's version history: list the versions, bring one back."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.drive._rules import get_versioned_file, new_version, require_edit
from tools.apps.drive._views import detail, version_rows
from tools.apps.drive.app import app
from tools.apps.drive.state import DriveState
from tools.kernel.exceptions import Conflict, NotFound
from tools.kernel.world import Context

__all__ = ["list_versions", "restore_version"]


@app.action(read_only=True)
def list_versions(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Show a file's version history: every earlier content kept when it was replaced, newest first.

    Example:
        file_id="file_contoso_renewal_proposal" -> versions 3 (current), 2 and 1 with who saved each and when.

    Args:
        file_id: The id of the file.

    Returns:
        {"id", "name", "current_version", "versions": [{"version", "name", "size", "mime_type", "modified",
        "modified_by", "current"}]}.
    """
    f = get_versioned_file(ctx, file_id)
    return {"id": f.id, "name": f.name, "current_version": len(f.versions) + 1, "versions": version_rows(ctx, f)}


@app.action(read_only=False)
def restore_version(
    ctx: Context[DriveState], file_id: str, version: Annotated[int, Field(ge=1, le=10_000)]
) -> dict[str, Any]:
    """Bring back an earlier version of a file: its content becomes a new current version.

    Nothing is lost: the content you replace stays in the history too.

    Example:
        file_id="file_contoso_renewal_pricing" version=2 -> the file, now version 4 with version 2's content.

    Args:
        file_id: The id of the file.
        version: The number of the version to bring back, from list-versions.

    Returns:
        The file's details (as get-file) plus "restored_from" (the version number brought back).
    """
    f = get_versioned_file(ctx, file_id)
    current = len(f.versions) + 1
    if version > current:
        raise NotFound(f"'{f.name}' has versions 1 to {current}; use drive list-versions", "version")
    if version == current:
        raise Conflict(f"version {version} is already the current content of '{f.name}'", "version")
    require_edit(ctx, f, "file_id")
    old = f.versions[version - 1]
    data = ctx.blobs.get(old.blob)
    new_version(ctx, f, data)
    f.mime_type = old.mime_type
    return {**detail(ctx, f), "restored_from": version}
