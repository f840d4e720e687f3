"""OneDrive's actions, one module per group; importing this package registers them all, in this order."""

from tools.apps.onedrive.actions import browse, files, history, sharing

__all__ = ["browse", "files", "history", "sharing"]
