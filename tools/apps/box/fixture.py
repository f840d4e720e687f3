"""Not moved yet: re-exports the fixture from its old module."""

from tools.fixtures.box import build

__all__ = ["build"]
