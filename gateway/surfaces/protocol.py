"""uvicorn's HTTP protocol with a deadline on each request's head: slow or silent clients are cut off.

uvicorn (0.54) waits for a request's head for ever: a client that opens connections and sends
a header byte now and then (slow-loris) keeps each one, and the server's file descriptors, as long
as it likes. :func:`http_protocol` gives the class to pass as ``uvicorn.Config(http=...)``: a
connection that has not sent a whole request head (request line and headers) within the
deadline of connecting, or of its previous answer, is closed. The body has a deadline of its own
(:class:`gateway.surfaces.limits.BodyLimit`).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["http_protocol"]


def http_protocol(head_timeout_s: float) -> type[asyncio.Protocol]:
    """The httptools protocol of uvicorn, closing a connection whose request head takes over ``head_timeout_s`` s.

    Args:
        head_timeout_s: Seconds from connecting, or from the previous answer, to a whole request head.

    Returns:
        A protocol class for ``uvicorn.Config(http=...)``.
    """

    class HeadDeadline(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's head (an idle connection also meets the keep-alive timeout)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(head_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _too_slow(self) -> None:
            self._head_timer = None
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a request (e.g. a pipelined one) is being served: its head arrived
            if not self.transport.is_closing():
                self.transport.close()

    return HeadDeadline
