"""OneDrive actions on access: what others shared with you, who has access, grant and remove access."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.onedrive._rules import (
    ancestors_of,
    require_edit,
    resolve,
    resolve_people,
    role_of,
)
from tools.apps.onedrive._views import link_view, permission_rows, summary
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import OneDriveState, Permission
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import require_text

__all__ = ["grant_access", "list_permissions", "list_shared_with_me", "remove_permission"]


@app.action(read_only=True)
def list_shared_with_me(ctx: Context[OneDriveState], page: Page = 1, page_size: PageSize = 20) -> dict[str, Any]:
    """List the files other people have shared with you, most recently shared first.

    You can open and copy all of them; you can change only those shared with "write" access.

    Example:
        (no parameters) -> Offsite seating.xlsx from ruby.walker@northwind.example (write), Q1 forecast.xlsx, ...

    Args:
        page: Page number, starting at 1.
        page_size: Items per page.

    Returns:
        {"results": [{"id", "name", "kind", "size" (bytes), "mime_type", "modified", "modified_by", "owner",
        "your_access" (write or read), "shared_on"}], "page", "page_size", "total", "next_page"}.
    """
    me = ctx.user.lower()
    rows = []
    for it in ctx.state.items.values():
        grant = next((p for p in it.permissions if p.email.lower() == me and p.role != "owner"), None)
        if it.parent_id != "" or it.deleted is not None or grant is None:
            continue
        row = {k: v for k, v in summary(ctx, it).items() if k != "path"}
        rows.append(
            (
                grant.granted,
                it.id,
                {**row, "your_access": grant.role, "shared_on": format_instant(grant.granted, ctx.tz)},
            )
        )
    rows.sort(key=lambda r: (-r[0].timestamp(), r[1]))
    return page_of([r[2] for r in rows], page, page_size)


@app.action(read_only=True)
def list_permissions(ctx: Context[OneDriveState], item: str) -> dict[str, Any]:
    """Show who has access to a file or folder: people, access from folders above, and sharing links.

    Example:
        item="itm_contoso_pricing" -> owner alex.morgan, isabella.rossi (write), maya.young (read).

    Args:
        item: The item's id or path.

    Returns:
        {"id", "name", "owner", "permissions": [{"email", "role", "granted"}], "inherited": [{"email", "role",
        "from_folder_id", "from_folder"}], "links": [{"id", "type", "scope", "recipients", "expires", "status",
        "url"}], "your_access"}.
    """
    it = resolve(ctx, item, "item")
    direct = {p.email.lower() for p in it.permissions}
    inherited = []
    for folder in ancestors_of(ctx.state, it):
        for p in folder.permissions:
            if p.email.lower() not in direct and p.role != "owner":
                direct.add(p.email.lower())
                inherited.append(
                    {"email": p.email, "role": p.role, "from_folder_id": folder.id, "from_folder": folder.name}
                )
    links = [link_view(ctx, lnk) for lnk in ctx.state.links.values() if lnk.item_id == it.id]
    perms = permission_rows(ctx, it)
    return {
        "id": it.id,
        "name": it.name,
        "owner": it.owner,
        "permissions": perms,
        "inherited": inherited,
        "links": links,
        "your_access": role_of(ctx.state, it, ctx.user),
    }


@app.action(read_only=False)
def grant_access(
    ctx: Context[OneDriveState], item: str, recipients: list[str], role: Literal["read", "write"] = "read"
) -> dict[str, Any]:
    """Share a file or folder with people, or change the access they already have.

    Sharing a folder shares everything inside it. Colleagues can be named by email or full name;
    outside addresses are allowed.

    Example:
        item="/Documents/Contoso/Contoso renewal pricing.xlsx" recipients=["isaac.king@northwind.example"] role="write"

    Args:
        item: The item's id or path.
        recipients: Email addresses (or colleagues' full names) to share with; at least one.
        role: "read" (can view and download) or "write" (can also edit and share).

    Returns:
        {"id", "name", "role", "added": [emails], "changed": [emails whose role changed], "unchanged": [emails],
        "permissions": [{"email", "role", "granted"}]}.
    """
    it = resolve(ctx, item, "item")
    people = resolve_people(ctx, recipients, "recipients")
    if not people:
        raise InvalidArgument("give at least one email address to share with", "recipients")
    owner = it.owner.lower()
    if owner in people:
        raise Conflict(f"{it.owner} owns '{it.name}' and already has full access; leave them out", "recipients")
    require_edit(ctx, it, "item")
    added, changed, same = [], [], []
    perms = list(it.permissions)
    for email in people:
        current = next((p for p in perms if p.email.lower() == email), None)
        if current is None:
            perms.append(Permission(email=email, role=role, granted=ctx.now))
            added.append(email)
        elif current.role != role:
            perms[perms.index(current)] = current.model_copy(update={"role": role})
            changed.append(email)
        else:
            same.append(email)
    it.permissions = perms
    rows = permission_rows(ctx, it)
    return {
        "id": it.id,
        "name": it.name,
        "role": role,
        "added": added,
        "changed": changed,
        "unchanged": same,
        "permissions": rows,
    }


@app.action(read_only=False)
def remove_permission(ctx: Context[OneDriveState], item: str, email: str) -> dict[str, Any]:
    """Stop sharing a file or folder with someone.

    Only access given on this item itself can be removed here; access that comes from a folder
    above is removed on that folder. Removing your own access to a file someone shared with you
    takes it off your shared list.

    Example:
        item="itm_contoso_pricing" email="maya.young@northwind.example" -> the remaining permissions.

    Args:
        item: The item's id or path.
        email: The email address whose access to remove.

    Returns:
        {"id", "name", "removed": email, "permissions": [{"email", "role", "granted"}] remaining}.
    """
    it = resolve(ctx, item, "item")
    who = require_text(email, "email").lower()
    current = next((p for p in it.permissions if p.email.lower() == who), None)
    if current is None:
        upper = next(
            (a for a in ancestors_of(ctx.state, it) if any(p.email.lower() == who for p in a.permissions)), None
        )
        if upper is not None:
            raise Conflict(f"{email} has access through folder '{upper.name}' ({upper.id}); remove it there", "email")
        raise NotFound(f"'{it.name}' is not shared with '{email}'; use onedrive list-permissions", "email")
    if current.role == "owner":
        raise Conflict(f"{current.email} owns '{it.name}'; the owner's access cannot be removed", "email")
    if who != ctx.user.lower():
        require_edit(ctx, it, "item")
    it.permissions = [p for p in it.permissions if p is not current]
    rows = permission_rows(ctx, it)
    return {"id": it.id, "name": it.name, "removed": current.email, "permissions": rows}
