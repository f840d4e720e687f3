"""The calendar app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.calendar.state import CalendarState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "calendar",
    CalendarState,
    "The company calendar: meetings, repeating series, meeting rooms, invitations, responses and free time.",
    order=(
        "list_events",
        "get_event",
        "create_event",
        "update_event",
        "delete_event",
        "respond_to_event",
        "find_free_slots",
        "list_rooms",
        "find_available_rooms",
    ),
)
