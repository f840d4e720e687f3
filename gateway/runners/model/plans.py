"""Where the scripted model learns what to play: a session's reference, from the gateway's control plane.

A :class:`Reference` is what ``POST /reference_solution`` answers for the instruction found in a request:
the task id, the session's exposure, the reference solution and a negative control. A policy turns it into
the steps to play (:func:`steps_for`). Two sources give references:

- :class:`GatewayReferences` asks a running gateway, as a trusted control-plane client (loopback, and the
  control token when the gateway has one); what ``company-gateway model`` uses.
- :class:`TaskReferences` reads task rows directly (no gateway), for tests and offline checks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from gateway.control.rows import Step, Task

__all__ = [
    "POLICIES",
    "GatewayReferences",
    "Reference",
    "ReferenceSource",
    "ScriptError",
    "TaskReferences",
    "steps_for",
]

logger = logging.getLogger(__name__)

#: The policies ``company-gateway model --policy`` takes: the reference solution, nothing, a wrong play.
POLICIES = ("oracle", "noop", "wrong")


class ScriptError(Exception):
    """The script cannot go on; the text says why (the model answers it, and the server logs it)."""


@dataclass(frozen=True)
class Reference:
    """One task's plays, as the control plane answers them.

    Attributes:
        task_id: The task's id.
        instruction: The task's instruction (found inside the request's user text).
        exposure: ``"mcp"`` (tool calls), ``"cli"`` (shell commands) or ``"http"``.
        solution: The reference solution's steps.
        wrong: A negative control's steps (a plausible wrong play scoring 0.0), or None when the row has none.
    """

    task_id: str
    instruction: str
    exposure: str
    solution: list[Step]
    wrong: list[Step] | None = field(default=None)


def steps_for(reference: Reference, policy: str) -> list[Step]:
    """The steps ``policy`` plays for ``reference``.

    Raises:
        ScriptError: ``wrong`` for a task without a negative control, or an unknown policy.
    """
    if policy == "oracle":
        return reference.solution
    if policy == "noop":
        return []
    if policy == "wrong":
        if reference.wrong is None:
            raise ScriptError(f"task {reference.task_id} has no wrong play (no negative control)")
        return reference.wrong
    raise ScriptError(f"unknown policy {policy!r}; policies: {', '.join(POLICIES)}")


class ReferenceSource(Protocol):
    """Finds the reference whose instruction is inside a request's user text."""

    async def find(self, text: str) -> Reference:
        """The reference of the task whose instruction ``text`` holds.

        Raises:
            ScriptError: none found, or the source cannot be reached.
        """
        ...  # pragma: no cover


class TaskReferences:
    """References read from task rows (no gateway): each task played with ``exposure``.

    Args:
        tasks: The tasks; a request plays the one whose instruction is inside its user text (the longest).
        exposure: The exposure every task is played with (``"mcp"`` or ``"cli"``).
    """

    def __init__(self, tasks: list[Task], exposure: str = "mcp") -> None:
        self.references = [
            Reference(t.id, t.instruction, exposure, t.solution,
                      t.negative_controls[0].steps if t.negative_controls else None)
            for t in tasks
        ]  # fmt: skip

    async def find(self, text: str) -> Reference:
        """The reference whose instruction ``text`` holds (see :meth:`ReferenceSource.find`)."""
        found = [r for r in self.references if r.instruction in text]
        if not found:
            raise ScriptError(f"no task's instruction in the user messages {text[:300]!r}")
        return max(found, key=lambda r: len(r.instruction))


class GatewayReferences:
    """References from a gateway's ``POST /reference_solution``, asked afresh for every request.

    Not remembered: the same task may be seeded again with another exposure.

    Args:
        gateway_url: The gateway's base URL (``http://127.0.0.1:8000``).
        control_token: The gateway's control token, when it has one (sent as ``Authorization: Bearer``).
        timeout_s: How long one lookup may take (seconds).
    """

    def __init__(self, gateway_url: str, control_token: str | None = None, timeout_s: float = 30.0) -> None:
        self.url = gateway_url.rstrip("/") + "/reference_solution"
        self.headers = {"Authorization": f"Bearer {control_token}"} if control_token else {}
        self.timeout_s = timeout_s

    async def find(self, text: str) -> Reference:
        """The reference whose instruction ``text`` holds (see :meth:`ReferenceSource.find`)."""
        try:
            async with httpx.AsyncClient(timeout=self.timeout_s) as client:
                answer = await client.post(self.url, json={"instruction": text}, headers=self.headers)
        except httpx.HTTPError as exc:
            raise ScriptError(f"the control plane at {self.url} cannot be reached: {exc!r}") from None
        if answer.status_code == 403:
            raise ScriptError(f"{self.url} refused this client (403): run it on a trusted host, with the "
                              "control token when the gateway has one (--control-token)")  # fmt: skip
        if answer.status_code != 200:
            raise ScriptError(f"{self.url} answered {answer.status_code}: {answer.text[:300]}")
        return _reference(answer.json())


def _reference(body: dict[str, Any]) -> Reference:
    """A :class:`Reference` from ``/reference_solution``'s answer."""
    control = body.get("negative_control")
    return Reference(
        task_id=body["task_id"],
        instruction=body["instruction"],
        exposure=body["exposure"],
        solution=[Step.model_validate(s) for s in body["solution"]],
        wrong=None if control is None else [Step.model_validate(s) for s in control["steps"]],
    )
