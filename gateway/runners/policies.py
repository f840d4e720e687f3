"""Scripted policies: play a task's reference solution (``oracle``), nothing (``noop``), or a negative control.

A policy drives a session through a *caller*: an async function that takes a
step's tool (``"gmail.search_messages"`` or ``"complete_task"``) and arguments
and returns the decoded result, whatever surface it goes through. Shell steps
(``{"shell": "python3 totals.py"}``) go to a *shell* instead: an async function that
runs the command line in the session's sandbox (:func:`sandbox_shell`).
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
    "SHELL_TIMEOUT_S",
    "Caller",
    "Shell",
    "StepFailed",
    "cli_caller",
    "http_caller",
    "mcp_caller",
    "run_steps",
    "sandbox_shell",
    "steps_for",
    "tool_name",
]

Caller = Callable[[str, dict[str, Any]], Awaitable[Any]]
#: Runs one shell step's command line; returns ``{"stdout", "stderr", "exit_code"}`` or raises :class:`StepFailed`.
Shell = Callable[[str], Awaitable[dict[str, Any]]]

#: Policy names accepted by ``company-gateway demo --policy``.
POLICIES = ("oracle", "noop")


class StepFailed(Exception):
    """A scripted step got an error result; the message is the error text.

    Attributes:
        transient: The failure may not recur (a shell step timed out or was killed by a signal).
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


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


async def run_steps(
    steps: list[Step], call: Caller, variables: dict[str, Any] | None = None, shell: Shell | None = None
) -> int:
    """Play ``steps`` in order through ``call`` (shell steps through ``shell``), saving and substituting variables.

    Args:
        steps: The steps to play.
        call: How each app or ``complete_task`` step is sent.
        variables: Where saved values go (and are read from); a fresh dict when not given.
        shell: How each shell step's command line is run (:func:`sandbox_shell`); None when the session has no
            sandbox, and then a shell step fails the play.

    Returns:
        The number of steps played (calls and commands).

    Raises:
        StepFailed: a step's call returned an error, a shell step exited non-zero or had no sandbox to run in.
        TaskError: a saved path or variable is missing.
    """
    variables = {} if variables is None else variables
    for step in steps:
        if step.is_shell:
            if shell is None:
                raise StepFailed("shell step: this session has no sandbox to run commands in (use cli or http)")
            result = await shell(str(substitute(step.shell, variables)))
        else:
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


#: Seconds one shell step may run (a document script: reading, computing and writing a file).
SHELL_TIMEOUT_S = 120.0


def sandbox_shell(provider: Provider, sandbox: Sandbox) -> Shell:
    """A shell that runs each shell step as ``sh -c <command>`` in ``sandbox``'s workspace.

    The command runs as the agent's own commands do (same provider, environment and ``PATH``). Its result is
    ``{"stdout": str, "stderr": str, "exit_code": 0}`` (bytes decoded as UTF-8, undecodable ones replaced;
    trailing newlines of stdout removed, as ``$(...)`` does, so a saved value fits into a later command line).

    Raises:
        StepFailed: (from the returned function) the command exited non-zero or ran past
            :data:`SHELL_TIMEOUT_S`; the message holds the exit status and the end of its stderr.
    """

    async def run(command: str) -> dict[str, Any]:
        result = await provider.exec(sandbox, ["sh", "-c", command], timeout_s=SHELL_TIMEOUT_S)
        stdout = result.stdout.decode(errors="replace").rstrip("\n")  # as sh's $(...) gives it
        stderr = result.stderr.decode(errors="replace")
        if result.exit_code != 0:
            how = "timed out" if result.timed_out else f"exit {result.exit_code}"
            raise StepFailed(
                f"shell step {command[:80]!r}: {how}: {(stderr or stdout).strip()[-600:]}",
                transient=result.timed_out or result.exit_code >= 128,  # killed: by the timeout or a signal
            )
        return {"stdout": stdout, "stderr": stderr, "exit_code": result.exit_code}

    return run


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
