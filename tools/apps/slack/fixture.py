"""Not moved yet: re-exports the fixture from its old module."""

from tools.fixtures.slack import build

__all__ = ["build"]
