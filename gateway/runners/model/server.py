"""The scripted model's HTTP server: OpenAI, Anthropic and Gemini routes over one script.

Routes (each also without the ``/v1`` prefix, and Gemini's under ``/v1beta`` and ``/v1``):
``POST /v1/responses``, ``POST /v1/chat/completions``, ``POST /v1/messages``,
``POST /v1/messages/count_tokens``, ``POST /v1beta/models/<model>:generateContent`` (also
``:streamGenerateContent`` and ``:countTokens``), ``GET /v1/models``, and ``GET /health`` (``{"status": "ok"}``:
what a script waits for before it starts a harness).

Each request is answered from the request alone: the task is the one whose instruction its user messages hold
(:class:`~gateway.runners.model.plans.ReferenceSource`), the policy picks the steps, and the conversation so far
says which step comes next (:func:`~gateway.runners.model.script.next_reply`). Anything the script cannot do
is answered in text starting with ``SCRIPT ERROR`` and kept in :attr:`ScriptedModel.errors`; a body that is not
a JSON object gets a 400 naming it.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gateway.exceptions import TaskError
from gateway.runners.model import wires
from gateway.runners.model.plans import POLICIES, ReferenceSource, ScriptError, steps_for
from gateway.runners.model.script import Call, Turn, next_reply, reply_style
from gateway.surfaces.serve import serve_in_background

__all__ = ["ScriptedModel", "serve_model"]

logger = logging.getLogger(__name__)

#: The model id ``GET /models`` lists (any model name in a request is accepted).
MODEL_ID = "scripted"
#: How many script errors :attr:`ScriptedModel.errors` keeps (the newest).
_ERRORS_KEPT = 1000


class ScriptedModel:
    """Plays each session's steps for ``policy``, one step per model turn.

    Args:
        references: Where the task of a request is found (a gateway's control plane, or task rows).
        policy: ``"oracle"`` (the reference solution), ``"noop"`` (answers in text at once) or ``"wrong"``
            (the task's negative control: a plausible wrong play that scores 0.0).
        policies: Task id to policy, for tasks played otherwise than ``policy``.
        keep_requests: How many request bodies :attr:`requests` keeps (the newest); 0 keeps none.

    Attributes:
        requests: ``(api, body)`` of the last ``keep_requests`` requests, in order (``api``: ``"responses"``,
            ``"chat"``, ``"messages"`` or ``"gemini"``).
        errors: What went wrong in the script, if anything (the newest 1,000).

    Raises:
        ValueError: an unknown policy.
    """

    def __init__(self, references: ReferenceSource, policy: str = "oracle", policies: dict[str, str] | None = None,
                 keep_requests: int = 1000) -> None:  # fmt: skip
        for name in [policy, *(policies or {}).values()]:
            if name not in POLICIES:
                raise ValueError(f"policy: {name!r} is not one of {', '.join(POLICIES)}")
        self.references = references
        self.policy = policy
        self.policies = dict(policies or {})
        self.keep_requests = keep_requests
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.errors: list[str] = []

    async def reply(self, turn: Turn) -> Call | str:
        """The answer to ``turn``: a tool call or a text (``SCRIPT ERROR: ...`` when the script cannot go on)."""
        if reply_style(turn) == "side":  # e.g. OpenCode asking for a session title
            return "Company task"
        try:
            reference = await self.references.find(turn.text)
            steps = steps_for(reference, self.policies.get(reference.task_id, self.policy))
            return next_reply(turn, steps, reference.exposure)
        except (ScriptError, TaskError) as exc:  # TaskError: an output lacks a value a later step needs
            message = f"SCRIPT ERROR: {exc}"
            logger.warning("%s", message)
            self.errors[: max(0, len(self.errors) - _ERRORS_KEPT + 1)] = []
            self.errors.append(message)
            return message

    # ---- routes -------------------------------------------------------------------------------

    async def _body(self, request: Request, api: str) -> dict[str, Any]:
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            raise _BadRequest("the body must be JSON") from None
        if not isinstance(body, dict):
            raise _BadRequest("the body must be a JSON object")
        if self.keep_requests > 0:
            self.requests[: max(0, len(self.requests) - self.keep_requests + 1)] = []
            self.requests.append((api, body))
        return body

    async def _responses(self, request: Request) -> Response:
        body = await self._body(request, "responses")
        turn = wires.responses_turn(body)
        return wires.responses_reply(body, await self.reply(turn), len(turn.outputs))

    async def _chat(self, request: Request) -> Response:
        body = await self._body(request, "chat")
        turn = wires.chat_turn(body)
        return wires.chat_reply(body, await self.reply(turn), len(turn.outputs) + turn.replies)

    async def _messages(self, request: Request) -> Response:
        body = await self._body(request, "messages")
        turn = wires.messages_turn(body)
        return wires.messages_reply(body, await self.reply(turn), len(turn.outputs))

    async def _gemini(self, request: Request) -> Response:
        model, _, method = request.path_params["call"].partition(":")
        if method == "countTokens":
            return JSONResponse({"totalTokens": 10})
        if method not in ("generateContent", "streamGenerateContent"):
            return JSONResponse({"error": {"message": f"unknown method {method!r}", "code": 404}}, 404)
        body = await self._body(request, "gemini")
        return wires.gemini_reply(model, method, request.query_params.get("alt"),
                                  await self.reply(wires.gemini_turn(body)))  # fmt: skip

    def app(self) -> Starlette:
        """The ASGI app (see the module docstring for its routes)."""
        routes: list[Route] = []
        for prefix in ("/v1", ""):
            routes += [
                Route(f"{prefix}/responses", _guarded(self._responses), methods=["POST"]),
                Route(f"{prefix}/chat/completions", _guarded(self._chat), methods=["POST"]),
                Route(f"{prefix}/messages", _guarded(self._messages), methods=["POST"]),
                Route(f"{prefix}/messages/count_tokens", _count_tokens, methods=["POST"]),
                Route(f"{prefix}/models", _models, methods=["GET"]),
            ]
        for prefix in ("/v1beta", "/v1", ""):
            routes.append(Route(f"{prefix}/models/{{call:path}}", _guarded(self._gemini), methods=["POST"]))
        routes.append(Route("/health", _health, methods=["GET"]))
        return Starlette(routes=routes)


class _BadRequest(Exception):
    """A request the server cannot read (400)."""


def _guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    async def guarded(request: Request) -> Response:
        try:
            response: Response = await handler(request)
        except _BadRequest as exc:
            return JSONResponse({"error": {"message": str(exc), "type": "invalid_request_error"}}, 400)
        return response

    return guarded


async def _count_tokens(request: Request) -> Response:
    return JSONResponse({"input_tokens": 10})


async def _health(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def _models(request: Request) -> Response:
    return JSONResponse({"object": "list", "data": [{"id": MODEL_ID, "object": "model", "owned_by": "local"}]})


@contextlib.asynccontextmanager
async def serve_model(model: ScriptedModel, host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[str]:
    """Serve ``model`` in this event loop; yields the base URL clients take (``http://127.0.0.1:P/v1``)."""
    async with serve_in_background(model.app(), host=host, port=port) as base:
        yield base + "/v1"
