"""Box actions on shared links: create or change an item's link, remove it."""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from tools.apps.box._rules import check_password, find_item, require
from tools.apps.box._views import link_view
from tools.apps.box.app import app
from tools.apps.box.state import BoxState, SharedLink
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, parse_date

__all__ = ["create_shared_link", "remove_shared_link"]


@app.action(read_only=False)
def create_shared_link(
    ctx: Context[BoxState],
    item_id: str,
    access: Literal["open", "company", "collaborators"],
    password: str = "",
    expires: str = "",
    can_download: bool = True,
) -> dict[str, Any]:
    """Create a shared link to a file or folder, or change the settings of its existing link.

    An item has at most one link: calling this again replaces every setting but keeps the URL.
    The password itself is never shown again; share it separately.

    Example:
        item_id="file_inv_20417" access="company" expires="2026-03-31" can_download=false

    Args:
        item_id: The id of the file or folder.
        access: Who can open the link: "open" (anyone with the link), "company" (people at the company) or
            "collaborators" (only people invited to the item's folder).
        password: Require this password to open the link (only for "open" links; at least 8 characters with a
            letter and a digit).
        expires: The last day the link works, YYYY-MM-DD (today or later); it stops working after that day.
        can_download: Whether people with the link may download (false: preview only).

    Returns:
        {"id", "name", "shared_link": {"url", "access", "password_protected", "expires", "can_download",
        "created_by", "created"}, "replaced": true when the item already had a link}.
    """
    item = find_item(ctx, item_id)
    protected = check_password(password.strip(), access)
    until = parse_date(expires, "expires") if expires.strip() else None
    today = ctx.now.astimezone(ctx.tz).date()
    if until is not None and until < today:
        raise InvalidArgument(
            f"'{expires}' is before today ({today.isoformat()}); pick today or a later date", "expires"
        )
    require(ctx, item, "share", "item_id")
    old = item.shared_link
    if old is None:
        token = hashlib.sha256(f"{item.id}:{ctx.new_id('link')}".encode()).hexdigest()[:32]
        tenant = ctx.user.rsplit("@", 1)[-1].split(".")[0].lower()  # northwind.example -> northwind
        url = f"https://{tenant}.app.box.com/s/{token}"
    else:
        url = old.url
    item.shared_link = SharedLink(
        url=url,
        access=access,
        password_protected=protected,
        expires=until,
        can_download=can_download,
        created_by=old.created_by if old else ctx.user,
        created=old.created if old else ctx.now,
    )
    return {
        "id": item.id,
        "name": item.name,
        "shared_link": link_view(ctx, item.shared_link),
        "replaced": old is not None,
    }


@app.action(read_only=False)
def remove_shared_link(ctx: Context[BoxState], item_id: str) -> dict[str, Any]:
    """Remove an item's shared link; its URL stops working (collaborators keep their access).

    Example:
        item_id="file_fabrikam_shipping_schedule" -> {"id", "name", "removed_url"}.

    Args:
        item_id: The id of the file or folder.

    Returns:
        {"id", "name", "removed_url"}.
    """
    item = find_item(ctx, item_id)
    if item.shared_link is None:
        raise Conflict(f"'{item.name}' ({item.id}) has no shared link", "item_id")
    require(ctx, item, "share", "item_id")
    url = item.shared_link.url
    item.shared_link = None
    return {"id": item.id, "name": item.name, "removed_url": url}
