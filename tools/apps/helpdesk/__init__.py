"""The helpdesk: requests to IT, Facilities, People Ops and Finance Ops, tracked as tickets."""

from tools.apps.helpdesk import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.helpdesk import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.helpdesk.app import app
from tools.apps.helpdesk.state import Attachment, Comment, HelpdeskState, Link, Queue, Ticket

__all__ = ["Attachment", "Comment", "HelpdeskState", "Link", "Queue", "Ticket", "app"]
