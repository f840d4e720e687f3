"""The one action that belongs to no app: saying the work is done."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from tools.kernel.registry import build_action
from tools.kernel.world import Context

__all__ = ["MAX_TEXT", "complete_task"]


#: Longest summary or answer taken, in characters.
MAX_TEXT = 4000


def _complete_task(
    ctx: Context[Any],
    summary: Annotated[str, Field(max_length=MAX_TEXT)] = "",
    answer: Annotated[str, Field(max_length=MAX_TEXT)] = "",
) -> dict[str, Any]:
    """Say that you have finished what you were asked to do.

    Call this once, after the work is done. If you were asked a question, put only
    the answer in `answer`: the names, numbers, dates or ids asked for and nothing
    else (no other names, no alternatives, no explanation). Anything else you want
    to say goes in `summary`. Leave `answer` empty when nothing was asked. You may
    not be able to make further changes afterwards.

    Example:
        summary="Looked up the team lead in the directory." answer="Jordan Lee, jordan.lee@example.com"

    Args:
        summary: A short note of what you did; context and explanations go here.
        answer: Only the answer to the question you were asked, if any: the names, numbers, dates or ids themselves.

    Returns:
        {"done": true, "summary": the summary as recorded, "answer": the answer as recorded}.
    """
    ctx.world.completion = summary
    ctx.world.answer = answer.strip() or None
    return {"done": True, "summary": summary, "answer": answer}


#: ``company_complete_task`` (app ``""``): records the summary on the world.
complete_task = build_action("", _complete_task, read_only=False, name="complete_task")
