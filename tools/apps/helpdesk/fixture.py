"""Not moved yet: re-exports the fixture from its old module."""

from tools.fixtures.helpdesk import build

__all__ = ["build"]
