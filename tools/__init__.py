"""The office apps, their state, and the registry that turns every action into a tool.

``REGISTRY`` holds every app; ``COMPLETE_TASK`` is the app-less action that ends the work.
``gateway.control.rows`` builds a session's world from a task row. Importing this package loads
nothing: each name is imported on first use (``REGISTRY`` imports every app).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tools.apps import REGISTRY
    from tools.kernel.completion import complete_task as COMPLETE_TASK  # noqa: N812
    from tools.kernel.exceptions import AppError, Conflict, InvalidArgument, NotFound, quote, shorten
    from tools.kernel.registry import Action, App, Registry
    from tools.kernel.world import AppState, Context, FileStore, Record, World

__all__ = [
    "COMPLETE_TASK",
    "REGISTRY",
    "Action",
    "App",
    "AppError",
    "AppState",
    "Conflict",
    "Context",
    "FileStore",
    "InvalidArgument",
    "NotFound",
    "Record",
    "Registry",
    "World",
    "quote",
    "shorten",
]

#: Where each public name lives: (module, attribute).
_HOMES: dict[str, tuple[str, str]] = {
    "COMPLETE_TASK": ("tools.kernel.completion", "complete_task"),
    "REGISTRY": ("tools.apps", "REGISTRY"),
    "Action": ("tools.kernel.registry", "Action"),
    "App": ("tools.kernel.registry", "App"),
    "Registry": ("tools.kernel.registry", "Registry"),
    "AppError": ("tools.kernel.exceptions", "AppError"),
    "Conflict": ("tools.kernel.exceptions", "Conflict"),
    "InvalidArgument": ("tools.kernel.exceptions", "InvalidArgument"),
    "NotFound": ("tools.kernel.exceptions", "NotFound"),
    "quote": ("tools.kernel.exceptions", "quote"),
    "shorten": ("tools.kernel.exceptions", "shorten"),
    "AppState": ("tools.kernel.world", "AppState"),
    "Context": ("tools.kernel.world", "Context"),
    "FileStore": ("tools.kernel.world", "FileStore"),
    "Record": ("tools.kernel.world", "Record"),
    "World": ("tools.kernel.world", "World"),
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tools' has no attribute {name!r}")
    value = getattr(importlib.import_module(home[0]), home[1])
    globals()[name] = value
    return value
