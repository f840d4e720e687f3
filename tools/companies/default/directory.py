"""The directory's part of the default company: the people, as authored in ``tools.companies.default.people``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

__all__ = ["build"]


def build(people: list[dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """The directory's initial state: ``{"people": {id: person}}`` as given."""
    del now, user  # the directory has no dated records and no owner
    return {"people": people}
