"""Thread actions: read a whole conversation, its messages oldest first."""

from __future__ import annotations

from typing import Any

from tools.apps.gmail._views import full_view
from tools.apps.gmail.app import app
from tools.apps.gmail.state import GmailState
from tools.kernel.exceptions import NotFound
from tools.kernel.world import Context

__all__ = ["get_thread"]


@app.action(read_only=True)
def get_thread(ctx: Context[GmailState], thread_id: str) -> dict[str, Any]:
    """Read a whole conversation, oldest message first.

    Example:
        thread_id="thr_0007" -> every message of that conversation with its body.

    Args:
        thread_id: The thread's id (the thread_id of any message in it), or the id of one of its messages.

    Returns:
        {"thread_id", "subject", "messages": [full message as gmail get-message shows it, each body at most
        5,000 characters here; read the rest with gmail get-message and body_offset]}.
    """
    key = thread_id.strip()
    state = ctx.state
    if key in state.messages:
        key = state.messages[key].thread_id
    msgs = sorted((m for m in state.messages.values() if m.thread_id == key), key=lambda m: m.date)
    if not msgs:
        raise NotFound(f"no thread with id '{thread_id}'; use gmail search-messages to find thread ids", "thread_id")
    return {"thread_id": key, "subject": msgs[0].subject, "messages": [full_view(ctx, m, part=5_000) for m in msgs]}
