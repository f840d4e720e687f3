"""The mail app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.gmail.state import GmailState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "gmail",
    GmailState,
    "Company mail: search, read, send, reply to and forward messages; drafts, labels, filters and a vacation reply.",
)
