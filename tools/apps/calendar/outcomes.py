"""What grading may read of the calendar's final state: outcomes the user wants, however they came about."""

from __future__ import annotations

from tools.apps.calendar.app import app
from tools.apps.calendar.state import CalendarState
from tools.kits.text import fold

__all__ = ["booked_rooms"]


@app.outcome
def booked_rooms(state: CalendarState, title: str) -> list[str]:
    """The names of the rooms booked by events whose title contains ``title`` (case folded).

    A room is booked when an event reserves it (its ``room``), whether it was named when the event was
    created or added later; a room only written into the location is not booked.
    """
    names = {room.id: room.name for room in state.rooms.values()}
    return sorted({names.get(e.room, e.room) for e in state.events.values() if e.room and fold(title) in fold(e.title)})
