"""uvicorn's HTTP protocol with a deadline and a size bound on each request's head.

uvicorn (0.54) waits for a request's head for ever, and takes one of any size: a client that
opens connections and sends a header byte now and then (slow-loris) keeps each one, and the
server's file descriptors, as long as it likes; one 100 MB header held the event loop 13 s.
:func:`http_protocol` gives the class to pass as ``uvicorn.Config(http=...)``: a connection that
has not sent a whole request head (request line and headers) within the deadline of connecting,
or of its previous answer, is closed; one whose head grows past :data:`MAX_HEAD_BYTES` is answered
431 and closed. The body has a deadline and a size bound of its own
(:class:`gateway.surfaces.limits.BodyLimit`). Both refusals are JSON in the shape of the route asked
(:func:`gateway.surfaces.refusals.refusal_body`: the company API's, MCP's or the control plane's), as far as
the request line was read. So is the 400 for a request the parser cannot read (a bad ``Content-Length``, framing
or request line), which uvicorn answers in plain text.
"""

from __future__ import annotations

import asyncio

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gateway.surfaces.refusals import refusal_body

__all__ = ["MAX_HEAD_BYTES", "http_protocol"]

#: Most bytes of a request head (request line and headers) read before it is refused with 431.
MAX_HEAD_BYTES = 64 * 1024


def _raw_answer(status: str, path: str, error: str) -> bytes:
    """A whole HTTP/1.1 JSON refusal of a request to ``path`` that closes the connection, as bytes."""
    body = refusal_body(path, error)
    head = f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
    return head.encode() + b"connection: close\r\n\r\n" + body


_TOO_LARGE = ("431 Request Header Fields Too Large", f"the request head is larger than {MAX_HEAD_BYTES} bytes")


def http_protocol(head_timeout_s: float, max_request_bytes: int = 8 * 1024 * 1024) -> type[asyncio.Protocol]:
    """The httptools protocol of uvicorn, closing a connection whose request head takes over ``head_timeout_s`` s.

    Args:
        head_timeout_s: Seconds from connecting, or from the previous answer, to a whole request head.
        max_request_bytes: The largest body the app takes; a request whose bytes on the wire (head, body,
            chunk framing, trailers) pass twice this plus :data:`MAX_HEAD_BYTES` is answered 413 and closed
            (a 100 MB trailer after a chunked body held the loop 4 s).

    Returns:
        A protocol class for ``uvicorn.Config(http=...)``.
    """
    wire_limit = 2 * max_request_bytes + MAX_HEAD_BYTES
    too_many = ("413 Content Too Large", f"the request is larger than {wire_limit} bytes")

    class HeadDeadline(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None
        _in_head = False  # between a request's first byte and the end of its headers
        _head_bytes = 0
        _parsed_head = 0  # bytes of the request line and headers the parser has handed over
        _head_too_large = False
        _in_request = False  # between a request's first byte and its end (body and trailers included)
        _request_bytes = 0

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._in_head:  # this data began or continued a head that is still not whole
                self._head_bytes += len(data)
                if self._head_bytes > MAX_HEAD_BYTES:
                    self._refuse(*_TOO_LARGE)
            if self._in_request:  # this data belongs to a request not yet whole
                self._request_bytes += len(data)
                if self._request_bytes > wire_limit:
                    self._refuse(*too_many)

        def on_url(self, url: bytes) -> None:
            super().on_url(url)
            self._count_head(len(url))

        def on_header(self, name: bytes, value: bytes) -> None:
            super().on_header(name, value)
            self._count_head(len(name) + len(value) + 4)

        def _count_head(self, n: int) -> None:
            # a whole head can arrive in one read (data_received counts reads): count what the parser took too
            self._parsed_head += n
            if self._parsed_head > MAX_HEAD_BYTES:
                self._head_too_large = True
                raise httptools.HttpParserError("request head too large")  # data_received answers 400: see below

        def send_400_response(self, msg: str) -> None:
            if self._head_too_large:
                self._refuse(*_TOO_LARGE)
            else:
                self._refuse("400 Bad Request", "the request could not be read as HTTP/1.1 (its request line, "
                             "headers, Content-Length or chunks); send a well-formed request")  # fmt: skip

        def _refuse(self, status: str, error: str) -> None:
            if not self.transport.is_closing():
                self._disarm()
                answered = not self._in_head and self.cycle is not None and self.cycle.response_started
                if not answered:  # else the app has begun its own answer to this request
                    url = getattr(self, "url", b"") or b""
                    path = bytes(url).split(b"?", 1)[0].decode("latin-1")
                    self.transport.write(_raw_answer(status, path, error))
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_head, self._head_bytes, self._parsed_head = True, 0, 0
            self._in_request, self._request_bytes = True, 0

        def on_message_complete(self) -> None:
            self._in_request = False
            super().on_message_complete()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            self._in_head = False
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
