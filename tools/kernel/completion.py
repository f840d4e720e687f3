"""The one action that belongs to no app: saying the work is done."""

from __future__ import annotations

from typing import Any

from tools.kernel.registry import build_action
from tools.kernel.world import Context

__all__ = ["complete_task"]


def _complete_task(ctx: Context[Any], summary: str = "") -> dict[str, Any]:
    """Say that you have finished what you were asked to do.

    Call this once, after the work is done. If you were asked a question, put the
    answer in the summary. You may not be able to make further changes afterwards.

    Example:
        summary="Booked Room 4B for Thursday 10:00 and invited Priya and Owen."

    Args:
        summary: A short note of what you did, or the answer you were asked for.

    Returns:
        {"done": true, "summary": the summary as recorded}.
    """
    ctx.world.completion = summary
    return {"done": True, "summary": summary}


#: ``company_complete_task`` (app ``""``): records the summary on the world.
complete_task = build_action("", _complete_task, read_only=False, name="complete_task")
