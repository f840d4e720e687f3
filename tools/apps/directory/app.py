"""The directory app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.directory.state import DirectoryState
from tools.kernel.registry import App

__all__ = ["app"]

app = App("directory", DirectoryState, "The company's people directory: names, titles, departments and managers.")
