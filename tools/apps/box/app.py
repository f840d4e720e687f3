"""The Box app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.box.state import BoxState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "box",
    BoxState,
    "Box, the company's file store for contracts, invoices and partner files: folders, versions, "
    "collaborators, shared links and comments.",
)
