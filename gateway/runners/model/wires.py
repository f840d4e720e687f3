"""The wire formats the scripted model speaks: each reads a request into a :class:`Turn` and writes a reply.

- OpenAI Responses (``POST /v1/responses``): a ``function_call`` item (with ``namespace`` when the harness
  offers the tool inside one, as Codex does for MCP tools) or a ``message``; server-sent events when asked.
- OpenAI Chat Completions (``POST /v1/chat/completions``): ``tool_calls`` or ``content``; streamed chunks
  when ``"stream": true``.
- Anthropic Messages (``POST /v1/messages``): a ``tool_use`` or ``text`` block; server-sent events when asked.
- Gemini (``POST /v1beta/models/<model>:generateContent`` and ``:streamGenerateContent``): a ``functionCall``
  or ``text`` part; ``data:`` lines with ``?alt=sse``, a JSON array without.

Every reply carries a token usage (fixed small counts) so clients that read one find it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from starlette.responses import JSONResponse, Response, StreamingResponse

from gateway.runners.model.script import Call, Turn

__all__ = [
    "chat_reply",
    "chat_turn",
    "gemini_reply",
    "gemini_turn",
    "messages_reply",
    "messages_turn",
    "responses_reply",
    "responses_turn",
    "sse",
    "text_of",
]


def sse(chunks: Iterable[str]) -> StreamingResponse:
    """A ``text/event-stream`` response of ``chunks`` (each a whole event, ending in a blank line)."""
    return StreamingResponse(iter(list(chunks)), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


def _events(events: list[tuple[str, dict[str, Any]]]) -> StreamingResponse:
    return sse(f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n" for kind, data in events)


def text_of(content: Any) -> str:
    """The text of a message or tool output: a string, or a list of content parts with ``text``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    if content is None:
        return ""
    return json.dumps(content)


# ---- OpenAI Responses -----------------------------------------------------------------------------


def responses_turn(body: dict[str, Any]) -> Turn:
    """A Responses request as a turn (tools inside a namespace are keyed ``"namespace/name"``)."""
    turn = Turn(system=text_of(body.get("instructions")))
    for tool in body.get("tools") or []:
        inner = tool.get("tools")
        if isinstance(inner, list):  # a namespace of functions (Codex: MCP tools under mcp__<server>)
            for sub in inner:
                if "name" in sub:
                    turn.offered[f"{tool.get('name', '')}/{sub['name']}"] = sub.get("parameters") or {}
        elif "name" in tool:
            turn.offered[tool["name"]] = tool.get("parameters") or {}
    items = body.get("input") or []
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    for item in items:
        role, kind = item.get("role"), item.get("type")
        if role == "user":
            turn.user.append(text_of(item.get("content")))
        elif role in ("system", "developer"):
            turn.system += "\n" + text_of(item.get("content"))
        elif role == "assistant" or kind in ("function_call", "custom_tool_call"):
            turn.replies += 1
        elif kind in ("function_call_output", "custom_tool_call_output"):
            turn.outputs.append(text_of(item.get("output")))
    return turn


def responses_reply(body: dict[str, Any], reply: Call | str, n: int) -> Response:
    """The Responses answer (server-sent events when the request says ``"stream": true``)."""
    item: dict[str, Any]
    if isinstance(reply, Call):
        namespace, _, name = reply.key.rpartition("/")
        item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
                "arguments": json.dumps(reply.arguments), "status": "completed"}  # fmt: skip
        if namespace:
            item["namespace"] = namespace
    else:
        item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": reply, "annotations": []}]}  # fmt: skip
    usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}  # fmt: skip
    # The fields a Responses object always carries (NeMo Gym validates them): the request's tool settings.
    response = {"id": f"resp_{n}", "object": "response", "created_at": 0, "model": body.get("model", ""),
                "status": "completed", "output": [item], "usage": usage, "tools": body.get("tools") or [],
                "tool_choice": body.get("tool_choice", "auto"),
                "parallel_tool_calls": body.get("parallel_tool_calls", True)}  # fmt: skip
    if not body.get("stream"):
        return JSONResponse(response)
    return _events([
        ("response.created", {"response": {**response, "status": "in_progress", "output": []}}),
        ("response.output_item.added", {"output_index": 0, "item": item}),
        ("response.output_item.done", {"output_index": 0, "item": item}),
        ("response.completed", {"response": response}),
    ])  # fmt: skip


# ---- OpenAI Chat Completions ----------------------------------------------------------------------


def chat_turn(body: dict[str, Any]) -> Turn:
    """A Chat Completions request as a turn."""
    turn = Turn()
    for tool in body.get("tools") or []:
        function = tool.get("function") or {}
        if "name" in function:
            turn.offered[function["name"]] = function.get("parameters") or {}
    for message in body.get("messages") or []:
        role = message.get("role")
        if role == "user":
            turn.user.append(text_of(message.get("content")))
        elif role in ("system", "developer"):
            turn.system += "\n" + text_of(message.get("content"))
        elif role == "assistant":
            turn.replies += 1
        elif role == "tool":
            turn.outputs.append(text_of(message.get("content")))
    return turn


