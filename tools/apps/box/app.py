"""The Box app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.box.state import BoxState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "box",
    BoxState,
    "Box, the company's file store for contracts, invoices and partner files: folders, versions, "
    "collaborators, shared links and comments.",
    order=(
        "list_folder",
        "get_item",
        "search",
        "download_file",
        "list_versions",
        "upload_file",
        "upload_version",
        "promote_version",
        "create_folder",
        "move_item",
        "copy_item",
        "rename_item",
        "trash_item",
        "list_trash",
        "restore_item",
        "list_collaborations",
        "invite_collaborator",
        "update_collaboration",
        "remove_collaboration",
        "create_shared_link",
        "remove_shared_link",
        "list_comments",
        "add_comment",
        "delete_comment",
    ),
)
