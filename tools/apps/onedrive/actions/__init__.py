"""OneDrive's actions, one module per resource (see ../README.md); importing this package registers them all.

The order they are listed in is pinned in ``app.py``, whatever the order of the imports here.
"""

from tools.apps.onedrive.actions import files, folders, links, permissions, trash, versions

__all__ = ["files", "folders", "links", "permissions", "trash", "versions"]
