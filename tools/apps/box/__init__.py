"""Box: the company's file store for contracts, invoices and partner files."""

from tools.apps.box import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.box import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.box.app import app
from tools.apps.box.state import BoxState

__all__ = ["BoxState", "app"]
