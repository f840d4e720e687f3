"""The chat app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.slack.state import SlackState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "slack",
    SlackState,
    "The company chat: channels, direct messages, threads, reactions, pins, shared files and statuses.",
)
