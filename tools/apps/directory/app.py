"""The directory app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.directory.state import DirectoryState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "directory",
    DirectoryState,
    "The company's people directory: names, titles, departments and managers.",
    order=(
        "search_people",
        "get_person",
        "get_manager",
        "list_direct_reports",
        "list_departments",
    ),
)
