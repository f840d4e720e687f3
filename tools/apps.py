"""The list of apps, in display order, and the registry built from it."""

from __future__ import annotations

from tools import box, calendar, directory, drive, gmail, helpdesk, onedrive, sharepoint, slack
from tools.registry import Registry

__all__ = ["REGISTRY"]

#: Every app this company offers.
REGISTRY = Registry.of(
    [gmail.app, calendar.app, drive.app, box.app, onedrive.app, sharepoint.app, slack.app, helpdesk.app, directory.app]
)
