"""What a company is: its key, name, domain, clock, acting user, people and split (no records, nothing built)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

__all__ = ["Company", "CompanyError", "Split"]

Split = Literal["train", "validation", "test"]

class CompanyError(ValueError):
    """An unknown company key."""


@dataclass(frozen=True)
class Company:
    """Who and when a company is; its app states come from :func:`company_state`.

    Attributes:
        key: ``"default"`` or ``"gen-<n>"``.
        name: Display name, e.g. "Northwind Traders".
        domain: Mail domain, e.g. "northwind.example".
        now: The frozen clock worlds of this company start at (aware).
        timezone: The acting user's IANA zone.
        user: The acting user's email.
        people: The directory's people: id -> record (fields of :class:`tools.kits.people.Person`).
        split: ``train``, ``validation`` or ``test``: the split rows over this company belong to (at least).
    """

    key: str
    name: str
    domain: str
    now: datetime
    timezone: str
    user: str
    people: dict[str, dict[str, Any]]
    split: Split

    @property
    def user_record(self) -> dict[str, Any]:
        """The acting user's directory record."""
        return next(p for p in self.people.values() if p["email"] == self.user)
