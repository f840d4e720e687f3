"""The kernel every app stands on: the registry, the world, errors, blobs, documents and completion.

Nothing here knows an app. Apps (``tools.apps``) and kits (``tools.kits``) import from here;
the kernel imports neither.
"""

from tools.kernel.completion import complete_task
from tools.kernel.exceptions import AppError, Conflict, InvalidArgument, NotFound, quote
from tools.kernel.registry import TOOL_PREFIX, Action, App, Registry
from tools.kernel.world import AppState, Context, FileStore, Record, World

__all__ = [
    "TOOL_PREFIX",
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
    "complete_task",
    "quote",
]
