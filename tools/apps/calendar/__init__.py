"""The company calendar: meetings, repeating series, meeting rooms, invitations, responses and free time."""

from tools.apps.calendar import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.calendar import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.calendar.app import app
from tools.apps.calendar.state import Attendee, CalendarState, Event, Room

__all__ = ["Attendee", "CalendarState", "Event", "Room", "app"]
