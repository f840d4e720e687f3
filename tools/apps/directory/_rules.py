"""Lookups the directory's actions share."""

from __future__ import annotations

from tools.apps.directory.state import DirectoryState, Person
from tools.kits.people import find_person

__all__ = ["manager_of", "reports_of"]


def manager_of(state: DirectoryState, person: Person) -> Person | None:
    """The person ``person`` reports to, or None when they report to no one."""
    return find_person(state, person.manager, "person") if person.manager else None


def reports_of(state: DirectoryState, person: Person) -> list[Person]:
    """Everyone whose manager is ``person``, sorted by name."""
    return sorted((q for q in state.people.values() if q.manager == person.email), key=lambda q: q.name)
