"""The OneDrive app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.onedrive.state import OneDriveState
from tools.kernel.registry import App

__all__ = ["app"]

app = App("onedrive", OneDriveState, "Your OneDrive: personal files and folders, versions, recycle bin and sharing.")
