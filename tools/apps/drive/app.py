"""The drive app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.drive.state import DriveState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "drive",
    DriveState,
    "The company drive: folders and files in My Drive and shared drives, with sharing, versions and comments.",
)
