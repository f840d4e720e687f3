"""The gateway: ASGI server, control plane, sessions, task content and grading.

Importing this package loads nothing: ``Gateway``, ``Settings`` and ``create_app`` are imported on
first use, so ``gateway.grading`` or a task family imports without the server.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gateway.control.core import Gateway
    from gateway.settings import Settings
    from gateway.surfaces.asgi import create_app

__all__ = ["Gateway", "Settings", "create_app"]

_HOMES = {
    "Gateway": "gateway.control.core",
    "Settings": "gateway.settings",
    "create_app": "gateway.surfaces.asgi",
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'gateway' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
