"""A fast path for the two hot MCP methods, ``tools/call`` and ``tools/list``, in front of FastMCP.

FastMCP spends ~1.7 ms of CPU on each stateless JSON request (a transport, a
dispatcher, a connection and a task per request); the action itself costs a
fraction of that. :class:`FastPath` answers the common request itself when every
precondition FastMCP would check holds, and hands anything else to FastMCP
unchanged, the body it already read replayed:

- ``POST /mcp``, a ``MCP-Protocol-Version`` header that is absent or names a
  handshake-era version (2025 and before), or names 2026-07-28 with the routing
  headers and ``_meta`` envelope the SDK's classifier accepts as they are, and no
  ``Mcp-Param-*`` header;
- Host and Origin accepted by FastMCP's own guard (the guard instance
  FastMCP's app is configured with runs in front of this one, so a refusal is
  FastMCP's own 421/403);
- one ``Authorization: Bearer`` header whose token opens a live session;
- ``Accept`` that takes ``application/json``, ``Content-Type`` that is
  ``application/json`` by both of the SDK's rules, a body within the MCP SDK's 4 MiB limit;
- a session still live once the body has arrived (FastMCP's handlers look it up after the body is read);
- a body that is one JSON-RPC request object (``jsonrpc``, ``id`` an integer or
  string, ``method``, ``params``; nothing else), ``tools/list`` without a
  cursor or ``tools/call`` of a registry action with ``name`` and an object of
  ``arguments``, params the SDK's own per-version check accepts (``_meta`` with
  a progress token or a client's keys is fine; ``_meta.fastmcp`` is not).

The answer is built from the same objects FastMCP builds (``ToolResult`` to
``CallToolResult``), shaped by the same per-version result surface of the MCP
SDK and written as that era's entry writes it (2026: ``resultType`` and the
``serverInfo`` stamp, ``json.dumps``), so status, headers and body match byte for byte;
``tests/gateway/surfaces/test_mcp_fast.py`` drives both paths with a corpus of
requests and compares them. ``Settings.mcp_fast_path`` (``GATEWAY_MCP_FAST_PATH``)
turns it off.

On or off, it refuses one thing FastMCP would take: a request (with a live session's token) whose ``id`` is
not a string or an integer gets a 400 JSON-RPC error; the SDK reads it as a notification and answers 202
with no body, which leaves the caller waiting. Only a body the fast path does not answer is parsed for it.

What it skips, knowingly: FastMCP middleware (the server has one, ``SessionTools``, whose
listing is repeated here), and the refresh of FastMCP's ``Mcp-Param`` schema cache on a
listing (fail-open: a miss skips a check that no schema here declares headers for).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

import pydantic_core
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.http import HostOriginGuardMiddleware
from fastmcp.tools import Tool, ToolResult
from mcp.server.streamable_http import check_accept_headers
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp.shared.inbound import (
    MCP_PARAM_HEADER_PREFIX,
    InboundLadderRejection,
    classify_inbound_request,
    find_duplicated_routing_header,
    validate_mcp_param_headers,
)
from mcp.types import CallToolResult, ListToolsResult, TextContent
from mcp_types import DEFAULT_NEGOTIATED_VERSION, SERVER_INFO_META_KEY
from mcp_types import methods as wire_methods
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.control.core import Gateway
from gateway.control.sessions import LIVE, Session
from gateway.surfaces.mcp import ActionTool
from gateway.surfaces.refusals import send_refusal

__all__ = ["FastPath", "server_info"]

logger = logging.getLogger(__name__)

#: Where FastMCP's app serves MCP (``http_app(path=...)``).
MCP_PATH = "/mcp"
#: Cached tools/list bodies (one per protocol version and tool list); tasks share a few lists.
_LISTINGS_KEPT = 256
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_CALL_KEYS = frozenset({"name", "arguments", "_meta"})
_LIST_KEYS = frozenset({"_meta"})
_JSON_HEADERS = [(b"content-type", b"application/json")]
_PARAM_HEADER = MCP_PARAM_HEADER_PREFIX.lower()


class FastPath:
    """ASGI app answering hot MCP requests itself and passing everything else to ``mcp_app``.

    Args:
        mcp_app: FastMCP's Starlette app (``FastMCP.http_app(stateless_http=True, json_response=True)``);
            its Host/Origin guard, if it has one, is reused as is.
        gateway: Whose sessions the bearer tokens open.
        tools: Every tool FastMCP serves, by name (``tools/list`` lists from here, as ``SessionTools`` does).
        enabled: Whether to take the fast path at all; with False every request goes to ``mcp_app``.
        server_info: The ``serverInfo`` the MCP SDK stamps on 2026-era results (its server's
            ``server_info_stamp``); without it, 2026-era requests all go to FastMCP.

    Attributes:
        answered: How many requests the fast path answered itself (the rest went to FastMCP).
    """

    def __init__(
        self,
        mcp_app: ASGIApp,
        gateway: Gateway,
        tools: dict[str, Tool],
        *,
        enabled: bool = True,
        server_info: dict[str, Any] | None = None,
    ) -> None:
        self.mcp_app = mcp_app
        self._server_info = server_info
        self.enabled = enabled
        self.answered = 0
        self._gateway = gateway
        self._tools = tools
        self._listings: dict[tuple[str, tuple[str, ...]], bytes] = {}
        guard = _guard_of(mcp_app)
        self._guarded: ASGIApp = guard.cls(self._answer, *guard.args, **guard.kwargs) if guard else self._answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a hot request, or pass the request to FastMCP."""
        if scope["type"] != "http" or scope["method"] != "POST" or _route_path(scope) != MCP_PATH:
            await self.mcp_app(scope, receive, send)
            return
        await self._guarded(scope, receive, send)  # turned off, it still refuses a request with a bad id

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Past the Host/Origin guard: check the rest, read the body, answer or fall through."""
        session, version = self._preconditions(scope)
        if session is None:
            await self.mcp_app(scope, receive, send)
            return
        body, replay = await _read_body(receive)
        if session.status not in LIVE:  # closed or verified while its body was arriving: FastMCP refuses it
            await self.mcp_app(scope, replay, send)
            return
        modern = version in MODERN_PROTOCOL_VERSIONS
        request = None if body is None or not self.enabled else _parse(body, modern)
        if request is None and body is not None and (why := _bad_id(body)) is not None:
            # the SDK takes it for a notification: 202, and the caller waits for an answer for ever
            await send_refusal(send, MCP_PATH, 400, why)
            return
        if request is not None and modern and not _modern_envelope(scope, body or b"", request):
            request = None
        reply = None if request is None else await self._reply(session, version, *request, scope)
        if reply is None:
            await self.mcp_app(scope, replay, send)
            return
        self.answered += 1
        if modern:  # the SDK's 2026-era entry answers through a Starlette Response
            await Response(reply, status_code=200, media_type="application/json")(scope, replay, send)
            return
        headers = [*_JSON_HEADERS, (b"content-length", str(len(reply)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": reply})

    def _preconditions(self, scope: Scope) -> tuple[Session | None, str]:
        """The caller's live session and the protocol version, or (None, "") when FastMCP must answer."""
        version: str | None = None
        authorization: str | None = None
        for name, value in scope["headers"]:
            if name == b"mcp-protocol-version":
                if version is not None:
                    return None, ""
                version = value.decode("latin-1")
            elif name == b"authorization":
                if authorization is not None:
                    return None, ""
                authorization = value.decode("latin-1")
        if (
            version is not None
            and version not in HANDSHAKE_PROTOCOL_VERSIONS
            and not (version in MODERN_PROTOCOL_VERSIONS and self._server_info is not None)
        ):
            return None, ""  # unknown: the SDK's own entry answers it
        if authorization is None or authorization[:7].lower() != "bearer ":
            return None, ""
        request = Request(scope)
        if not check_accept_headers(request)[0] or not _json_content_type(request.headers.get("content-type", "")):
            return None, ""
        for name, value in scope["headers"]:
            if name == b"content-length" and not (value.isdigit() and int(value) <= DEFAULT_MAX_REQUEST_BODY_SIZE):
                return None, ""
        token = authorization[7:]  # the SDK takes the rest as is, unstripped
        session = self._gateway.session_by_token(token) if token.isascii() else None
        if session is None or session.status not in LIVE:
            return None, ""
        return session, version or DEFAULT_NEGOTIATED_VERSION

    async def _reply(
        self, session: Session, version: str, rid: int | str, method: str, params: dict[str, Any] | None, scope: Scope
    ) -> bytes | None:
        """The response body for a parsed request, or None when FastMCP must answer it."""
        if not _valid_params(method, version, params):
            return None
        if method == "tools/list":
            if params is not None and not params.keys() <= _LIST_KEYS:
                return None  # a cursor: FastMCP pages
            result = self._listing(session, version)
        elif params is None or not params.keys() <= _CALL_KEYS:
            return None
        else:
            name, arguments = params.get("name"), params.get("arguments", {})
            tool = self._tools.get(name) if isinstance(name, str) else None
            if not isinstance(tool, ActionTool) or not isinstance(arguments, dict):
                return None
            # 2026-era: the SDK checks Mcp-Param headers against the tool's schema before dispatch.
            modern = version in MODERN_PROTOCOL_VERSIONS
            if modern and arguments and validate_mcp_param_headers(tool.parameters, arguments, Headers(scope=scope)):
                return None
            result = self._encode(version, await _call(tool, session, arguments, version))
        if result is None:
            return None
        if version in MODERN_PROTOCOL_VERSIONS:  # the SDK's 2026-era entry writes with json.dumps
            return b'{"jsonrpc":"2.0","id":' + json.dumps(rid).encode() + b',"result":' + result + b"}"
        return b'{"jsonrpc":"2.0","id":' + pydantic_core.to_json(rid) + b',"result":' + result + b"}"

    def _encode(self, version: str, result: dict[str, Any]) -> bytes:
        """A result as the SDK writes it: its 2026-era fields stamped on (``resultType``, ``serverInfo``)."""
        if version not in MODERN_PROTOCOL_VERSIONS:
            return pydantic_core.to_json(result)
        if result.get("resultType") is None:
            result["resultType"] = "complete"
        meta = result.get("_meta")
        if meta is None:
            result["_meta"] = {SERVER_INFO_META_KEY: self._server_info}
        elif isinstance(meta, dict) and meta.get(SERVER_INFO_META_KEY) is None:
            result["_meta"] = {**meta, SERVER_INFO_META_KEY: self._server_info}
        return json.dumps(result, separators=(",", ":")).encode()

    def _listing(self, session: Session, version: str) -> bytes | None:
        """The session's ``tools/list`` result (JSON), as FastMCP shapes it for ``version``; cached."""
        key = (version, tuple(session.tools))
        cached = self._listings.get(key)
        if cached is not None:
            return cached
        tools = [self._tools[name] for name in dict.fromkeys(session.tools) if name in self._tools]
        if any(t.output_schema is not None for t in tools):
            return None  # FastMCP reshapes output schemas per version; none of the gateway's tools has one
        listing = ListToolsResult(tools=[t.to_mcp_tool(name=t.name, outputSchema=None) for t in tools])
        body = self._encode(version, _wire_result("tools/list", version, listing))
        if len(self._listings) >= _LISTINGS_KEPT:
            self._listings.pop(next(iter(self._listings)))
        self._listings[key] = body
        return body


