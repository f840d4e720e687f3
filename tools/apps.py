"""The list of apps, in display order, and the registry built from it."""

from __future__ import annotations

import importlib

from tools import calendar, directory, drive, gmail
from tools.registry import App, Registry

__all__ = ["REGISTRY"]

# Apps being built land here as soon as their module exists (tools/<name>.py).
_LANDING = ("box", "onedrive", "sharepoint", "slack", "helpdesk")


def _landed() -> list[App]:
    found = []
    for name in _LANDING:
        try:
            module = importlib.import_module(f"tools.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"tools.{name}":
                raise
            continue
        found.append(module.app)
    return found


#: Every app this company offers.
REGISTRY = Registry.of([gmail.app, calendar.app, drive.app, *_landed(), directory.app])
