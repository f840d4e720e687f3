"""A scripted OpenAI-compatible model on loopback: ``/v1/chat/completions`` and ``/v1/responses`` (JSON, no streaming).

The script is chosen per task (by the instruction in the user message, from ``modes``), else by the
request's model name when it is a mode, else ``default``:

- ``oracle``: play the task's reference solution one tool call per turn, taking saved values from
  the earlier tool outputs in the conversation (``save`` paths, ``{var}`` substitution), then call
  ``company_complete_task`` (unless the solution already ended with it), then answer in text.
- ``stumble``: first call the solution's first tool with a bad parameter, then play ``oracle``.
- ``no_tool_call``: answer in text only.
- ``loop``: call the solution's first tool again and again.
- ``unoffered``: first call ``company_payroll_raise_salary`` (a tool no task offers), then play ``oracle``.
- ``500``, ``timeout``, ``bad_json``, ``not_json``: fail every request (``timeout`` hangs up to
  ``hang_s`` or until :meth:`FakeModel.release`); ``KIND@N`` plays ``oracle`` until N tool outputs
  are in the conversation, then fails.

Run it by hand: ``python -m tests.gateway.fake_model --port 8001`` (then ``--base-url http://127.0.0.1:8001/v1``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gateway.control.rows import Step, Task, load_builtin_tasks
from gateway.control.steps import extract, substitute
from gateway.runners.policies import tool_name
from gateway.surfaces.serve import serve_in_background

MODES = ("oracle", "stumble", "unoffered", "no_tool_call", "loop", "500", "timeout", "bad_json", "not_json")
FINAL_TEXT = "All done: the request is handled."


class FakeModel:
    """The scripted model. ``requests`` keeps every request body it got: (api, body)."""

    def __init__(self, tasks: dict[str, Task] | None = None, default: str = "oracle", hang_s: float = 10.0) -> None:
        self.tasks = tasks if tasks is not None else load_builtin_tasks()
        self.by_instruction = {t.instruction: t for t in self.tasks.values()}
        self.modes: dict[str, str] = {}
        self.default = default
        self.hang_s = hang_s
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self._released: asyncio.Event | None = None

    def release(self) -> None:
        """End every hanging ``timeout`` reply now (call from the server's loop)."""
        if self._released is not None:
            self._released.set()

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/responses", self._responses, methods=["POST"]),
            ]
        )

    # ---- the script ---------------------------------------------------------------------------

    def _next(self, instruction: str, outputs: list[str], model: str) -> tuple[str, Any]:
        """("call", (name, args)), ("text", str) or ("fail", kind) for this point of the conversation."""
        task = self.by_instruction.get(instruction)
        if task is None:
            return "text", "I do not know this request."
        mode = self.modes.get(task.id) or (model if model.split("@")[0] in MODES else self.default)
        kind, _, at = mode.partition("@")
        if kind in ("500", "timeout", "bad_json", "not_json") and len(outputs) >= int(at or 0):
            return "fail", kind
        if kind == "no_tool_call":
            return "text", "I would rather not use the tools."
        steps = task.solution
        if kind == "loop":
            return "call", (tool_name(steps[0].tool), steps[0].args)
        if kind in ("stumble", "unoffered"):
            if not outputs:
                if kind == "unoffered":
                    return "call", ("company_payroll_raise_salary", {"employee": "me", "percent": 50})
                return "call", (tool_name(steps[0].tool), {"no_such_parameter": 1})
            outputs = outputs[1:]
        if not steps or steps[-1].tool != "complete_task":
            steps = [*steps, Step(tool="complete_task", args={"summary": "Done as asked."})]
        if len(outputs) >= len(steps):
            return "text", FINAL_TEXT
        variables: dict[str, Any] = {}
        for step, output in zip(steps, outputs, strict=False):
            for var, path in step.save.items():
                try:
                    variables[var] = extract(json.loads(output), path)
                except (ValueError, LookupError) as exc:
                    return "text", f"I could not go on: {exc}"
        step = steps[len(outputs)]
        return "call", (tool_name(step.tool), substitute(step.args, variables))

    async def _fail(self, kind: str) -> Response:
        if kind == "500":
            return JSONResponse({"error": {"message": "scripted server error", "type": "server_error"}}, 500)
        if kind == "bad_json":
            return Response('{"id": "chatcmpl-1", "choices": [', media_type="application/json")
        if kind == "not_json":
            return Response("<html>busy</html>", media_type="text/html")
        self._released = self._released or asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._released.wait(), self.hang_s)  # bounded: the server stops by itself
        return JSONResponse({"error": {"message": "hung up"}}, 504)

    # ---- the two wire APIs ---------------------------------------------------------------------

    async def _chat(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append(("chat", body))
        for tool in body.get("tools", []):
            if tool.get("type") != "function" or "name" not in tool.get("function", {}):
                return JSONResponse({"error": {"message": f"bad tool {tool}"}}, 400)
        messages = body["messages"]
        instruction = next(m["content"] for m in messages if m["role"] == "user")
        outputs = [m["content"] for m in messages if m["role"] == "tool"]
        what, value = self._next(instruction, outputs, body["model"])
        if what == "fail":
            return await self._fail(value)
        n = len(outputs)
        if what == "call":
            name, args = value
            call = {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": value}, "stop"
        return JSONResponse(
            {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0, "model": body["model"],
             "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        )  # fmt: skip

    async def _responses(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append(("responses", body))
        for tool in body.get("tools", []):
            if tool.get("type") != "function" or "name" not in tool or "function" in tool:
                return JSONResponse({"error": {"message": f"bad tool {tool}"}}, 400)
        items = body["input"]
        instruction = next(i["content"] for i in items if i.get("role") == "user")
        outputs = [i["output"] for i in items if i.get("type") == "function_call_output"]
        what, value = self._next(instruction, outputs, body["model"])
        if what == "fail":
            return await self._fail(value)
        n = len(outputs)
        if what == "call":
            name, args = value
            item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
                    "arguments": json.dumps(args), "status": "completed"}  # fmt: skip
        else:
            item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": value, "annotations": []}]}  # fmt: skip
        return JSONResponse(
            {"id": f"resp_{n}", "object": "response", "created_at": 0, "model": body["model"], "status": "completed",
             "output": [item], "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
             "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                       "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}}
        )  # fmt: skip


@contextlib.asynccontextmanager
async def serve_fake(fake: FakeModel) -> AsyncIterator[str]:
    """Serve ``fake`` on loopback in this loop; yields the base URL to give the SDK (``http://127.0.0.1:P/v1``)."""
    async with serve_in_background(fake.app()) as base:
        try:
            yield base + "/v1"
        finally:
            fake.release()


@contextlib.contextmanager
def serve_in_thread(app: Starlette, on_stop: Callable[[], None] | None = None) -> Iterator[str]:
    """Serve ``app`` on loopback from its own thread and loop; yields its base URL.

    For servers that must outlive one test's event loop, or serve code that calls ``asyncio.run``
    itself. ``on_stop`` runs in the server's loop before it stops.
    """
    ready = threading.Event()
    box: dict[str, Any] = {}

    async def main() -> None:
        box["loop"], box["stop"] = asyncio.get_running_loop(), asyncio.Event()
        async with serve_in_background(app) as base:
            box["url"] = base
            ready.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(box["stop"].wait(), 600)  # bounded: stops by itself
            if on_stop is not None:
                on_stop()

    def run() -> None:
        try:
            asyncio.run(main())
        finally:
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    if not ready.wait(30) or "url" not in box:
        raise RuntimeError("the server did not start within 30 s")
    try:
        yield box["url"]
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(30)


@contextlib.contextmanager
def fake_in_thread(fake: FakeModel) -> Iterator[str]:
    """Serve ``fake`` from its own thread; yields the base URL to give the SDK (``http://127.0.0.1:P/v1``)."""
    with serve_in_thread(fake.app(), fake.release) as base:
        yield base + "/v1"


def _main() -> None:
    parser = argparse.ArgumentParser(description="Serve the scripted model on loopback.")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--default", default="oracle", choices=MODES)
    args = parser.parse_args()

    async def run() -> None:
        fake = FakeModel(default=args.default)
        async with serve_in_background(fake.app(), port=args.port) as base:
            print(f"fake model at {base}/v1", flush=True)
            await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    _main()