async def _call(tool: ActionTool, session: Session, arguments: dict[str, Any], version: str) -> dict[str, Any]:
    """Run the tool as FastMCP's ``tools/call`` handler would; the result as the SDK shapes it for ``version``."""
    try:
        result: ToolResult = await tool.run_for(session, arguments)
    except ToolError as exc:
        logger.log(exc.log_level, "Error calling tool %r", tool.name)
        return _wire_result("tools/call", version, _error_result(str(exc)))
    except Exception:  # FastMCP's top-level handling of a tool's own failure: logged, masked (mask_error_details)
        logger.exception("Error calling tool %r", tool.name)
        return _wire_result("tools/call", version, _error_result(f"Error calling tool {tool.name!r}"))
    shaped = result.to_mcp_result()
    if isinstance(shaped, tuple):
        shaped = CallToolResult(content=shaped[0], structured_content=shaped[1])
    elif not isinstance(shaped, CallToolResult):
        shaped = CallToolResult(content=shaped)
    return _wire_result("tools/call", version, shaped)


def _error_result(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _wire_result(method: str, version: str, result: CallToolResult | ListToolsResult) -> dict[str, Any]:
    """``result`` as the MCP SDK shapes it for ``version``: dumped, then sieved by that version's surface."""
    dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return wire_methods.serialize_server_result(method, version, dumped)


def _parse(body: bytes, modern: bool) -> tuple[int | str, str, dict[str, Any] | None] | None:
    """(id, method, params) of a hot JSON-RPC request, else None; parsed as the SDK's entry for the era parses."""
    try:
        message = json.loads(body) if modern else pydantic_core.from_json(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or not message.keys() <= _REQUEST_KEYS or message.get("jsonrpc") != "2.0":
        return None
    rid, method = message.get("id"), message.get("method")
    params = message.get("params", {})
    if isinstance(rid, bool) or not isinstance(rid, int | str) or not isinstance(params, dict):
        return None
    if isinstance(rid, int) and abs(rid) >= 2**53:
        return None
    if method not in ("tools/call", "tools/list"):
        return None
    return rid, method, params if "params" in message else None


def _bad_id(body: bytes) -> str | None:
    """Why a request's ``id`` is refused (null, a number with a fraction, a boolean, a list or an object), else None.

    MCP requests carry a string or integer id. The SDK reads a request with any other id as a notification
    and answers 202 with no body; this answers 400 with a JSON-RPC error instead. Anything else (a
    notification, a response, a batch, a body that is not JSON) is left to the SDK.
    """
    try:
        message = pydantic_core.from_json(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or "id" not in message or not isinstance(message.get("method"), str):
        return None
    rid = message["id"]
    if isinstance(rid, int | str) and not isinstance(rid, bool):
        return None
    kind = "null" if rid is None else {bool: "a boolean", float: "a number with a fraction", list: "a list"}.get(
        type(rid), "an object"
    )
    return f"Invalid Request: a request's id is a string or an integer, not {kind}; send one such as 1"


def _modern_envelope(scope: Scope, body: bytes, request: tuple[int | str, str, dict[str, Any] | None]) -> bool:
    """Whether a 2026-era request passes the SDK's routing checks (headers, ``_meta`` envelope) unremarked."""
    headers = Request(scope).headers
    if any(name.startswith(_PARAM_HEADER) for name in headers):
        return False
    if find_duplicated_routing_header(headers.items()) is not None:
        return False
    verdict = classify_inbound_request(json.loads(body), headers=dict(headers))
    return not isinstance(verdict, InboundLadderRejection)


def _valid_params(method: str, version: str, params: dict[str, Any] | None) -> bool:
    """Whether the MCP SDK's per-version check of a request's params passes, and ``_meta`` asks nothing of FastMCP.

    ``_meta`` may carry a progress token (nothing reports progress here, and a JSON response has no room
    for notifications) and a client's own keys (Codex sends its turn's); ``_meta.fastmcp`` picks a tool
    version in FastMCP, so such a request is FastMCP's.
    """
    meta = params.get("_meta") if params else None
    if meta is not None and (not isinstance(meta, dict) or "fastmcp" in meta):
        return False
    try:
        wire_methods.validate_client_request(method, version, params)
    except (ValueError, KeyError):  # pydantic's ValidationError is a ValueError
        return False
    return True


async def _read_body(receive: Receive) -> tuple[bytes | None, Receive]:
    """The whole body (None past the SDK's limit or on a disconnect), and a receive that replays what was read."""
    messages: list[Message] = []
    size = 0
    complete = False
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if size > DEFAULT_MAX_REQUEST_BODY_SIZE:
            break
        if not message.get("more_body", False):
            complete = True
            break

    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    if not complete:
        return None, replay
    body = b"".join(m.get("body", b"") for m in messages)
    return body, replay


def _json_content_type(value: str) -> bool:
    """The MCP SDK's two Content-Type rules, both of which a request must pass.

    Its transport security check: the value starts with ``application/json`` (in any case); its transport:
    ``application/json`` among the comma-separated parts before any ``;``. So ``text/plain, application/json``
    is refused (400) by the first.
    """
    parts = value.split(";")[0].split(",")
    return value.lower().startswith("application/json") and any(part.strip() == "application/json" for part in parts)


def _route_path(scope: Scope) -> str:
    """The path inside the app this one is mounted in (Starlette's rule for ``root_path``)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if not root or not path.startswith(root):
        return path
    if path == root:
        return ""
    return path[len(root) :] if path[len(root)] == "/" else path


def _guard_of(app: Any) -> Middleware | None:
    """FastMCP's Host/Origin guard among ``app``'s middleware, if it has one."""
    middleware: Sequence[Middleware] = getattr(app, "user_middleware", ())
    return next((m for m in middleware if m.cls == HostOriginGuardMiddleware), None)  # type: ignore[comparison-overlap]


def server_info(server: FastMCP) -> dict[str, Any]:
    """The ``serverInfo`` the MCP SDK stamps on ``server``'s 2026-era results (name, version: its own dump)."""
    return server._mcp_server.server_info_stamp
