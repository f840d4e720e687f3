"""Assembles the default company: every app's initial state as plain JSON values."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tools.companies.default import box, calendar, directory, drive, gmail, helpdesk, onedrive, sharepoint, slack
from tools.companies.default.people import DOMAIN, people_records

__all__ = ["APPS", "COMPANY", "DOMAIN", "NOW", "TIMEZONE", "USER", "build_default"]

COMPANY = "Northwind Traders"
TIMEZONE = "America/New_York"
#: The frozen "now" of the default fixture: Monday 9 March 2026, 09:00 in New York.
NOW = datetime(2026, 3, 9, 9, 0, tzinfo=ZoneInfo(TIMEZONE))
#: The person the agent acts as.
USER = f"alex.morgan@{DOMAIN}"


#: The default company's apps in build order, each with the builder of its part (``tools.companies.default.<app>``).
_BUILDERS: dict[str, Callable[..., dict[str, Any]]] = {
    "directory": directory.build,
    "gmail": gmail.build,
    "calendar": calendar.build,
    "drive": drive.build,
    "box": box.build,
    "onedrive": onedrive.build,
    "sharepoint": sharepoint.build,
    "slack": slack.build,
    "helpdesk": helpdesk.build,
}
APPS = tuple(_BUILDERS)


@functools.cache
def _build_app(app: str) -> dict[str, Any] | None:
    """One app's initial state (built once per process); None for an app this company does not have."""
    if app not in APPS:
        return None
    return dict(_BUILDERS[app](people_records(), NOW, USER))


def build_default(app: str | None = None) -> dict[str, Any]:
    """Return ``{app: state_dict}`` for every app of the default company, or for ``app`` only.

    Each call returns a fresh deep copy; an app is built on first use (documents included).
    """
    apps = [app] if app else list(APPS)
    out = {}
    for name in apps:
        state = _build_app(name)
        if state is not None:
            out[name] = copy.deepcopy(state)
    return out
