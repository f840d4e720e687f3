"""Request body limits: 413 for a body over the size limit (before it is read into memory), 408 for a slow one."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.surfaces.gate import LARGE_BODY_BYTES, PACER, UNAUTHENTICATED, BodyPacer
from gateway.surfaces.refusals import send_refusal
from tools import shorten

__all__ = ["MAX_BODY_VALUES", "BodyLimit", "BodyValues", "ShortErrors", "body_values"]


class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` (by Content-Length, or while streaming).

    Args:
        app: The wrapped application.
        max_bytes: Largest body accepted, in bytes.
        paths: A smaller limit for requests to these exact paths (bytes by path), e.g. one an app
            mounted below enforces itself with an answer of its own.
        timeout_s: Seconds the whole body may take to arrive, counted from the app's first read of it;
            a slower one is answered 408 (a client trickling a body keeps no request open for longer).

    A request whose scope holds a :class:`~gateway.surfaces.gate.BodyPacer` (``PACER``: the session gate's, on an
    authenticated tool request) has its body paced as it is read: once past ``LARGE_BODY_BYTES``, each chunk
    (and the bytes before it) waits for the pacer before the app gets it; the wait does not count toward
    ``timeout_s``.
    """

    def __init__(
        self, app: ASGIApp, max_bytes: int, paths: dict[str, int] | None = None, timeout_s: float | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.paths = {path: min(limit, max_bytes) for path, limit in (paths or {}).items()}
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 413 once its body is known to be too large (408: too slow).

        A body sent with a ``Content-Encoding`` other than ``identity`` is answered 415, unread.
        """
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.max_bytes)
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                too_large = f"the request body is larger than {limit} bytes"
                await send_refusal(send, scope.get("path", ""), 413, too_large)
                return
            if name == b"content-encoding" and value.strip().lower() not in (b"", b"identity"):
                shown = value.decode("latin-1")[:40]
                encoded = f"the body is sent with Content-Encoding: {shown}, which is not read here; "
                encoded += "send the body unencoded"
                await send_refusal(send, scope.get("path", ""), 415, encoded)
                return
        seen = 0
        charged = 0  # bytes the pacer was asked for
        pacer: BodyPacer | None = scope.get(PACER)
        started = False
        refused = False
        deadline: float | None = None
        credited = 0.0  # seconds of pacing the deadline was moved by (at most timeout_s in all)
        body_done = False

        async def too_slow() -> None:
            nonlocal refused
            if not started:
                refused = True
                slow = f"the request body took longer than {self.timeout_s:g} s to arrive"
                if credited:
                    slow += " (large bodies are being paced: send it again later)"
                await send_refusal(send, scope.get("path", ""), 408, slow)

        async def counted() -> Message:
            nonlocal seen, charged, refused, deadline, credited, body_done
            if self.timeout_s is None or body_done:
                message = await receive()
            else:
                deadline = deadline or asyncio.get_running_loop().time() + self.timeout_s
                try:
                    async with asyncio.timeout_at(deadline):
                        message = await receive()
                except TimeoutError:
                    await too_slow()
                    raise _Refused from None
            if message["type"] == "http.request":
                body_done = not message.get("more_body", False)
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Answer 413 here, before the app can turn the error below into a 500 of its own
                    # (a mounted Starlette app's ServerErrorMiddleware does, e.g. the MCP app).
                    if not started:
                        refused = True
                        too_large = f"the request body is larger than {limit} bytes"
                        await send_refusal(send, scope.get("path", ""), 413, too_large)
                    raise _Refused
                if pacer is not None and seen > LARGE_BODY_BYTES and seen > charged:
                    if deadline is None or self.timeout_s is None:
                        await pacer.take(seen - charged)
                    else:
                        # The wait is the server's, not the client's: it moves the deadline, by at most timeout_s
                        # in all, so a body trickled beside a flood of large ones is still cut off (408).
                        loop = asyncio.get_running_loop()
                        waited_from = loop.time()
                        try:
                            async with asyncio.timeout_at(deadline + self.timeout_s - credited):
                                await pacer.take(seen - charged)
                        except TimeoutError:
                            credited = self.timeout_s
                            await too_slow()
                            raise _Refused from None
                        moved = min(loop.time() - waited_from, self.timeout_s - credited)
                        credited += moved
                        deadline += moved
                    charged = seen
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 or 408 is the answer; drop whatever the app sends after it
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked_send)
        except _Refused:
            pass  # answered above, or too late to answer (the response had already started)
        except Exception:
            if not refused:
                raise
            # The app wrapped _Refused (e.g. in an ExceptionGroup) after the 413 or 408 went out: nothing left to do.


class _Refused(Exception):
    pass


#: Most values (list items, object members, form fields) a request body may hold; no call needs near as many.
MAX_BODY_VALUES = 20_000
#: Bodies up to this size are not counted (they cannot hold enough values to cost much to parse).
_COUNT_FROM_BYTES = 64 * 1024


def body_values(body: bytes, form: bool) -> int:
    """An upper bound of the values in a JSON (or form-encoded) body, found without parsing it.

    JSON: escaped quotes and backslashes are dropped, then strings are cut out at their quotes and the
    commas between values counted; form data: its ``&`` separators. Linear in the body (about 5 ms a
    MB), where parsing a body of many small values cost ~60 ms per 100,000 of them on the event loop.
    """
    if form:
        return body.count(b"&") + 1
    bare = body.replace(b"\\\\", b"").replace(b'\\"', b"")
    quotes = bare.count(b'"')
    if quotes > 2 * MAX_BODY_VALUES:
        return quotes // 2
    return sum(part.count(b",") for part in bare.split(b'"')[::2]) + 1


class BodyValues:
    """ASGI middleware refusing, with 400, a JSON or form body holding more than :data:`MAX_BODY_VALUES` values.

    A body of 300,000 object members (4 MB) took 0.4-0.8 s to parse and validate on the event loop, holding
    every other session; this counts a large body's values first (:func:`body_values`) and refuses it unparsed.

    Args:
        app: The wrapped application (inside :class:`BodyLimit`, which bounds what is read here).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count a large body's values, then pass the request on (the body replayed) or answer 400."""
        if scope["type"] != "http" or scope.get("method") != "POST" or scope.get(UNAUTHENTICATED):
            await self.app(scope, receive, send)  # a request without a live session is refused unread
            return
        headers = dict(scope.get("headers", []))
        size = headers.get(b"content-length", b"")
        if size.isdigit() and int(size) <= _COUNT_FROM_BYTES:
            await self.app(scope, receive, send)
            return
        chunks, more = [], True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was whole: no one to answer
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        # By what the route parses, whatever the body says it is: the shell route reads form data, the rest JSON.
        form = str(scope.get("path", "")).startswith("/cli/")
        if len(body) > _COUNT_FROM_BYTES and body_values(body, form) > MAX_BODY_VALUES:
            error = f"the request body holds more than {MAX_BODY_VALUES:,} values; send fewer (a list takes 100 items)"
            await send_refusal(send, scope.get("path", ""), 400, error)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


#: An MCP answer at least this large is checked for an error that repeats a caller's value whole.
_ECHO_CHECK_BYTES = 16 * 1024


class ShortErrors:
    """ASGI middleware cutting what an MCP error answer repeats of a caller's value (FastMCP's own errors).

    FastMCP's "Unknown tool: '<name>'", "Method not found" (with the method as data), "Unknown prompt" and
    resource errors repeat the caller's name or URI whole: a 100,000-character name came back as a
    100 KB answer. An answer over 16 KiB that is a JSON-RPC error, or a tool result marked ``isError``
    (the gateway's own error texts are at most a few hundred characters), has every long word or
    quoted value in its texts cut (:func:`tools.shorten`); other answers pass untouched.

    Args:
        app: The MCP app (FastMCP, behind the fast path).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; hold a large answer's start until its body shows whether it is an error."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: list[Message] = []

        async def checked(message: Message) -> None:
            if message["type"] == "http.response.start":
                size = dict(message.get("headers", [])).get(b"content-length", b"")
                if size.isdigit() and int(size) >= _ECHO_CHECK_BYTES:
                    held.append(message)
                    return
            elif held and message["type"] == "http.response.body" and not message.get("more_body", False):
                start, body = held.pop(), _short_error(message.get("body", b""))
                headers = [(k, str(len(body)).encode() if k == b"content-length" else v) for k, v in start["headers"]]
                await send({**start, "headers": headers})
                message = {**message, "body": body}
            await send(message)

        await self.app(scope, receive, checked)


def _shortened(value: Any) -> Any:
    """``value`` with every string in it (at any depth) shortened (:func:`tools.shorten`)."""
    if isinstance(value, str):
        return shorten(value)
    if isinstance(value, dict):
        return {k: _shortened(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shortened(v) for v in value]
    return value


def _short_error(body: bytes) -> bytes:
    """``body`` with the texts of its JSON-RPC error or ``isError`` result shortened; as it was otherwise."""
    if b'"error"' not in body[:200] and b'"isError":true' not in body and b'"isError": true' not in body:
        return body
    try:
        answer = json.loads(body)
    except ValueError:
        return body
    error, result = answer.get("error"), answer.get("result")
    if isinstance(error, dict):
        if isinstance(error.get("message"), str):
            error["message"] = shorten(error["message"])
        if "data" in error:
            error["data"] = _shortened(error.get("data"))
    elif isinstance(result, dict) and result.get("isError") is True:
        for part in result.get("content") or []:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                part["text"] = shorten(part["text"])
    else:
        return body
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