def chat_reply(body: dict[str, Any], reply: Call | str, n: int) -> Response:
    """The Chat Completions answer (streamed chunks when the request says ``"stream": true``)."""
    message: dict[str, Any]
    if isinstance(reply, Call):
        call = {"id": f"call_{n}", "type": "function",
                "function": {"name": reply.key, "arguments": json.dumps(reply.arguments)}}  # fmt: skip
        message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
    else:
        message, finish = {"role": "assistant", "content": reply}, "stop"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    head = {"id": f"chatcmpl-{n}", "created": 0, "model": body.get("model", "")}
    if not body.get("stream"):
        choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
        return JSONResponse({**head, "object": "chat.completion", "choices": [choice], "usage": usage})
    delta = dict(message)
    if "tool_calls" in delta:
        delta["tool_calls"] = [{"index": 0, **c} for c in delta["tool_calls"]]
    chunks = [{"index": 0, "delta": delta, "finish_reason": None}, {"index": 0, "delta": {}, "finish_reason": finish}]
    lines = [json.dumps({**head, "object": "chat.completion.chunk", "choices": [c]}) for c in chunks]
    lines.append(json.dumps({**head, "object": "chat.completion.chunk", "choices": [], "usage": usage}))
    return sse([*(f"data: {line}\n\n" for line in lines), "data: [DONE]\n\n"])


# ---- Anthropic Messages ---------------------------------------------------------------------------


def messages_turn(body: dict[str, Any]) -> Turn:
    """An Anthropic Messages request as a turn."""
    turn = Turn(system=text_of(body.get("system")))
    turn.offered = {t["name"]: t.get("input_schema") or {} for t in body.get("tools") or [] if "name" in t}
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        if message.get("role") == "assistant":
            turn.replies += 1
            continue
        texts = []
        for block in blocks:
            if block.get("type") == "tool_result":
                turn.outputs.append(text_of(block.get("content")))
            elif block.get("type") == "text":
                texts.append(block.get("text", ""))
        if texts:
            turn.user.append("\n".join(texts))
    return turn


def messages_reply(body: dict[str, Any], reply: Call | str, n: int) -> Response:
    """The Messages answer (server-sent events when the request says ``"stream": true``)."""
    block: dict[str, Any]
    if isinstance(reply, Call):
        block, stop = {"type": "tool_use", "id": f"toolu_{n}", "name": reply.key, "input": reply.arguments}, "tool_use"
    else:
        block, stop = {"type": "text", "text": reply}, "end_turn"
    message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model", ""),
               "content": [block], "stop_reason": stop, "stop_sequence": None,
               "usage": {"input_tokens": 10, "output_tokens": 5}}  # fmt: skip
    if not body.get("stream"):
        return JSONResponse(message)
    if block["type"] == "tool_use":
        start = {**block, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        start, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
    return _events([
        ("message_start", {"message": {**message, "content": [], "stop_reason": None}}),
        ("content_block_start", {"index": 0, "content_block": start}),
        ("content_block_delta", {"index": 0, "delta": delta}),
        ("content_block_stop", {"index": 0}),
        ("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}}),
        ("message_stop", {}),
    ])  # fmt: skip


# ---- Gemini ---------------------------------------------------------------------------------------


def gemini_turn(body: dict[str, Any]) -> Turn:
    """A Gemini ``generateContent`` request as a turn."""
    system = body.get("systemInstruction") or body.get("system_instruction") or {}
    turn = Turn(system="\n".join(p.get("text", "") for p in system.get("parts") or [] if isinstance(p, dict)))
    for tool in body.get("tools") or []:
        for decl in tool.get("functionDeclarations") or []:
            turn.offered[decl["name"]] = decl.get("parametersJsonSchema") or decl.get("parameters") or {}
    for content in body.get("contents") or []:
        if content.get("role") == "model":
            turn.replies += 1
            continue
        texts = []
        for part in content.get("parts") or []:
            if "functionResponse" in part:
                turn.outputs.append(_gemini_output(part["functionResponse"].get("response")))
            elif "text" in part:
                texts.append(part["text"])
        if texts:
            turn.user.append("\n".join(texts))
    return turn


def gemini_reply(model: str, method: str, alt: str | None, reply: Call | str) -> Response:
    """The Gemini answer: one object for ``generateContent``; for ``streamGenerateContent``, a JSON array.

    With ``alt="sse"`` the stream is ``data:`` lines instead of an array.
    """
    part: dict[str, Any] = (
        {"functionCall": {"name": reply.key, "args": reply.arguments}} if isinstance(reply, Call) else {"text": reply}
    )
    answer = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": model,
    }
    if method == "streamGenerateContent":
        return sse([f"data: {json.dumps(answer)}\n\n"]) if alt == "sse" else JSONResponse([answer])
    return JSONResponse(answer)


def _gemini_output(response: Any) -> str:
    """The text of a ``functionResponse.response``: ``{"output": text}``, ``{"content": parts}`` or JSON."""
    if isinstance(response, dict):
        for key in ("output", "content", "error"):
            if key in response:
                return text_of(response[key])
    return text_of(response)
