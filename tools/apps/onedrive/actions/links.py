"""OneDrive actions on sharing links: create, list and revoke them."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.onedrive._rules import (
    find_link,
    require_edit,
    resolve,
    resolve_people,
)
from tools.apps.onedrive._views import link_view, revoked_view
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import OneDriveState, RevokedLink, SharingLink, link_base
from tools.kernel.exceptions import Conflict, InvalidArgument
from tools.kernel.world import Context, parse_date

__all__ = ["create_sharing_link", "list_sharing_links", "revoke_sharing_link"]


@app.action(read_only=False)
def create_sharing_link(
    ctx: Context[OneDriveState],
    item: str,
    type: Literal["view", "edit"] = "view",  # noqa: A002 - the product's own word
    scope: Literal["anyone", "organization", "specific_people"] = "organization",
    recipients: list[str] = [],  # noqa: B006 - never mutated
    expires: str = "",
) -> dict[str, Any]:
    """Create a link that opens a file or folder, for anyone, everyone at the company, or named people.

    Asking again for a link with the same settings returns the existing one.

    Example:
        item="itm_offsite_budget" type="view" scope="organization" expires="2026-03-31" -> {"url": "https://..."}.

    Args:
        item: The item's id or path.
        type: "view" (open and download) or "edit" (also change).
        scope: "anyone" (no sign-in), "organization" (anyone at the company) or "specific_people" (only recipients).
        recipients: For scope "specific_people": email addresses or colleagues' full names.
        expires: Last day the link works, YYYY-MM-DD (today or later); empty for no expiry.

    Returns:
        {"id", "item_id", "type", "scope", "recipients", "expires", "created", "created_by", "url", "status",
        "already_existed"}.
    """
    it = resolve(ctx, item, "item")
    people = resolve_people(ctx, recipients, "recipients")
    if scope == "specific_people" and not people:
        raise InvalidArgument('scope "specific_people" needs at least one address in recipients', "recipients")
    if scope != "specific_people" and people:
        raise InvalidArgument(f'recipients only go with scope "specific_people", not "{scope}"', "recipients")
    until = parse_date(expires, "expires") if expires.strip() else None
    today = ctx.now.astimezone(ctx.tz).date()
    if until is not None and until < today:
        raise InvalidArgument(
            f"{until.isoformat()} is in the past; give today ({today.isoformat()}) or later", "expires"
        )
    require_edit(ctx, it, "item")
    if type == "edit" and it.owner.lower() != ctx.user.lower() and scope == "anyone":
        raise Conflict(f"only the owner, {it.owner}, can make an edit link for anyone; use organization", "scope")
    for link in ctx.state.links.values():
        same = (link.item_id, link.type, link.scope, sorted(link.recipients), link.expires)
        if same == (it.id, type, scope, sorted(people), until) and (until is None or until >= today):
            return {**link_view(ctx, link), "already_existed": True}
    lid = ctx.new_id("lnk")
    link = SharingLink(
        id=lid,
        item_id=it.id,
        type=type,
        scope=scope,
        recipients=people,
        expires=until,
        created=ctx.now,
        created_by=ctx.user,
        url=link_base(ctx.user) + lid,
    )
    ctx.state.links[lid] = link
    return {**link_view(ctx, link), "already_existed": False}


@app.action(read_only=True)
def list_sharing_links(ctx: Context[OneDriveState], item: str) -> dict[str, Any]:
    """List the sharing links of a file or folder, expired ones included, and the links revoked from it.

    Example:
        item="itm_lodge_contract" -> an expired "anyone" link and an active "organization" link.

    Args:
        item: The item's id or path.

    Returns:
        {"id", "name", "links": [{"id", "type", "scope", "recipients", "expires", "status" (active or expired),
        "created", "created_by", "url"}], and once a link was revoked, "revoked_links": [{"id", "type", "scope",
        "recipients", "created_by", "revoked_at", "revoked_by"}] oldest first}.
    """
    it = resolve(ctx, item, "item")
    links = sorted(
        (lnk for lnk in ctx.state.links.values() if lnk.item_id == it.id), key=lambda lnk: (lnk.created, lnk.id)
    )
    out: dict[str, Any] = {"id": it.id, "name": it.name, "links": [link_view(ctx, lnk) for lnk in links]}
    if it.revoked_links:
        out["revoked_links"] = [revoked_view(ctx, r) for r in it.revoked_links]
    return out


@app.action(read_only=False)
def revoke_sharing_link(ctx: Context[OneDriveState], link: str) -> dict[str, Any]:
    """Delete a sharing link; whoever had it can no longer open the item through it.

    The link no longer opens the item and leaves its links; the item's link history keeps the revocation
    (which link, when and by whom: "revoked_links" in list-sharing-links).

    Example:
        link="lnk_lodge_contract_public" -> {"revoked": "lnk_lodge_contract_public", "item_id": "itm_lodge_contract"}.

    Args:
        link: The link's id (from list-sharing-links) or its full URL.

    Returns:
        {"revoked": link id, "item_id", "remaining": [links left on the item]}.
    """
    found = find_link(ctx, link)
    item = ctx.state.items[found.item_id]
    require_edit(ctx, item, "link")
    del ctx.state.links[found.id]
    gone = RevokedLink(id=found.id, type=found.type, scope=found.scope, recipients=found.recipients,
                       created_by=found.created_by, revoked_at=ctx.now, revoked_by=ctx.user)  # fmt: skip
    item.revoked_links = [*item.revoked_links, gone]
    left = [link_view(ctx, lnk) for lnk in ctx.state.links.values() if lnk.item_id == item.id]
    return {"revoked": found.id, "item_id": item.id, "remaining": left}
