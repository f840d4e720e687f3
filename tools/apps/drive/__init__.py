"""Not moved yet: re-exports the app from its old module."""

from tools.drive import app

__all__ = ["app"]
