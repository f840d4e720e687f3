"""What ``POST /reference_solution`` answers: a live session's task id and the plays a scripted model needs.

A scripted model (``company-gateway model``) sees only what a harness sends it: the conversation, whose
user messages hold the task's instruction. It asks the control plane which live session that instruction
belongs to, and gets the steps to play: the row's reference solution and its first negative control (a
plausible wrong play that the row's own proof scores 0.0). Only trusted control-plane clients reach this
(the route is guarded like every control route); nothing a sandbox or a session's token can reach answers it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gateway.control.rows import Step
from gateway.control.sessions import LIVE, Session
from gateway.exceptions import GatewayError, UnknownSession

__all__ = ["MAX_INSTRUCTION_CHARS", "reference_solution"]

#: Longest ``instruction`` text the route reads (characters): a harness's whole first prompt fits.
MAX_INSTRUCTION_CHARS = 200_000


def _steps(steps: list[Step]) -> list[dict[str, Any]]:
    return [step.model_dump(mode="json") for step in steps]


def reference_solution(
    sessions: Iterable[Session], *, instruction: Any = None, session_id: Any = None
) -> dict[str, Any]:
    """The live session named by ``session_id``, or whose task's instruction is inside ``instruction``.

    Several live sessions may carry the same instruction (one task seeded many times): they share their
    task, so the answer is the same but for ``session_id``, the newest of them; ``matches`` counts them.
    When the instructions of different tasks are all inside the text, the longest one wins.

    Args:
        sessions: The sessions the server holds.
        instruction: Text that contains a task's instruction (a harness's user messages), or None.
        session_id: A session's id, or None; exactly one of the two is given.

    Returns:
        ``{"session_id", "task_id", "instruction", "exposure", "matches", "solution": [steps],
        "negative_control": {"name", "steps"} or null}``, each step ``{"tool", "args", "save"}``.

    Raises:
        GatewayError: neither or both given, or not a non-empty string (400).
        UnknownSession: no live session matches (404).
    """
    if (instruction is None) == (session_id is None):
        raise GatewayError("give exactly one of 'instruction' (text holding a task's instruction) and 'session_id'")
    live = [s for s in sessions if s.status in LIVE]
    if session_id is not None:
        if not isinstance(session_id, str) or not session_id:
            raise GatewayError("session_id: must be a non-empty string returned by /seed_session")
        found = [s for s in live if s.id == session_id]
        if not found:
            raise UnknownSession("session_id: no live session has that id")
    else:
        if not isinstance(instruction, str) or not instruction:
            raise GatewayError("instruction: must be a non-empty string holding a task's instruction")
        if len(instruction) > MAX_INSTRUCTION_CHARS:
            raise GatewayError(f"instruction: at most {MAX_INSTRUCTION_CHARS} characters")
        found = [s for s in live if s.task.instruction in instruction]
        if not found:
            raise UnknownSession("instruction: no live session's task instruction is in this text")
        longest = max(len(s.task.instruction) for s in found)
        found = [s for s in found if len(s.task.instruction) == longest]
    session = found[-1]
    task = session.task
    control = task.negative_controls[0] if task.negative_controls else None
    return {
        "session_id": session.id,
        "task_id": task.id,
        "instruction": task.instruction,
        "exposure": session.exposure,
        "matches": len(found),
        "solution": _steps(task.solution),
        "negative_control": None if control is None else {"name": control.name, "steps": _steps(control.steps)},
    }
