"""SharePoint: team sites with document libraries, lists with typed columns, and site permissions."""

from tools.apps.sharepoint import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.sharepoint.state import LibraryItem, ListItem, SharePointState, Site, app

__all__ = ["LibraryItem", "ListItem", "SharePointState", "Site", "app"]
