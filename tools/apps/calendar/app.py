"""The calendar app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.calendar.state import CalendarState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "calendar",
    CalendarState,
    "The company calendar: meetings, repeating series, meeting rooms, invitations, responses and free time.",
)
