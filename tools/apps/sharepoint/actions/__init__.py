"""SharePoint's actions, one module per group; importing this package registers them all (in this order)."""

from tools.apps.sharepoint.actions import sites, files, lists  # noqa: I001  (registration order = tool-list order)

__all__ = ["files", "lists", "sites"]
