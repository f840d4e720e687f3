"""Drive actions on permissions: list who can open an item, share it, remove someone's access."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.drive._rules import ancestors, check_email, get_item, member_role, require_edit
from tools.apps.drive._views import detail
from tools.apps.drive.app import app
from tools.apps.drive.state import DriveState, Permission, RemovedPermission
from tools.kernel.exceptions import Conflict, NotFound
from tools.kernel.world import Context

__all__ = ["list_permissions", "remove_permission", "share_file"]


@app.action(read_only=True)
def list_permissions(ctx: Context[DriveState], file_id: str) -> dict[str, Any]:
    """Show who can open a file or folder and with which role.

    Access given on a folder also applies to everything inside it, and members of a shared
    drive reach everything in it; those entries are listed separately with where they come from.
    Access removed from the item stays in its sharing history ("removed_permissions"), as Drive's
    activity shows it.

    Example:
        file_id="fld_finance" -> owner priya.shah@northwind.example, writers, readers.

    Args:
        file_id: The id of the file or folder.

    Returns:
        {"id", "name", "owner", "permissions": [{"email", "role"}], "inherited_permissions": [{"email", "role",
        "from_folder_id" or "from_shared_drive_id"}], "your_access", and once someone's access was removed,
        "removed_permissions": [{"email", "role", "removed_at", "removed_by"}] oldest first}.
    """
    d = detail(ctx, get_item(ctx, file_id))
    keys = ("id", "name", "owner", "permissions", "inherited_permissions", "your_access", "removed_permissions")
    return {k: d[k] for k in keys if k in d}


@app.action(read_only=False)
def share_file(
    ctx: Context[DriveState], file_id: str, email: str, role: Literal["reader", "commenter", "writer"] = "reader"
) -> dict[str, Any]:
    """Share a file or folder with someone, or change the role they already have.

    Sharing a folder shares everything inside it. People at this company must be in the
    directory; outside addresses are allowed. You need edit access to share.

    Example:
        file_id="file_q1_budget" email="grace.kim@northwind.example" role="commenter" -> the new permission.

    Args:
        file_id: The id of the file or folder.
        email: The person's email address.
        role: "reader" (can open), "commenter" (can open and comment) or "writer" (can edit and share).

    Returns:
        {"id", "name", "email", "role", "previous_role" (null if newly shared), "permissions": [{"email", "role"}]}.
    """
    f = get_item(ctx, file_id)
    who = check_email(ctx, email, "email")
    if not f.drive_id and who == f.owner.lower():
        raise Conflict(f"{f.owner} owns '{f.name}' and already has full access", "email")
    require_edit(ctx, f, "file_id")
    current = next((p for p in f.permissions if p.email.lower() == who), None)
    previous = current.role if current else None
    if current is None:
        f.permissions = [*f.permissions, Permission(email=who, role=role)]
    elif current.role != role:
        current.role = role
    return {
        "id": f.id,
        "name": f.name,
        "email": who,
        "role": role,
        "previous_role": previous,
        "permissions": [p.model_dump() for p in f.permissions],
    }


@app.action(read_only=False)
def remove_permission(ctx: Context[DriveState], file_id: str, email: str) -> dict[str, Any]:
    """Stop sharing a file or folder with someone.

    Only access given on this item itself can be removed here; access that comes from a
    folder above must be removed on that folder, and shared-drive membership by its managers.
    The person leaves the permissions list; the item's sharing history keeps the removal (who had
    which role, when and by whom it was removed: "removed_permissions" in list-permissions and get-file).

    Example:
        file_id="file_offsite_attendee_list" email="events@lakesidelodge.example" -> remaining permissions.

    Args:
        file_id: The id of the file or folder.
        email: The email address whose access to remove.

    Returns:
        {"id", "name", "removed": email, "permissions": [{"email", "role"}] remaining}.
    """
    f = get_item(ctx, file_id)
    who = email.strip().lower()
    current = next((p for p in f.permissions if p.email.lower() == who), None)
    if current is None:
        upper = next((a for a in ancestors(ctx.state, f) if any(p.email.lower() == who for p in a.permissions)), None)
        if upper is not None:
            raise Conflict(f"{email} has access through folder '{upper.name}' ({upper.id}); remove it there", "email")
        if f.drive_id and member_role(ctx.state, f.drive_id, who):
            sd = ctx.state.shared_drives[f.drive_id]
            raise Conflict(f"{email} is a member of shared drive '{sd.name}'; its managers change membership", "email")
        raise NotFound(f"'{f.name}' is not shared with '{email}'; use drive list-permissions", "email")
    if current.role == "owner":
        raise Conflict(f"{current.email} owns '{f.name}'; the owner's access cannot be removed", "email")
    if who != ctx.user.lower():
        require_edit(ctx, f, "file_id")
    f.permissions = [p for p in f.permissions if p is not current]
    gone = RemovedPermission(email=current.email, role=current.role, removed_at=ctx.now, removed_by=ctx.user)
    f.removed_permissions = [*f.removed_permissions, gone]
    return {
        "id": f.id,
        "name": f.name,
        "removed": current.email,
        "permissions": [p.model_dump() for p in f.permissions],
    }
