"""The SharePoint app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.sharepoint.state import SharePointState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "sharepoint",
    SharePointState,
    "Team sites: document libraries with files and folders, lists with typed columns, and site permissions.",
    order=(
        "list_sites",
        "get_site",
        "list_members",
        "grant_access",
        "revoke_access",
        "list_library",
        "search_files",
        "get_file",
        "download_file",
        "list_recycle_bin",
        "upload_file",
        "create_folder",
        "move_file",
        "rename_file",
        "delete_file",
        "restore_file",
        "list_lists",
        "get_list",
        "query_items",
        "create_item",
        "update_item",
        "delete_item",
    ),
)
