"""SharePoint: team sites with document libraries, lists with typed columns, and site permissions."""

from tools.apps.sharepoint import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.sharepoint import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.sharepoint.app import app
from tools.apps.sharepoint.state import SharePointState

__all__ = ["SharePointState", "app"]
