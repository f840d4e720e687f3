"""Scripted policies: play a task's reference solution (``oracle``), nothing (``noop``), or a negative control.

A policy drives a session through a *caller*: an async function that takes a
step's tool (``"gmail.search_messages"`` or ``"complete_task"``) and arguments
and returns the decoded result, whatever surface it goes through.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastmcp import Client

from gateway.tasks import Step, Task, extract, substitute
from tools.registry import TOOL_PREFIX

__all__ = ["POLICIES", "Caller", "StepFailed", "mcp_caller", "run_steps", "steps_for", "tool_name"]

Caller = Callable[[str, dict[str, Any]], Awaitable[Any]]

#: Policy names accepted by ``company-gateway demo --policy``.
POLICIES = ("oracle", "noop")


class StepFailed(Exception):
    """A scripted step got an error result; the message is the error text."""


def tool_name(step_tool: str) -> str:
    """The MCP tool name of a step's tool: ``"gmail.send_message"`` -> ``"company_gmail_send_message"``."""
    return TOOL_PREFIX + step_tool.replace(".", "_")


def steps_for(task: Task, policy: str) -> list[Step]:
    """The steps a policy plays: the reference solution, none, or a negative control by name.

    Raises:
        ValueError: unknown policy or control name.
    """
    if policy == "oracle":
        return task.solution
    if policy == "noop":
        return []
    for control in task.negative_controls:
        if policy == f"control:{control.name}":
            return control.steps
    raise ValueError(f"unknown policy {policy!r}; use oracle, noop or control:<name>")


async def run_steps(steps: list[Step], call: Caller) -> int:
    """Play ``steps`` in order through ``call``, saving and substituting variables.

    Returns:
        The number of calls made.

    Raises:
        StepFailed: a step's call returned an error.
        TaskError: a saved path or variable is missing.
    """
    variables: dict[str, Any] = {}
    for step in steps:
        result = await call(step.tool, substitute(step.args, variables))
        for var, path in step.save.items():
            variables[var] = extract(result, path)
    return len(steps)


def mcp_caller(client: Client) -> Caller:
    """A caller that sends each step as an MCP ``tools/call`` through ``client``."""

    async def call(step_tool: str, args: dict[str, Any]) -> Any:
        result = await client.call_tool(tool_name(step_tool), args, raise_on_error=False)
        text = "".join(getattr(c, "text", "") for c in result.content)
        if result.is_error:
            raise StepFailed(f"{step_tool}: {text}")
        if result.structured_content is not None:
            return result.structured_content
        return json.loads(text) if text else None

    return call
