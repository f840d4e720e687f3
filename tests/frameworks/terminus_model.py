"""A scripted OpenAI-compatible model that speaks Terminus 2's JSON turns (Harbor's terminal agent).

Terminus 2 sends Chat Completions (through litellm) whose first user message holds the task's instruction and
reads back one JSON object per turn: ``{"analysis", "plan", "commands": [{"keystrokes", "duration"}],
"task_complete"}``. When a turn says ``task_complete``, Terminus asks once more and stops at the second.

Per task (found by its instruction in the first user message) the script either ``"solve"``s it (its reference
solution's steps as app commands, typed in one turn: only tasks whose steps save no values) or ``"probe"``s the
shell and claims completion without changing anything: :data:`PROBES` print the company API's URL, what a
control route answers through the API socket, and whether the gateway's port answers over TCP. Every later
turn claims completion.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, Literal

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cli_shim import APPLESS_COMMAND, to_argv
from gateway.control.rows import Task
from tests.harness.fake_model import _action

Play = Literal["solve", "probe"]
#: What the ``"probe"`` play types: each prints one ``name:value`` line the test looks for in the terminal text.
PROBES = [
    'echo "workdir:$(pwd)"',
    'echo "api:$COMPANY_API_URL"',
    'curl -s -o /dev/null -w "control:%{http_code}\\n" --unix-socket "$COMPANY_API_SOCKET" -X POST '
    '"${COMPANY_API_URL%/api}/verify" -d "{}"',
    'curl -s -m 3 -o /dev/null -w "tcp:%{http_code}\\n" "${COMPANY_API_URL%/api}/health"',
]


def solution_commands(task: Task) -> list[str]:
    """The reference solution of ``task`` as shell commands, one per step.

    Raises:
        ValueError: a step saves a value for a later one (this script does not read the terminal).
    """
    commands = []
    for step in task.solution:
        if step.save:
            raise ValueError(f"task {task.id}: step {step.tool} saves values; pick a task whose steps do not")
        action = _action(step.tool)
        commands.append(shlex.join([action.app or APPLESS_COMMAND, *to_argv(action, step.args)]))
    return commands


class TerminusScript:
    """Plays ``plays`` (task id -> ``"solve"`` or ``"probe"``) of ``tasks``; ``requests`` keeps every request body."""

    def __init__(self, tasks: dict[str, Task], plays: dict[str, Play]) -> None:
        self.plays = {tasks[task_id].instruction: (tasks[task_id], play) for task_id, play in plays.items()}
        self.requests: list[dict[str, Any]] = []
        self.errors: list[str] = []

    def turn(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The JSON turn to answer for a conversation."""
        first_user = next((str(m.get("content")) for m in messages if m.get("role") == "user"), "")
        found = next((v for instruction, v in self.plays.items() if instruction in first_user), None)
        if found is None:
            self.errors.append(f"no scripted task's instruction in {first_user[:200]!r}")
            return {"analysis": "unknown request", "plan": "", "commands": [], "task_complete": True}
        task, play = found
        answered = sum(1 for m in messages if m.get("role") == "assistant")
        if answered == 0:
            commands = solution_commands(task) if play == "solve" else PROBES
            keys = [{"keystrokes": command + "\n", "duration": 1.0} for command in commands]
            return {"analysis": "Nothing done yet.", "plan": "Run the commands.", "commands": keys,
                    "task_complete": False}  # fmt: skip
        return {"analysis": "Finished.", "plan": "Nothing more.", "commands": [], "task_complete": True}

    async def _chat(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append(body)
        content = json.dumps(self.turn(body.get("messages") or []))
        n = len(self.requests)
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
        usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
        return JSONResponse({"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0,
                             "model": body.get("model", ""), "choices": [choice], "usage": usage})  # fmt: skip

    def app(self) -> Starlette:
        """The ASGI app: ``POST /v1/chat/completions``."""
        return Starlette(routes=[Route("/v1/chat/completions", self._chat, methods=["POST"])])
