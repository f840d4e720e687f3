"""A scripted model for real harnesses: plays a task's reference solution as tool calls, streaming as harnesses ask.

Speaks what the harnesses send, at the versions scripts/install-harnesses.sh pins (their configs: examples/):

- ``POST {base}/responses`` (OpenAI Responses; Codex needs server-sent events): a ``function_call`` item per
  turn, with ``namespace`` when the harness offers the tool inside a namespace (Codex: ``mcp__<server>``);
- ``POST {base}/chat/completions`` (Chat Completions; Pi's ``openai-completions``): streamed chunks when the
  request says ``"stream": true``, one JSON object otherwise;
- ``POST {base}/messages`` (Anthropic Messages; Claude Code): ``tool_use`` blocks, streamed as server-sent events
  when the request says ``"stream": true``; ``POST {base}/messages/count_tokens`` answers a fixed count;
- ``POST {base}/models/<model>:generateContent`` and ``:streamGenerateContent`` (Gemini; Gemini CLI): a
  ``functionCall`` part, streamed as ``data:`` lines with ``?alt=sse``; ``:countTokens`` answers a fixed count;
- ``GET {base}/models``.

Each reply is computed from the request alone: the task is the one whose instruction is in the user messages,
the tool outputs already in the conversation say which step comes next, and the values its ``save`` paths need
are read back out of those outputs (JSON, possibly inside a shell tool's wrapper such as Codex's
``Wall time: ...\nOutput:\n``). After the last step the model answers in text. A tool is found by its MCP
name or a name ending in ``_<MCP name>`` (OpenCode's ``company_company_...``). ``exposure="cli"`` plays every
step as one shell command (``calendar list-events --start=...``) through the harness's own shell tool instead.
A request that offers no tools at all (OpenCode's session-title request) gets a short text.

Anything the script could not do (a tool not offered, an output it could not read) is answered in text
starting with ``SCRIPT ERROR`` and recorded in :attr:`ScriptedModel.errors`.
"""

from __future__ import annotations

import contextlib
import json
import shlex
from collections.abc import AsyncIterator, Iterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from cli_shim import APPLESS_COMMAND, to_argv
from gateway.control.rows import Task
from gateway.control.steps import extract, substitute
from gateway.runners.policies import tool_name
from gateway.surfaces.serve import serve_in_background
from tools import COMPLETE_TASK, REGISTRY, Action

FINAL_TEXT = "Done: everything you asked for is handled."
#: Shell tools harnesses offer, in order of preference (Codex: shell_command / exec_command / shell; Pi: bash).
SHELL_TOOLS = ("shell_command", "exec_command", "shell", "bash")


class ScriptError(Exception):
    """The script cannot go on; the text is what the model answers."""


