"""Directory actions on departments: list them with their head counts."""

from __future__ import annotations

from typing import Any

from tools.apps.directory.app import app
from tools.apps.directory.state import DirectoryState
from tools.kernel.world import Context

__all__ = ["list_departments"]


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
