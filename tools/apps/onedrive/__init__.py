"""Not moved yet: re-exports the app from its old module."""

from tools.onedrive import app

__all__ = ["app"]
