"""Directory actions on people: search people, show a card, a manager, direct reports."""

from __future__ import annotations

from typing import Any

from tools.apps.directory._rules import manager_of, reports_of
from tools.apps.directory._views import card
from tools.apps.directory.app import app
from tools.apps.directory.state import DirectoryState
from tools.kernel.world import Context
from tools.kits.paging import Page, PageSize, page_of
from tools.kits.people import find_person
from tools.kits.text import SearchText, fold

__all__ = ["get_manager", "get_person", "list_direct_reports", "search_people"]


@app.action(read_only=True)
def search_people(
    ctx: Context[DirectoryState],
    query: SearchText = "",
    department: str = "",
    title: str = "",
    page: Page = 1,
    page_size: PageSize = 20,
) -> dict[str, Any]:
    """Search the directory by name, email, department or title.

    Every given filter must match (case-insensitive, partial words are fine).
    Results are sorted by name.

    Example:
        query="priya" department="Finance" -> Priya's card with her email and manager.

    Args:
        query: Words to find in a person's name or email address.
        department: Part of a department name, e.g. "Finance".
        title: Part of a job title, e.g. "Engineer".
        page: Page number, starting at 1.
        page_size: People per page.

    Returns:
        {"results": [person], "page", "page_size", "total", "next_page"}.
    """
    q, d, t = fold(query), fold(department), fold(title)
    hits = [
        p
        for p in ctx.state.people.values()
        if (not q or q in fold(p.name) or q in p.email.lower())
        and (not d or d in fold(p.department))
        and (not t or t in fold(p.title))
    ]
    hits.sort(key=lambda p: p.name)
    return page_of([card(p) for p in hits], page, page_size)


@app.action(read_only=True)
def get_person(ctx: Context[DirectoryState], person: str) -> dict[str, Any]:
    """Show one person's directory card.

    Example:
        person="priya.shah@northwind.example" -> name, title, department, manager, phone, location.

    Args:
        person: The person's email address, directory id or full name.

    Returns:
        The person's card.
    """
    return card(find_person(ctx.state, person, "person"))


@app.action(read_only=True)
def get_manager(ctx: Context[DirectoryState], person: str) -> dict[str, Any]:
    """Show who a person reports to.

    Example:
        person="liam.chen@northwind.example" -> the card of Liam's manager.

    Args:
        person: The person's email address, directory id or full name.

    Returns:
        {"person": email, "manager": card or null when they report to no one}.
    """
    p = find_person(ctx.state, person, "person")
    manager = manager_of(ctx.state, p)
    return {"person": p.email, "manager": card(manager) if manager else None}


@app.action(read_only=True)
def list_direct_reports(ctx: Context[DirectoryState], person: str) -> dict[str, Any]:
    """List the people who report directly to someone.

    Example:
        person="Dana Whitfield" -> everyone whose manager is Dana, sorted by name.

    Args:
        person: The manager's email address, directory id or full name.

    Returns:
        {"manager": email, "reports": [card]}.
    """
    p = find_person(ctx.state, person, "person")
    return {"manager": p.email, "reports": [card(q) for q in reports_of(ctx.state, p)]}
