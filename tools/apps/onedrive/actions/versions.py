"""OneDrive actions on a file's versions: list them, restore an earlier one."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.apps.onedrive._rules import require_edit, resolve_file
from tools.apps.onedrive._versions import add_version
from tools.apps.onedrive._views import detail
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import OneDriveState
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, format_instant

__all__ = ["list_versions", "restore_version"]


@app.action(read_only=True)
def list_versions(ctx: Context[OneDriveState], item: str) -> dict[str, Any]:
    """List a file's saved versions, newest first; the first one is the current content.

    Example:
        item="itm_q1_budget" -> versions 3 (current), 2 and 1 with who saved each and when.

    Args:
        item: The file's id or path.

    Returns:
        {"id", "name", "versions": [{"number", "size" (bytes), "modified", "modified_by", "current"}]}.
    """
    f = resolve_file(ctx, item)
    last = f.versions[-1].number if f.versions else None
    rows = [
        {
            "number": v.number,
            "size": v.size,
            "modified": format_instant(v.modified, ctx.tz),
            "modified_by": v.modified_by,
            "current": v.number == last,
        }
        for v in reversed(f.versions)
    ]
    return {"id": f.id, "name": f.name, "versions": rows}


@app.action(read_only=False)
def restore_version(ctx: Context[OneDriveState], item: str, version: Annotated[int, Field(ge=1)]) -> dict[str, Any]:
    """Make an earlier version of a file the current one (saved as a new version; nothing is lost).

    Example:
        item="itm_q1_budget" version=2 -> version 4 now holds what version 2 held.

    Args:
        item: The file's id or path.
        version: The version number to bring back, from list-versions.

    Returns:
        The file's details (as get-item), with "version" the new current number.
    """
    f = resolve_file(ctx, item)
    old = next((v for v in f.versions if v.number == version), None)
    if old is None:
        numbers = ", ".join(str(v.number) for v in f.versions)
        raise InvalidArgument(f"'{f.name}' has no version {version}; it has: {numbers}", "version")
    require_edit(ctx, f, "item")
    if old.number == f.versions[-1].number:
        raise Conflict(f"version {version} is already the current version of '{f.name}'", "version")
    add_version(ctx, f, old.blob, old.size)
    return detail(ctx, f)
