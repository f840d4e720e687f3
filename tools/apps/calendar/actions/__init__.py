"""The calendar's actions, one module per resource (see ../README.md); importing this package registers them all.

The order they are listed in is pinned in ``app.py``, whatever the order of the imports here.
"""

from tools.apps.calendar.actions import events, free_busy, rooms

__all__ = ["events", "free_busy", "rooms"]