class ScriptedModel:
    """Plays each task's reference solution, one tool call per model turn.

    Args:
        tasks: The tasks it can play; a conversation plays the task whose instruction is in its user messages.
        exposure: ``"mcp"`` calls the MCP tools; ``"cli"`` runs the app commands through the shell tool.
        finish_command: A shell command to run after the last step, before the final text (mini-swe-agent ends
            an episode on ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``).

    Attributes:
        requests: ``(api, body)`` of every request received, in order.
        errors: What went wrong in the script, if anything.
    """

    def __init__(self, tasks: list[Task], exposure: str = "mcp", finish_command: str | None = None) -> None:
        self.scripts = {task.instruction: task.solution for task in tasks}
        self.exposure = exposure
        self.finish_command = finish_command
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.errors: list[str] = []

    # ---- the script ---------------------------------------------------------------------------

    def next_action(self, user_text: str, outputs: list[str], offered: dict[str, dict[str, Any]]) -> tuple[str, Any]:
        """``("call", (offered_key, arguments))`` for the next step, or ``("text", reply)``.

        Args:
            user_text: The user messages of the conversation, joined (they hold the task's instruction).
            outputs: Text of every tool output in the conversation so far, in order.
            offered: The harness's tools: ``"namespace/name"`` (or ``"name"``) to the tool's JSON schema.
        """
        if not offered:  # a side request with no tools at all, e.g. OpenCode asking for a session title
            return "text", "Company task"
        try:
            steps = next((s for instruction, s in self.scripts.items() if instruction in user_text), None)
            if steps is None:
                raise ScriptError(f"no task's instruction in the user messages {user_text[:300]!r}")
            if len(outputs) == len(steps) and self.finish_command:
                return "call", _shell_call(self.finish_command, offered)
            if len(outputs) >= len(steps):
                return "text", FINAL_TEXT
            variables: dict[str, Any] = {}
            for n, (step, output) in enumerate(zip(steps, outputs, strict=False)):
                if step.save:
                    try:
                        result = decode_output(output)
                        variables.update({var: extract(result, path) for var, path in step.save.items()})
                    except Exception as exc:
                        raise ScriptError(f"reading the output of step {n} ({step.tool}): {exc}") from None
            step = steps[len(outputs)]
            return "call", self._call(step.tool, substitute(step.args, variables), offered)
        except Exception as exc:  # the reason becomes the reply; the test reads self.errors
            message = f"SCRIPT ERROR: {exc}"
            self.errors.append(message)
            return "text", message

    def _call(self, step_tool: str, args: dict[str, Any], offered: dict[str, dict[str, Any]]) -> tuple[str, Any]:
        if self.exposure == "mcp":
            wanted = tool_name(step_tool)
            for key in offered:
                name = key.rpartition("/")[2]
                if name == wanted or name.endswith("_" + wanted):
                    return key, args
            raise ScriptError(f"tool {wanted!r} is not offered; offered: {sorted(offered)}")
        action = _action(step_tool)
        return _shell_call(shlex.join([action.app or APPLESS_COMMAND, *to_argv(action, args)]), offered)

    # ---- the wire APIs ------------------------------------------------------------------------

    def app(self) -> Starlette:
        """The ASGI app under ``/v1`` (OpenAI, Anthropic) and ``/v1beta`` (Gemini)."""
        return Starlette(
            routes=[
                Route("/v1/responses", self._responses, methods=["POST"]),
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/messages", self._messages, methods=["POST"]),
                Route("/v1/messages/count_tokens", self._count_tokens, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
                Route("/v1beta/models/{call:path}", self._gemini, methods=["POST"]),
            ]
        )

    async def _models(self, request: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": "scripted", "object": "model", "owned_by": "tests"}]})

    async def _responses(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append(("responses", body))
        offered = _offered_responses(body.get("tools") or [])
        items = body.get("input") or []
        if isinstance(items, str):
            items = [{"role": "user", "content": items}]
        user_text = "\n".join(_text(i.get("content")) for i in items if i.get("role") == "user")
        outputs = [
            _text(i.get("output"))
            for i in items
            if i.get("type") in ("function_call_output", "custom_tool_call_output")
        ]
        what, value = self.next_action(user_text, outputs, offered)
        n = len(outputs)
        if what == "call":
            key, args = value
            namespace, _, name = key.rpartition("/")
            item: dict[str, Any] = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
                                    "arguments": json.dumps(args), "status": "completed"}  # fmt: skip
            if namespace:
                item["namespace"] = namespace
        else:
            item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": value, "annotations": []}]}  # fmt: skip
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}  # fmt: skip
        # The fields the Responses object always carries (NeMo Gym validates them): the request's tool settings.
        response = {"id": f"resp_{n}", "object": "response", "created_at": 0, "model": body.get("model", ""),
                    "status": "completed", "output": [item], "usage": usage, "tools": body.get("tools") or [],
                    "tool_choice": body.get("tool_choice", "auto"),
                    "parallel_tool_calls": body.get("parallel_tool_calls", True)}  # fmt: skip
        if not body.get("stream"):
            return JSONResponse(response)
        events = [
            ("response.created", {"response": {**response, "status": "in_progress", "output": []}}),
            ("response.output_item.added", {"output_index": 0, "item": item}),
            ("response.output_item.done", {"output_index": 0, "item": item}),
            ("response.completed", {"response": response}),
        ]
        return _sse(f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n" for kind, data in events)

    async def _chat(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append(("chat", body))
        offered = {t["function"]["name"]: t["function"].get("parameters") or {} for t in body.get("tools") or []}
        messages = body.get("messages") or []
        user_text = "\n".join(_text(m.get("content")) for m in messages if m.get("role") == "user")
        outputs = [_text(m.get("content")) for m in messages if m.get("role") == "tool"]
        what, value = self.next_action(user_text, outputs, offered)
        n, model = len(outputs), body.get("model", "")
        if what == "call":
            key, args = value
            call = {"id": f"call_{n}", "type": "function", "function": {"name": key, "arguments": json.dumps(args)}}
            message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": value}, "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        head = {"id": f"chatcmpl-{n}", "created": 0, "model": model}
        if not body.get("stream"):
            choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
            return JSONResponse({**head, "object": "chat.completion", "choices": [choice], "usage": usage})
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [{"index": 0, **c} for c in delta["tool_calls"]]
        chunks = [
            {"index": 0, "delta": delta, "finish_reason": None},
            {"index": 0, "delta": {}, "finish_reason": finish},
        ]
        lines = [json.dumps({**head, "object": "chat.completion.chunk", "choices": [c]}) for c in chunks]
        lines.append(json.dumps({**head, "object": "chat.completion.chunk", "choices": [], "usage": usage}))
        return _sse([*(f"data: {line}\n\n" for line in lines), "data: [DONE]\n\n"])

    async def _count_tokens(self, request: Request) -> Response:
        return JSONResponse({"input_tokens": 10})

    async def _messages(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append(("messages", body))
        offered = {t["name"]: t.get("input_schema") or {} for t in body.get("tools") or [] if "name" in t}
        user_text, outputs = [], []
        for message in body.get("messages") or []:
            content = message.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
            for block in blocks:
                if block.get("type") == "tool_result":
                    outputs.append(_text(block.get("content")))
                elif message.get("role") == "user" and block.get("type") == "text":
                    user_text.append(block.get("text", ""))
        what, value = self.next_action("\n".join(user_text), outputs, offered)
        n = len(outputs)
        if what == "call":
            key, args = value
            block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_{n}", "name": key, "input": args}
            stop = "tool_use"
        else:
            block, stop = {"type": "text", "text": value}, "end_turn"
        usage = {"input_tokens": 10, "output_tokens": 5}
        message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model", ""),
                   "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage}  # fmt: skip
        if not body.get("stream"):
            return JSONResponse(message)
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
        events = [
            ("message_start", {"message": {**message, "content": [], "stop_reason": None}}),
            ("content_block_start", {"index": 0, "content_block": start}),
            ("content_block_delta", {"index": 0, "delta": delta}),
            ("content_block_stop", {"index": 0}),
            ("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}}),
            ("message_stop", {}),
        ]
        return _sse(f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n" for kind, data in events)

    async def _gemini(self, request: Request) -> Response:
        model_name, _, method = request.path_params["call"].partition(":")
        body = await request.json()
        if method == "countTokens":
            return JSONResponse({"totalTokens": 10})
        self.requests.append(("gemini", body))
        offered: dict[str, dict[str, Any]] = {}
        for tool in body.get("tools") or []:
            for decl in tool.get("functionDeclarations") or []:
                offered[decl["name"]] = decl.get("parametersJsonSchema") or decl.get("parameters") or {}
        user_text, outputs = [], []
        for content in body.get("contents") or []:
            for part in content.get("parts") or []:
                if "functionResponse" in part:
                    outputs.append(_gemini_output(part["functionResponse"].get("response")))
                elif content.get("role") == "user" and "text" in part:
                    user_text.append(part["text"])
        what, value = self.next_action("\n".join(user_text), outputs, offered)
        if what == "call":
            key, args = value
            part: dict[str, Any] = {"functionCall": {"name": key, "args": args}}
        else:
            part = {"text": value}
        reply = {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": model_name,
        }
        if method == "streamGenerateContent":
            return _sse([f"data: {json.dumps(reply)}\n\n"])
        return JSONResponse(reply)


@contextlib.asynccontextmanager
async def serve_model(model: ScriptedModel) -> AsyncIterator[str]:
    """Serve ``model`` on loopback in this loop; yields the base URL harnesses take (``http://127.0.0.1:P/v1``)."""
    async with serve_in_background(model.app()) as base:
        yield base + "/v1"


# ---- helpers ------------------------------------------------------------------------------------


def _action(step_tool: str) -> Action:
    if step_tool == "complete_task":
        return COMPLETE_TASK
    app, _, name = step_tool.partition(".")
    return REGISTRY.action(app, name)


def _shell_call(command: str, offered: dict[str, dict[str, Any]]) -> tuple[str, Any]:
    """``(offered_key, arguments)`` running ``command`` through the harness's shell tool."""
    for shell in SHELL_TOOLS:
        for key, schema in offered.items():
            if key.rpartition("/")[2] == shell:
                return key, _shell_arguments(schema, command)
    raise ScriptError(f"no shell tool offered; offered: {sorted(offered)}")


def _sse(chunks: Iterator[str] | list[str]) -> StreamingResponse:
    return StreamingResponse(iter(list(chunks)), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


def _offered_responses(tools: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Responses tools as ``"namespace/name"`` (or ``"name"``) to parameters; namespaces are flattened."""
    offered: dict[str, dict[str, Any]] = {}
    for tool in tools:
        inner = tool.get("tools")
        if isinstance(inner, list):  # a namespace of functions (Codex: MCP tools under mcp__<server>)
            for sub in inner:
                if "name" in sub:
                    offered[f"{tool.get('name', '')}/{sub['name']}"] = sub.get("parameters") or {}
        elif "name" in tool:
            offered[tool["name"]] = tool.get("parameters") or {}
    return offered


def _gemini_output(response: Any) -> str:
    """The text of a Gemini ``functionResponse.response``: ``{"output": text}``, ``{"content": parts}`` or JSON."""
    if isinstance(response, dict):
        for key in ("output", "content", "error"):
            if key in response:
                return _text(response[key])
    return _text(response)


def _shell_arguments(schema: dict[str, Any], command: str) -> dict[str, Any]:
    """Arguments for a shell tool, shaped by its schema: a string ``command``/``cmd``, or an argv ``command``."""
    props = schema.get("properties") or {}
    if "command" in props:
        if props["command"].get("type") == "array":
            return {"command": ["bash", "-lc", command]}
        return {"command": command}
    if "cmd" in props:
        return {"cmd": command}
    raise ScriptError(f"cannot tell how to pass a command to a shell tool with parameters {sorted(props)}")


def _text(content: Any) -> str:
    """The text of a tool output: a string, or a list of content parts with ``text``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return json.dumps(content)


def decode_output(text: str) -> Any:
    """The JSON value inside a tool output: bare JSON, a shell tool's wrapper, or JSON after a header.

    Raises:
        ScriptError: no JSON value can be read from ``text``.
    """
    with contextlib.suppress(ValueError):
        value = json.loads(text)
        if isinstance(value, dict) and isinstance(value.get("output"), str) and "metadata" in value:
            return decode_output(value["output"])  # Codex's shell wrapper: {"output": ..., "metadata": ...}
        return value
    if "Output:\n" in text:  # Codex's text wrapper: "Exit code: 0\nWall time: ...\nOutput:\n<stdout>"
        with contextlib.suppress(ScriptError):
            return decode_output(text.split("Output:\n", 1)[1])
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if starts:
        with contextlib.suppress(ValueError):
            return json.JSONDecoder().raw_decode(text[min(starts) :])[0]
    raise ScriptError(f"no JSON in tool output {text[:300]!r}")
