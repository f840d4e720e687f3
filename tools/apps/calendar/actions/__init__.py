"""The calendar's actions, one module per group; importing this package registers them all, in this order."""

from tools.apps.calendar.actions import reading, writing, free_time, rooms  # noqa: I001  (registration order)

__all__ = ["free_time", "reading", "rooms", "writing"]
