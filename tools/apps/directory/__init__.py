"""The people directory: who works here, their titles, departments and managers."""

from tools.apps.directory import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.directory import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.directory.app import app
from tools.apps.directory.state import DirectoryState, Person

__all__ = ["DirectoryState", "Person", "app"]
