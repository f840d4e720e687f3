"""Refusals in JSON on every route, in the shape of the route's own answers.

Three families of routes, each with the shape its callers already parse:

- the company API (``/api/...``, ``/cli/...``): ``{"error": {"message": str, "parameter": str | null}}``;
- MCP (``/mcp``): a JSON-RPC error object ``{"jsonrpc": "2.0", "id": null, "error": {"code", "message"}}``,
  as the MCP SDK's own transport writes its refusals (406, 405 on DELETE); the OAuth 401
  ``{"error": "invalid_token", "error_description": ...}`` FastMCP sends for a bad token is kept as it is;
- everything else (control routes, unknown paths): ``{"error": str}``, the control-plane contract.

Every refusal is so a JSON object with an ``error`` member: a string, or an object holding a
``message`` string. :class:`JsonRefusals` rewrites what FastMCP's transport answers in plain text or
with an empty body (405 wrong method, 400 wrong content type, 421/403 from the Host/Origin guard,
401 without a token) into the MCP shape, status and other headers kept, and serves ``/mcp/`` as
``/mcp`` (FastMCP answered it with an empty 307).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from http import HTTPStatus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MCP_INVALID_REQUEST", "JsonRefusals", "refusal_body", "send_refusal"]

#: JSON-RPC's "Invalid Request" code, which the MCP SDK's transport gives its HTTP-level refusals.
MCP_INVALID_REQUEST = -32600
_MCP_PATHS = ("/mcp", "/mcp/")
#: Headers of a plain-text answer that a JSON one replaces.
_REPLACED = {b"content-type", b"content-length"}


def _family(path: str) -> str:
    if path in _MCP_PATHS:
        return "mcp"
    if path.startswith(("/api/", "/cli/")):
        return "company"
    return "control"


def refusal_body(path: str, message: str) -> bytes:
    """The JSON body of a refusal of a request to ``path``, in that route's shape (see the module docstring)."""
    family = _family(path)
    if family == "mcp":
        answer: object = {"jsonrpc": "2.0", "id": None, "error": {"code": MCP_INVALID_REQUEST, "message": message}}
    elif family == "company":
        answer = {"error": {"message": message, "parameter": None}}
    else:
        answer = {"error": message}
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


async def send_refusal(
    send: Send, path: str, status: int, message: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Answer ``status`` with :func:`refusal_body` (JSON) and ``headers`` besides its type and length."""
    body = refusal_body(path, message)
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


def _is_json(headers: Iterable[tuple[bytes, bytes]]) -> bool:
    return any(k == b"content-type" and v.split(b";")[0].strip().lower() == b"application/json" for k, v in headers)


class JsonRefusals:
    """ASGI middleware in front of FastMCP: every refusal it answers becomes JSON (MCP's shape), ``/mcp/`` is ``/mcp``.

    An answer of status 300 or more that is not ``application/json`` (plain text, or no body) is
    held until its body is whole (these are short), then sent as :func:`refusal_body` with the
    status and every other header kept; the message is the plain text, or the status's reason
    phrase when there was none. JSON answers and successes pass untouched.

    Args:
        app: FastMCP's app (behind it, the fast path).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; rewrite a plain-text refusal."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path") == "/mcp/":  # FastMCP's router redirects it (an empty 307): serve it as /mcp
            scope = {**scope, "path": "/mcp", "raw_path": b"/mcp"}
        path = scope["path"]
        held: list[Message] = []
        parts: list[bytes] = []

        async def rewritten(message: Message) -> None:
            if message["type"] == "http.response.start":
                if message["status"] >= 300 and not _is_json(message.get("headers", [])):
                    held.append(message)
                    return
            elif held and message["type"] == "http.response.body":
                parts.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                start = held.pop()
                status = start["status"]
                text = b"".join(parts).decode("utf-8", "replace").strip()
                if not text:
                    text = _reason(status)
                kept = [(k, v) for k, v in start.get("headers", []) if k.lower() not in _REPLACED]
                await send_refusal(send, path, status, text, kept)
                return
            await send(message)

        await self.app(scope, receive, rewritten)


def _reason(status: int) -> str:
    if status == 401:
        return "Authentication required: send the header 'Authorization: Bearer <token>'"
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return f"HTTP {status}"
