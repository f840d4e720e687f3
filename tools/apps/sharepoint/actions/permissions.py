"""SharePoint actions on site access: list a site's members, grant and revoke access."""

from __future__ import annotations

from typing import Any, Literal

from tools.apps.sharepoint._rules import (
    find_site,
    keep_an_owner,
    person_name,
    require_role,
    resolve_member,
    role_of,
)
from tools.apps.sharepoint._views import member_card
from tools.apps.sharepoint.app import app
from tools.apps.sharepoint.state import ROLES, Member, SharePointState
from tools.kernel.exceptions import NotFound
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of

__all__ = ["grant_access", "list_members", "revoke_access"]


@app.action(read_only=True)
def list_members(
    ctx: Context[SharePointState],
    site: str,
    role: Literal["", "read", "contribute", "edit", "full_control"] = "",
    page: Page = 1,
    page_size: PageSize = 50,
) -> dict[str, Any]:
    """List who can use a site and with which role, most access first.

    Roles: read (open and download), contribute (add, change and delete files and list items),
    edit (contribute, plus changing lists), full_control (everything, including who has access).
    Guests are people from outside the company.

    Example:
        site="Atlas Program" role="contribute" -> the engineers who can add files and list items there.

    Args:
        site: The site's name, id or address.
        role: Only members with this role.
        page: Page number, starting at 1.
        page_size: Members per page.

    Returns:
        {"site", "your_role", "results": [{"email", "name", "role", "guest"}], "page", "page_size", "total",
        "next_page"}.
    """
    s = find_site(ctx, site)
    hits = [m for m in s.members if not role or m.role == role]
    hits.sort(key=lambda m: (-ROLES.index(m.role), m.email))
    out = page_of([member_card(ctx, m) for m in hits], page, page_size)
    return {"site": s.name, "your_role": role_of(s, ctx.user), **out}


@app.action(read_only=False)
def grant_access(
    ctx: Context[SharePointState],
    site: str,
    person: str,
    role: Literal["read", "contribute", "edit", "full_control"] = "read",
) -> dict[str, Any]:
    """Give someone access to a site, or set the role they already have (this can lower it).

    Colleagues are found in the directory by name or email; an outside email address is added as a guest.
    You need full_control on the site.

    Example:
        site="Atlas Program" person="chloe.nguyen@northwind.example" role="contribute" -> her new role.

    Args:
        site: The site's name, id or address.
        person: The person's email address, or a colleague's full name.
        role: read (open and download), contribute (add, change and delete files and list items), edit
            (contribute plus changing lists) or full_control (also manages access).

    Returns:
        {"site", "email", "name", "role", "previous_role" (null if newly added), "members" (count)}.
    """
    s = find_site(ctx, site)
    email = resolve_member(ctx, person, "person")
    require_role(ctx, s, "full_control", "site")
    current = next((m for m in s.members if m.email.lower() == email), None)
    previous = current.role if current else None
    if current is not None and previous == "full_control" and role != "full_control":
        keep_an_owner(s, email, "role")
    if current is None:
        s.members = [*s.members, Member(email=email, role=role)]
    elif current.role != role:
        s.members = [Member(email=m.email, role=role) if m is current else m for m in s.members]
    return {
        "site": s.name,
        "email": email,
        "name": person_name(ctx, email),
        "role": role,
        "previous_role": previous,
        "members": len(s.members),
    }


@app.action(read_only=False)
def revoke_access(ctx: Context[SharePointState], site: str, person: str) -> dict[str, Any]:
    """Remove someone's access to a site. You need full_control on the site.

    Example:
        site="Atlas Program" person="kim.lau@adatum.example" -> {"removed": "kim.lau@adatum.example", ...}.

    Args:
        site: The site's name, id or address.
        person: The member's email address, or a colleague's full name.

    Returns:
        {"site", "removed": email, "role" (the role they had), "members" (count left)}.
    """
    s = find_site(ctx, site)
    email = resolve_member(ctx, person, "person")
    current = next((m for m in s.members if m.email.lower() == email), None)
    if current is None:
        raise NotFound(f"{email} is not a member of '{s.name}'; use sharepoint list-members", "person")
    require_role(ctx, s, "full_control", "site")
    if current.role == "full_control":
        keep_an_owner(s, email, "person")
    s.members = [m for m in s.members if m is not current]
    return {"site": s.name, "removed": current.email, "role": current.role, "members": len(s.members)}
