"""OneDrive: your personal file store, with folders, versions, a recycle bin, and sharing."""

from tools.apps.onedrive import actions as _actions  # noqa: F401  (registers the actions on the app)
from tools.apps.onedrive import outcomes as _outcomes  # noqa: F401  (registers the outcomes on the app)
from tools.apps.onedrive.app import app
from tools.apps.onedrive.state import DriveItem, OneDriveState, Permission, SharingLink, Version

__all__ = ["DriveItem", "OneDriveState", "Permission", "SharingLink", "Version", "app"]
