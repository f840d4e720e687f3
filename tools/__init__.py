"""The office apps, their state, and the registry that turns every action into a tool.

``REGISTRY`` holds every app; ``COMPLETE_TASK`` is the app-less action that
ends the work. ``new_world`` builds a session's world from the default fixture.
"""

from tools.apps import REGISTRY
from tools.completion import complete_task as COMPLETE_TASK  # noqa: N812
from tools.exceptions import AppError, Conflict, InvalidArgument, NotFound
from tools.registry import Action, App, Registry
from tools.world import AppState, Context, FileStore, Record, World

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
]
