"""Not moved yet: re-exports the app from its old module."""

from tools.slack import app

__all__ = ["app"]
