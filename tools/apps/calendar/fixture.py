"""Not moved yet: re-exports the fixture from its old module."""

from tools.fixtures.events import build

__all__ = ["build"]
