"""SharePoint site actions: list and show sites, list members, grant and revoke access."""

from __future__ import annotations

import re
from typing import Any, Literal

from tools.apps.sharepoint.state import (
    ROLES,
    Member,
    SharePointState,
    Site,
    app,
    find_site,
    person_name,
    require_role,
    role_of,
)
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound
from tools.kernel.world import Context, format_instant
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.people import DirectoryState, find_person
from tools.kits.text import fold, require_text

__all__ = ["get_site", "grant_access", "list_members", "list_sites", "revoke_access"]

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _site_card(ctx: Context[SharePointState], s: Site) -> dict[str, Any]:
    return {
        "id": s.id,
        "name": s.name,
        "url": s.url,
        "description": s.description,
        "your_role": role_of(s, ctx.user),
        "members": len(s.members),
    }


def _member_card(ctx: Context[SharePointState], s: Site, m: Member) -> dict[str, Any]:
    domain = ctx.user.rsplit("@", 1)[-1].lower()
    return {
        "email": m.email,
        "name": person_name(ctx, m.email),
        "role": m.role,
        "guest": not m.email.lower().endswith("@" + domain),
    }


@app.action(read_only=True)
def list_sites(
    ctx: Context[SharePointState], query: str = "", page: Page = 1, page_size: PageSize = 20
) -> dict[str, Any]:
    """List the team sites you belong to, by name.

    Example:
        query="atlas" -> the Atlas Program site with its address and your role there.

    Args:
        query: Words to find in a site's name or description.
        page: Page number, starting at 1.
        page_size: Sites per page.

    Returns:
        {"results": [{"id", "name", "url", "description", "your_role", "members" (count)}], "page", "page_size",
        "total", "next_page"}.
    """
    words = fold(query).split()
    hits = [
        s
        for s in ctx.state.sites.values()
        if role_of(s, ctx.user) and all(w in fold(s.name + " " + s.description) for w in words)
    ]
    hits.sort(key=lambda s: fold(s.name))
    return page_of([_site_card(ctx, s) for s in hits], page, page_size)


@app.action(read_only=True)
def get_site(ctx: Context[SharePointState], site: str) -> dict[str, Any]:
    """Show a site: its document libraries, its lists, its owners and your role.

    Example:
        site="Finance" -> libraries (Documents, ...), lists (Invoice tracker), owners, your_role "contribute".

    Args:
        site: The site's name (e.g. "Operations"), id or address.

    Returns:
        {"id", "name", "url", "description", "created", "your_role", "owners": [email], "members" (count),
        "libraries": [{"id", "name", "description", "files"}], "lists": [{"id", "name", "description", "items"}],
        "recycle_bin" (items waiting there)}.
    """
    s = find_site(ctx, site)
    st = ctx.state
    libraries = [
        {
            "id": lib.id,
            "name": lib.name,
            "description": lib.description,
            "files": sum(1 for f in st.files.values() if f.library_id == lib.id and f.kind == "file" and not f.deleted),
        }
        for lib in st.libraries.values()
        if lib.site_id == s.id
    ]
    lists = [
        {
            "id": li.id,
            "name": li.name,
            "description": li.description,
            "items": sum(1 for i in st.items.values() if i.list_id == li.id),
        }
        for li in st.lists.values()
        if li.site_id == s.id
    ]
    return {
        **_site_card(ctx, s),
        "created": format_instant(s.created, ctx.tz),
        "owners": [m.email for m in s.members if m.role == "full_control"],
        "libraries": sorted(libraries, key=lambda x: fold(x["name"])),
        "lists": sorted(lists, key=lambda x: fold(x["name"])),
        "recycle_bin": sum(1 for f in st.files.values() if f.site_id == s.id and f.deleted and not f.deleted_with),
    }


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
    out = page_of([_member_card(ctx, s, m) for m in hits], page, page_size)
    return {"site": s.name, "your_role": role_of(s, ctx.user), **out}


def _resolve_member(ctx: Context[SharePointState], who: str, parameter: str) -> str:
    """An email address for ``who``: a colleague by name, id or email, or a guest's outside address."""
    text = require_text(who, parameter)
    domain = ctx.user.rsplit("@", 1)[-1].lower()
    directory = ctx.other("directory")
    if "@" in text and not text.lower().endswith("@" + domain):
        if not _EMAIL.match(text):
            raise InvalidArgument(f"'{who}' is not an email address; use e.g. kim.lau@adatum.example", parameter)
        return text.lower()
    if isinstance(directory, DirectoryState):
        return find_person(directory, text, parameter).email.lower()
    if not _EMAIL.match(text):
        raise InvalidArgument(f"'{who}' is not an email address; give the person's email", parameter)
    return text.lower()


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
    email = _resolve_member(ctx, person, "person")
    require_role(ctx, s, "full_control", "site")
    current = next((m for m in s.members if m.email.lower() == email), None)
    previous = current.role if current else None
    if current is not None and previous == "full_control" and role != "full_control":
        _keep_an_owner(s, email, "role")
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


def _keep_an_owner(s: Site, email: str, parameter: str) -> None:
    if not any(m.role == "full_control" and m.email.lower() != email for m in s.members):
        raise Conflict(
            f"{email} is the last member with full_control of '{s.name}'; give someone else full_control first",
            parameter,
        )


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
    email = _resolve_member(ctx, person, "person")
    current = next((m for m in s.members if m.email.lower() == email), None)
    if current is None:
        raise NotFound(f"{email} is not a member of '{s.name}'; use sharepoint list-members", "person")
    require_role(ctx, s, "full_control", "site")
    if current.role == "full_control":
        _keep_an_owner(s, email, "person")
    s.members = [m for m in s.members if m is not current]
    return {"site": s.name, "removed": current.email, "role": current.role, "members": len(s.members)}
