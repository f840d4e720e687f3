"""The drive app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.drive.state import DriveState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "drive",
    DriveState,
    "The company drive: folders and files in My Drive and shared drives, with sharing, versions and comments.",
    order=(
        "search_files",
        "list_folder",
        "get_file",
        "read_file",
        "download_file",
        "create_folder",
        "create_file",
        "upload_file",
        "update_file",
        "copy_file",
        "move_file",
        "rename_file",
        "trash_file",
        "restore_file",
        "list_permissions",
        "share_file",
        "remove_permission",
        "list_shared_drives",
        "list_versions",
        "restore_version",
        "list_comments",
        "add_comment",
        "reply_to_comment",
        "resolve_comment",
    ),
)
