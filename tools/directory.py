"""The people directory: who works here, their titles, departments and managers."""

from __future__ import annotations

from typing import Any

from tools.common import Page, PageSize, fold, page_of
from tools.exceptions import NotFound
from tools.registry import App
from tools.world import AppState, Context, Record

__all__ = ["DirectoryState", "Person", "app", "find_person"]


class Person(Record):
    """One employee."""

    id: str
    name: str
    email: str
    title: str
    department: str
    manager: str | None = None  # the manager's email
    phone: str = ""
    location: str = ""
    timezone: str = "America/New_York"


class DirectoryState(AppState):
    """Everyone in the company, keyed by person id."""

    people: dict[str, Person] = {}


app = App("directory", DirectoryState, "The company's people directory: names, titles, departments and managers.")


def find_person(state: DirectoryState, who: str, parameter: str) -> Person:
    """Find a person by id, email address or exact full name (case-insensitive).

    Raises:
        NotFound: No one matches; the message says how to search.
    """
    key = fold(who)
    for person in state.people.values():
        if key in (person.id.lower(), person.email.lower(), fold(person.name)):
            return person
    raise NotFound(
        f"no one in the directory matches '{who}'; use directory search-people to find the right email", parameter
    )


def _card(p: Person) -> dict[str, Any]:
    return p.model_dump()


@app.action(read_only=True)
def search_people(
    ctx: Context[DirectoryState],
    query: str = "",
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
    return page_of([_card(p) for p in hits], page, page_size)


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
    return _card(find_person(ctx.state, person, "person"))


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
    manager = find_person(ctx.state, p.manager, "person") if p.manager else None
    return {"person": p.email, "manager": _card(manager) if manager else None}


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
    reports = sorted((q for q in ctx.state.people.values() if q.manager == p.email), key=lambda q: q.name)
    return {"manager": p.email, "reports": [_card(q) for q in reports]}


@app.action(read_only=True)
def list_departments(ctx: Context[DirectoryState]) -> dict[str, Any]:
    """List every department with its head count.

    Example:
        (no parameters) -> [{"name": "Finance", "people": 6}, ...].

    Returns:
        {"departments": [{"name", "people"}]} sorted by name.
    """
    counts: dict[str, int] = {}
    for p in ctx.state.people.values():
        counts[p.department] = counts.get(p.department, 0) + 1
    return {"departments": [{"name": n, "people": c} for n, c in sorted(counts.items())]}
