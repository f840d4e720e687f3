"""Not moved yet: re-exports the app from its old module."""

from tools.sharepoint import app

__all__ = ["app"]
