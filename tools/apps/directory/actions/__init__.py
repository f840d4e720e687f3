"""The directory's actions, one module per group; importing this package registers them all."""

from tools.apps.directory.actions import people

__all__ = ["people"]
