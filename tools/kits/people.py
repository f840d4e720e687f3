"""People lookups: the directory's records and the one way any app finds a person.

Apps never import the directory app; they read the world's directory through
:func:`directory_of` and resolve a name, email or id with :func:`find_person`.
"""

from __future__ import annotations

from typing import Any

from tools.kernel.exceptions import NotFound
from tools.kernel.world import AppState, Context, Record
from tools.kits.text import fold

__all__ = ["DirectoryState", "Person", "directory_of", "find_person", "known_emails"]


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


def directory_of(ctx: Context[Any]) -> DirectoryState | None:
    """The world's people directory, or None when this world has none."""
    directory = ctx.other("directory")
    return directory if isinstance(directory, DirectoryState) else None


def known_emails(ctx: Context[Any]) -> set[str] | None:
    """Every directory email, lower-cased; None when this world has no directory."""
    directory = directory_of(ctx)
    return None if directory is None else {p.email.lower() for p in directory.people.values()}


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
