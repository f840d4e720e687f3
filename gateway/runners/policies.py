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

from cli_shim import APPLESS_COMMAND, to_argv
from gateway.control.rows import Step, Task
from gateway.control.steps import extract, substitute
from sandbox import Provider, Sandbox
from tools import COMPLETE_TASK, REGISTRY, Action
from tools.kernel.registry import TOOL_PREFIX

__all__ = [
    "POLICIES",
    "Caller",
    "StepFailed",
    "cli_caller",
    "http_caller",
    "mcp_caller",
    "run_steps",
    "steps_for",
    "tool_name",
]

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


async def run_steps(steps: list[Step], call: Caller, variables: dict[str, Any] | None = None) -> int:
    """Play ``steps`` in order through ``call``, saving and substituting variables.

    Args:
        steps: The steps to play.
        call: How each step is sent.
        variables: Where saved values go (and are read from); a fresh dict when not given.

    Returns:
        The number of calls made.

    Raises:
        StepFailed: a step's call returned an error.
        TaskError: a saved path or variable is missing.
    """
    variables = {} if variables is None else variables
    for step in steps:
        result = await call(step.tool, substitute(step.args, variables))
        for var, path in step.save.items():
            variables[var] = extract(result, path)
    return len(steps)


def mcp_caller(client: Client[Any]) -> Caller:
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


#: Seconds one command inside a sandbox may run.
COMMAND_TIMEOUT_S = 60.0


def _action(step_tool: str) -> Action:
    if step_tool == "complete_task":
        return COMPLETE_TASK
    app, _, name = step_tool.partition(".")
    return REGISTRY.action(app, name)


def _decode(step_tool: str, exit_code: int, stdout: bytes, stderr: bytes) -> Any:
    if exit_code != 0:
        raise StepFailed(f"{step_tool}: exit {exit_code}: {(stderr or stdout).decode(errors='replace').strip()}")
    text = stdout.decode()
    return json.loads(text) if text.strip() else None


def cli_caller(provider: Provider, sandbox: Sandbox) -> Caller:
    """A caller that runs each step as the app's shell command inside ``sandbox``.

    ``gmail.send_message`` with ``{"to": ["a@x"]}`` runs ``gmail send-message --to=a@x``.
    """

    async def call(step_tool: str, args: dict[str, Any]) -> Any:
        action = _action(step_tool)
        argv = [action.app or APPLESS_COMMAND, *to_argv(action, args)]
        result = await provider.exec(sandbox, argv, timeout_s=COMMAND_TIMEOUT_S)
        return _decode(step_tool, result.exit_code, result.stdout, result.stderr)

    return call


#: The HTTP request a step becomes inside the sandbox: JSON body on stdin, token and URL from the environment,
#: through the unix socket ``COMPANY_API_SOCKET`` when the sandbox has one (and no network of its own).
_CURL = (
    'curl -sS --fail-with-body ${COMPANY_API_SOCKET:+--unix-socket "$COMPANY_API_SOCKET"} -X POST '
    '-H "Authorization: Bearer $COMPANY_API_TOKEN" -H "Content-Type: application/json" --data-binary @- '
    '"$COMPANY_API_URL$1"'
)


def http_caller(provider: Provider, sandbox: Sandbox) -> Caller:
    """A caller that sends each step as ``POST $COMPANY_API_URL/<app>/<action>`` with curl inside ``sandbox``."""

    async def call(step_tool: str, args: dict[str, Any]) -> Any:
        action = _action(step_tool)
        path = action.http_path.removeprefix("/api")
        argv = ["sh", "-c", _CURL, "sh", path]
        body = json.dumps(args).encode()
        result = await provider.exec(sandbox, argv, timeout_s=COMMAND_TIMEOUT_S, stdin=body)
        return _decode(step_tool, result.exit_code, result.stdout, result.stderr)

    return call
