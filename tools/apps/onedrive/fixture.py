"""Not moved yet: re-exports the fixture from its old module."""

from tools.fixtures.onedrive import build

__all__ = ["build"]
