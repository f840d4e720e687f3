"""The helpdesk app object; its actions live in ``actions/``."""

from __future__ import annotations

from tools.apps.helpdesk.state import HelpdeskState
from tools.kernel.registry import App

__all__ = ["app"]

app = App(
    "helpdesk",
    HelpdeskState,
    "The company's internal helpdesk: requests to IT, Facilities, People Ops and Finance Ops, tracked as tickets.",
)
