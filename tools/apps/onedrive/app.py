"""The OneDrive app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.onedrive.state import OneDriveState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "onedrive",
    OneDriveState,
    "Your OneDrive: personal files and folders, versions, recycle bin and sharing.",
    order=(
        "list_children",
        "get_item",
        "search_items",
        "list_recent",
        "download_file",
        "create_folder",
        "upload_file",
        "copy_item",
        "move_item",
        "rename_item",
        "list_versions",
        "delete_item",
        "list_recycle_bin",
        "restore_item",
        "restore_version",
        "list_shared_with_me",
        "list_permissions",
        "grant_access",
        "remove_permission",
        "create_sharing_link",
        "list_sharing_links",
        "revoke_sharing_link",
    ),
)
