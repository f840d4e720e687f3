"""Drive actions on shared drives: list the ones you can see."""

from __future__ import annotations

from typing import Any

from tools.apps.drive._rules import member_role
from tools.apps.drive._views import shared_drive_view
from tools.apps.drive.app import app
from tools.apps.drive.state import DriveState
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["list_shared_drives"]


@app.action(read_only=True)
def list_shared_drives(
    ctx: Context[DriveState], query: SearchText = "", page: Page = 1, page_size: PageSize = 20
) -> dict[str, Any]:
    """List the shared drives you are a member of, with their members and your role.

    A shared drive belongs to the company, not to a person. Browse one with list-folder
    (folder_id = its id) and search it with search-files (folder_id = its id). Roles:
    manager, content_manager (can also move and trash), contributor (can add and edit),
    commenter, reader.

    Example:
        query="atlas" -> [{"id": "sd_atlas_program", "name": "Atlas Program", "your_role": "content_manager", ...}].

    Args:
        query: Words to find in the shared drive's name.
        page: Page number, starting at 1.
        page_size: Shared drives per page.

    Returns:
        {"results": [{"id", "name", "created", "your_role", "members": [{"email", "role"}], "items"}], "page",
        "page_size", "total", "next_page"}.
    """
    words = fold(query).split()
    out = []
    for sd in sorted(ctx.state.shared_drives.values(), key=lambda s: fold(s.name)):
        role = member_role(ctx.state, sd.id, ctx.user)
        if role is None or not all(w in fold(sd.name) for w in words):
            continue
        out.append(shared_drive_view(ctx, sd, role))
    return page_of(out, page, page_size)
