"""The company drive: folders and files in My Drive and shared drives, with sharing, versions and comments."""

from tools.apps.drive import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.drive import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.drive.app import app
from tools.apps.drive.state import (
    Comment,
    DriveFile,
    DriveState,
    Member,
    Permission,
    Reply,
    SharedDrive,
    Version,
)

__all__ = ["Comment", "DriveFile", "DriveState", "Member", "Permission", "Reply", "SharedDrive", "Version", "app"]
