"""The office apps, one package each with the same module names (see README.md), and the registry of them all."""

from __future__ import annotations

from tools.apps import box, calendar, directory, drive, gmail, helpdesk, onedrive, sharepoint, slack
from tools.kernel.registry import Registry

__all__ = ["REGISTRY"]

#: Every app this company offers.
REGISTRY = Registry.of(
    [gmail.app, calendar.app, drive.app, box.app, onedrive.app, sharepoint.app, slack.app, helpdesk.app, directory.app]
)
