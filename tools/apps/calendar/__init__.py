"""The company calendar (moved, not yet split into the app shape): re-exports the app from its action module."""

from tools.apps.calendar.actions.writing import Attendee, CalendarState, Event, Room, app

__all__ = ["Attendee", "CalendarState", "Event", "Room", "app"]
