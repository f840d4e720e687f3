"""The SharePoint app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.sharepoint.state import SharePointState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "sharepoint",
    SharePointState,
    "Team sites: document libraries with files and folders, lists with typed columns, and site permissions.",
)
