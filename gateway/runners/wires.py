"""The two wire APIs a rollout speaks to a model: Chat Completions and Responses, behind one ``Wire``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import openai

__all__ = [
    "WIRES",
    "ChatWire",
    "ModelError",
    "ModelTurn",
    "ResponsesWire",
    "ToolCall",
    "Wire",
    "ask",
    "describe",
    "model_failure",
]


class ModelError(Exception):
    """The model endpoint failed (timeout, HTTP error, connection refused, malformed reply); the text says how."""


def describe(exc: BaseException) -> str:
    """``exc`` as one short line (at most 300 characters) for a log or a record."""
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 300 else text[:300] + "..."


# ---- the two wire APIs ----------------------------------------------------------------------------


@dataclass
class ToolCall:
    """One function call the model asked for: ``arguments`` is the JSON text the model wrote."""

    id: str
    name: str
    arguments: str


@dataclass
class ModelTurn:
    """What one model call returned: its text (may be empty) and its function calls (may be none)."""

    text: str
    calls: list[ToolCall]


class Wire(Protocol):
    """One wire API: how tools, the conversation and a reply are shaped."""

    def tools(self, tools: Sequence[Any]) -> list[dict[str, Any]]:
        """The ``tools`` request field for MCP tools (objects with name, description, inputSchema)."""
        ...

    def start(self, system: str, user: str) -> list[dict[str, Any]]:
        """A new conversation: the system prompt and the user's request."""
        ...

    async def ask(
        self, client: openai.AsyncOpenAI, model: str, conversation: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> ModelTurn:
        """Call the model with the whole conversation; append its reply to ``conversation``."""
        ...

    def add_result(self, conversation: list[dict[str, Any]], call: ToolCall, output: str) -> None:
        """Append a tool's output text for ``call``."""
        ...


def _function(tool: Any) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description or "", "parameters": tool.input_schema}


class ChatWire:
    """Chat Completions: tools ``{"type": "function", "function": {...}}``; ``tool`` messages carry outputs."""

    def tools(self, tools: Sequence[Any]) -> list[dict[str, Any]]:
        """See :class:`Wire`."""
        return [{"type": "function", "function": _function(t)} for t in tools]

    def start(self, system: str, user: str) -> list[dict[str, Any]]:
        """See :class:`Wire`."""
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    async def ask(
        self, client: openai.AsyncOpenAI, model: str, conversation: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> ModelTurn:
        """See :class:`Wire`. Raises: openai errors, ValueError (bad JSON), AttributeError etc. (odd shape)."""
        reply: Any = await client.chat.completions.create(
            model=model, messages=conversation, **_tools_arg(tools)  # type: ignore[arg-type]  # plain dicts on the wire
        )
        message = reply.choices[0].message
        text = message.content or ""
        calls = [
            ToolCall(c.id, c.function.name, c.function.arguments or "{}")
            for c in (message.tool_calls or [])
            if getattr(c, "type", "function") == "function"
        ]
        entry: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            entry["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls
            ]
        else:
            entry["content"] = text
        conversation.append(entry)
        return ModelTurn(text, calls)

    def add_result(self, conversation: list[dict[str, Any]], call: ToolCall, output: str) -> None:
        """See :class:`Wire`."""
        conversation.append({"role": "tool", "tool_call_id": call.id, "content": output})


class ResponsesWire:
    """Responses: tools ``{"type": "function", "name", ...}``; ``function_call`` / ``function_call_output`` items.

    The model's output items go back as plain items (assistant text, function calls without their
    ids); reasoning items are left out, so the conversation works with or without stored responses.
    """

    def tools(self, tools: Sequence[Any]) -> list[dict[str, Any]]:
        """See :class:`Wire`."""
        return [{"type": "function", **_function(t)} for t in tools]

    def start(self, system: str, user: str) -> list[dict[str, Any]]:
        """See :class:`Wire`."""
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    async def ask(
        self, client: openai.AsyncOpenAI, model: str, conversation: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> ModelTurn:
        """See :class:`Wire`. Raises: openai errors, ValueError (bad JSON), AttributeError etc. (odd shape)."""
        reply: Any = await client.responses.create(
            model=model, input=conversation, **_tools_arg(tools)  # type: ignore[arg-type]  # plain dicts on the wire
        )
        texts: list[str] = []
        calls: list[ToolCall] = []
        for item in reply.output:
            if item.type == "function_call":
                call = ToolCall(item.call_id, item.name, item.arguments or "{}")
                calls.append(call)
                conversation.append(
                    {"type": "function_call", "call_id": call.id, "name": call.name, "arguments": call.arguments}
                )
            elif item.type == "message":
                text = "".join(c.text for c in item.content if c.type == "output_text" and c.text)
                if text:
                    texts.append(text)
                    conversation.append({"role": "assistant", "content": text})
        return ModelTurn("\n".join(texts), calls)

    def add_result(self, conversation: list[dict[str, Any]], call: ToolCall, output: str) -> None:
        """See :class:`Wire`."""
        conversation.append({"type": "function_call_output", "call_id": call.id, "output": output})


WIRES: dict[str, Wire] = {"chat": ChatWire(), "responses": ResponsesWire()}


def _tools_arg(tools: list[dict[str, Any]]) -> dict[str, Any]:
    return {"tools": tools} if tools else {}


async def ask(wire: Wire, client: openai.AsyncOpenAI, model: str, conversation: list[dict[str, Any]],
               tools: list[dict[str, Any]]) -> ModelTurn:  # fmt: skip
    """One model call; every way the endpoint can fail becomes :class:`ModelError` (the conversation is kept)."""
    before = len(conversation)
    try:
        return await wire.ask(client, model, conversation, tools)
    except (openai.OpenAIError, ValueError, AttributeError, TypeError, KeyError, IndexError) as exc:
        del conversation[before:]
        raise ModelError(model_failure(exc, client.timeout)) from None


def model_failure(exc: Exception, timeout: Any) -> str:
    """What went wrong with the model endpoint, in one line (the client's timeout in seconds when it timed out)."""
    if isinstance(exc, openai.APITimeoutError):
        seconds = timeout if isinstance(timeout, int | float) else getattr(timeout, "read", timeout)
        return f"the model endpoint timed out (after {seconds} s)"
    if isinstance(exc, openai.APIConnectionError):
        return f"could not reach the model endpoint: {describe(exc.__cause__ or exc)}"
    if isinstance(exc, openai.APIStatusError):
        return f"the model endpoint answered HTTP {exc.status_code}: {describe(exc)}"
    if isinstance(exc, openai.OpenAIError):
        return f"the model endpoint failed: {describe(exc)}"
    if isinstance(exc, ValueError):  # json.JSONDecodeError among them
        return f"the model endpoint answered malformed JSON: {describe(exc)}"
    return f"the model's reply has an unexpected shape ({type(exc).__name__}: {describe(exc)})"


