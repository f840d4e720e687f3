"""Request size limits: a body larger than the setting is refused with 413 before it is read into memory."""

from __future__ import annotations

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
    """

    def __init__(self, app: ASGIApp, max_bytes: int, paths: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.paths = {path: min(limit, max_bytes) for path, limit in (paths or {}).items()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 413 once its body is known to be too large."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.max_bytes)
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await self._refuse(send, limit)
                return
        seen = 0
        started = False
        refused = False

        async def counted() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Answer 413 here, before the app can turn the error below into a 500 of its own
                    # (a mounted Starlette app's ServerErrorMiddleware does, e.g. the MCP app).
                    if not started:
                        refused = True
                        await self._refuse(send, limit)
                    raise _TooLarge
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 is the answer; drop whatever the app sends after it
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked_send)
        except _TooLarge:
            pass  # answered above, or too late to answer (the response had already started)
        except Exception:
            if not refused:
                raise
            # The app wrapped _TooLarge (e.g. in an ExceptionGroup) after the 413 went out: nothing left to do.

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps({"error": f"the request body is larger than {limit} bytes"}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass
