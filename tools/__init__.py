"""The office apps, their state, and the registry that turns every action into a tool.

``REGISTRY`` holds every app; ``COMPLETE_TASK`` is the app-less action that
ends the work. ``gateway.control.tasks`` builds a session's world from a task row.
"""

# isort: off
# The app modules import names from this package, so REGISTRY (which imports every app) comes last.
from tools.kernel.completion import complete_task as COMPLETE_TASK  # noqa: N812
from tools.kernel.exceptions import AppError, Conflict, InvalidArgument, NotFound, quote, shorten
from tools.kernel.registry import Action, App, Registry
from tools.kernel.world import AppState, Context, FileStore, Record, World
from tools.apps import REGISTRY
# isort: on

__all__ = [
    "COMPLETE_TASK",
    "REGISTRY",
    "Action",
    "App",
    "AppError",
    "AppState",
    "Conflict",
    "Context",
    "FileStore",
    "InvalidArgument",
    "NotFound",
    "Record",
    "Registry",
    "World",
    "quote",
    "shorten",
]
