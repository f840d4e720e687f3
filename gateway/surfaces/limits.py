"""Request body limits: 413 for a body over the size limit (before it is read into memory), 408 for a slow one."""

from __future__ import annotations

import asyncio
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodyLimit"]


class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` (by Content-Length, or while streaming).

    Args:
        app: The wrapped application.
        max_bytes: Largest body accepted, in bytes.
        paths: A smaller limit for requests to these exact paths (bytes by path), e.g. one an app
            mounted below enforces itself with an answer of its own.
        timeout_s: Seconds the whole body may take to arrive, counted from the app's first read of it;
            a slower one is answered 408 (a client trickling a body keeps no request open for longer).
    """

    def __init__(
        self, app: ASGIApp, max_bytes: int, paths: dict[str, int] | None = None, timeout_s: float | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.paths = {path: min(limit, max_bytes) for path, limit in (paths or {}).items()}
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 413 once its body is known to be too large (408: too slow)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.max_bytes)
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await self._answer(send, 413, f"the request body is larger than {limit} bytes")
                return
        seen = 0
        started = False
        refused = False
        deadline: float | None = None
        body_done = False

        async def counted() -> Message:
            nonlocal seen, refused, deadline, body_done
            if self.timeout_s is None or body_done:
                message = await receive()
            else:
                deadline = deadline or asyncio.get_running_loop().time() + self.timeout_s
                try:
                    async with asyncio.timeout_at(deadline):
                        message = await receive()
                except TimeoutError:
                    if not started:
                        refused = True
                        slow = f"the request body took longer than {self.timeout_s:g} s to arrive"
                        await self._answer(send, 408, slow)
                    raise _Refused from None
            if message["type"] == "http.request":
                body_done = not message.get("more_body", False)
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Answer 413 here, before the app can turn the error below into a 500 of its own
                    # (a mounted Starlette app's ServerErrorMiddleware does, e.g. the MCP app).
                    if not started:
                        refused = True
                        await self._answer(send, 413, f"the request body is larger than {limit} bytes")
                    raise _Refused
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

    async def _answer(self, send: Send, status: int, error: str) -> None:
        body = json.dumps({"error": error}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})


class _Refused(Exception):
    pass
