"""The JSON shapes the directory's actions return."""

from __future__ import annotations

from typing import Any

from tools.apps.directory.state import Person

__all__ = ["card"]


def card(p: Person) -> dict[str, Any]:
    """A person's directory card: every field of the record."""
    return p.model_dump()
