"""Not moved yet: re-exports the fixture from its old module."""

from tools.fixtures.files import build

__all__ = ["build"]
