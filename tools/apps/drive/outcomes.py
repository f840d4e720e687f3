"""What grading may read of the drive's final state: outcomes the user wants, however they came about."""

from __future__ import annotations

from tools.apps.drive._rules import access
from tools.apps.drive.app import app
from tools.apps.drive.state import DriveState

__all__ = ["effective_role"]


@app.outcome
def effective_role(state: DriveState, item: str, person: str) -> str | None:
    """``person``'s effective role on ``item``: shared directly, through a folder above it, or a shared drive.

    Returns:
        ``"owner"``, ``"organizer"``, ``"writer"``, ``"commenter"`` or ``"reader"``; None when the item is
        gone (missing or trashed) or the person has no access.
    """
    f = state.files.get(item)
    if f is None or f.trashed:
        return None
    return access(state, f, person)
