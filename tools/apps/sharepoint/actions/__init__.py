"""SharePoint's actions, one module per resource (see ../README.md); importing this package registers them all.

The order they are listed in is pinned in ``app.py``, whatever the order of the imports here.
"""

from tools.apps.sharepoint.actions import files, folders, lists, permissions, sites, trash

__all__ = ["files", "folders", "lists", "permissions", "sites", "trash"]
