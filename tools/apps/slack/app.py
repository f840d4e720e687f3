"""The chat app object; its actions live in ``actions/<resource>.py``, listed in ``order``."""

from __future__ import annotations

from tools.apps.slack.state import SlackState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "slack",
    SlackState,
    "The company chat: channels, direct messages, threads, reactions, pins, shared files and statuses.",
    order=(
        "list_channels",
        "get_channel",
        "list_members",
        "create_channel",
        "join_channel",
        "leave_channel",
        "invite_to_channel",
        "set_channel_topic",
        "archive_channel",
        "post_message",
        "get_history",
        "get_thread",
        "reply_in_thread",
        "edit_message",
        "delete_message",
        "add_reaction",
        "remove_reaction",
        "open_dm",
        "search_messages",
        "pin_message",
        "unpin_message",
        "list_pins",
        "list_files",
        "upload_file",
        "download_file",
        "get_user_status",
        "set_my_status",
    ),
)
