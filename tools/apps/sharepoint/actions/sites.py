"""SharePoint site actions: list and show sites."""

from __future__ import annotations

from typing import Any

from tools.apps.sharepoint._rules import (
    find_site,
    role_of,
)
from tools.apps.sharepoint._views import site_card, site_detail
from tools.apps.sharepoint.app import app
from tools.apps.sharepoint.state import SharePointState
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.text import SearchText, fold

__all__ = ["get_site", "list_sites"]


@app.action(read_only=True)
def list_sites(
    ctx: Context[SharePointState], query: SearchText = "", page: Page = 1, page_size: PageSize = 20
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
    return page_of([site_card(ctx, s) for s in hits], page, page_size)


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
    return site_detail(ctx, find_site(ctx, site))
