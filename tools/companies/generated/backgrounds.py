"""Every app's background in a generated company, by app: ``build(company, rng)`` -> the app's records."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tools.companies.base import Company
from tools.companies.generated import box, calendar, drive, gmail, helpdesk, onedrive, sharepoint, slack

__all__ = ["BACKGROUNDS"]

#: The apps with a background; the directory is the org chart itself, and an app not listed starts empty.
BACKGROUNDS: dict[str, Callable[[Company, random.Random], dict[str, Any]]] = {
    "gmail": gmail.build,
    "calendar": calendar.build,
    "drive": drive.build,
    "box": box.build,
    "onedrive": onedrive.build,
    "sharepoint": sharepoint.build,
    "slack": slack.build,
    "helpdesk": helpdesk.build,
}
