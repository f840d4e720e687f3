"""The session gate: who is calling, and how many of its calls are open, judged from a request's head alone.

Every ``POST`` to a tool route (``/mcp``, ``/api/...``, ``/cli/...``) passes :class:`SessionGate` before
anything reads its body:

- a request with more than one ``Authorization`` header is refused 401, unread (the routes would read the
  first one, so the gate would see no session and bound nothing);
- its bearer token is looked up (a token that is not ASCII opens nothing, as any other bad token);
- with no live session, the request goes on unread: the route refuses it (401) before reading a byte,
  :class:`~gateway.surfaces.limits.BodyValues` does not scan it, and a body still unread is not
  waited for (the answer closes the connection);
- a session with ``max_inflight`` requests open is answered 429 (JSON in the route's shape, with
  ``Retry-After``) before its body is read; a session refused again before its ``Retry-After`` has passed
  (a client that does not wait) gets its next 429s only after that wait (at most :data:`MAX_HELD` held at
  once in all), so a client resending at once costs the loop one answer a second per lane, not thousands;
- a session's requests go on one at a time, in the order they came (the others wait, bodies unread);
  sessions take turns by the event loop's own order, so one session's flood holds at most one of its
  requests in parsing or work at a time, however many it sends;
- the bytes of a body past :data:`LARGE_BODY_BYTES` are paced as they are read (:class:`BodyPacer`, by
  :class:`~gateway.surfaces.limits.BodyLimit`): over all sessions they go on at most ``large_body_bytes_per_s``
  after a burst of :data:`LARGE_BODY_BURST`. A large body is parsed whole on the event loop (~3 ms a MB), so
  bodies of several MB back to back would hold every other session's calls for that long each; paced, they
  take a bounded share of the loop. The wait does not count toward the body's read timeout.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.control.core import Gateway
from gateway.control.sessions import Session
from gateway.surfaces.refusals import send_refusal

__all__ = [
    "LARGE_BODY_BURST",
    "LARGE_BODY_BYTES",
    "MAX_HELD",
    "PACER",
    "RETRY_AFTER_S",
    "UNAUTHENTICATED",
    "BodyPacer",
    "SessionGate",
    "bearer_token",
]

logger = logging.getLogger(__name__)

#: Seconds a 429 asks the caller to wait (``Retry-After``).
RETRY_AFTER_S = 1
#: Refusals held back at once, over all sessions, until their ``Retry-After`` has passed (each an open
#: connection and a timer: a few KB). Past it a refusal is answered at once.
MAX_HELD = 4096
#: Scope key set to True on a request whose token opens no live session (its body is left unread).
UNAUTHENTICATED = "company.unauthenticated"
#: A request body past this size that is left unread is not drained: the answer closes the connection.
_DRAIN_BYTES = 64 * 1024
#: A tool request's body past this size is paced, every byte of it (:class:`BodyPacer`). Every call the
#: built-in tasks make fits well within it, and parsing it costs the loop a fraction of a millisecond.
LARGE_BODY_BYTES = 64 * 1024
#: Bytes of large bodies that go on at once after a quiet spell (one 4 MB call is not slowed).
LARGE_BODY_BURST = 4 * 1024 * 1024
#: Scope key holding the :class:`BodyPacer` of an authenticated tool request (its body is paced as it is read).
PACER = "company.pacer"


def bearer_token(value: str | bytes | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header value, or None (no such header, not ASCII).

    The scheme is matched without regard to case; the token is the rest after ``Bearer`` and one space, taken
    as is, as the MCP route takes it (``Bearer  tok``, with two spaces, names the token `` tok``, which opens
    nothing on any route).
    """
    if value is None:
        return None
    if isinstance(value, bytes):
        if not value.isascii():
            return None
        value = value.decode("ascii")
    elif not value.isascii():
        return None
    if value[:7].lower() != "bearer " or len(value) == 7:
        return None
    return value[7:]


def _gated(path: str) -> bool:
    return path in ("/mcp", "/mcp/") or path.startswith(("/api/", "/cli/"))


@dataclass
class _Turns:
    """One session's open requests: how many, and the ones waiting for the running one to end."""

    open: int = 0
    running: bool = False
    #: When this session was last answered 429 (loop time), if it was.
    refused_at: float | None = None
    waiting: deque[asyncio.Future[None]] = field(default_factory=deque)


class BodyPacer:
    """A token bucket for the bytes of large request bodies, over every session, first come first.

    Bytes flow at ``bytes_per_s``, with a burst of ``burst`` bytes when the bucket is full. ``take(n)``
    returns at once while no one waits and the bucket holds ``n`` (or is full, for ``n`` past ``burst``);
    otherwise it waits its turn in arrival order. Bodies are charged chunk by chunk as they are read, so
    bodies read at once share the rate chunk for chunk, and a request that sends no bytes (a client that
    sends a head and goes away) is charged nothing. A waiter that gives up (cancelled) takes no time from
    the ones after it.

    Args:
        bytes_per_s: The sustained rate (bytes a second).
        burst: Bytes that go on at once after a quiet spell.

    Attributes:
        paced: How many takes had to wait.
    """

    def __init__(self, bytes_per_s: float, burst: int = LARGE_BODY_BURST) -> None:
        self.bytes_per_s = bytes_per_s
        self.burst = burst
        self.paced = 0
        self._free_at = 0.0  # loop time by which every byte taken so far is paid for (the bucket empty then)
        self._waiting: deque[tuple[asyncio.Future[None], int]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> int:
        """How many takers are waiting now (given-up ones included until their turn comes)."""
        return len(self._waiting)

    async def take(self, n: int) -> None:
        """Wait until ``n`` bytes may go on (at once when the bucket holds them and no one waits)."""
        loop = asyncio.get_running_loop()
        if not self._waiting and loop.time() >= self._ready_at(n):
            self._charge(loop.time(), n)
            return
        self.paced += 1
        waiter = loop.create_future()
        self._waiting.append((waiter, n))
        self._arm(loop)
        await waiter

    def _ready_at(self, n: int) -> float:
        return self._free_at + min(n, self.burst) / self.bytes_per_s

    def _charge(self, now: float, n: int) -> None:
        self._free_at = max(self._free_at, now - self.burst / self.bytes_per_s) + n / self.bytes_per_s

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        while self._waiting and self._waiting[0][0].done():  # given up
            self._waiting.popleft()
        if self._timer is None and self._waiting:
            self._timer = loop.call_at(self._ready_at(self._waiting[0][1]), self._grant, loop)

    def _grant(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        while self._waiting:
            waiter, n = self._waiting[0]
            if waiter.done():
                self._waiting.popleft()
                continue
            if loop.time() < self._ready_at(n):
                break
            self._waiting.popleft()
            self._charge(loop.time(), n)
            waiter.set_result(None)
        self._arm(loop)


class SessionGate:
    """ASGI middleware bounding each session's open tool requests, before any body is read.

    Args:
        app: The wrapped application (the body limits and routes).
        gateway: Whose sessions the tokens open.
        max_inflight: Most requests of one session open at once (running or waiting); more get 429.
        large_body_bytes_per_s: The pace of the bytes of bodies past :data:`LARGE_BODY_BYTES`, over every
            session (:class:`BodyPacer`, handed on in the scope as :data:`PACER` to the body limit that reads them).

    Attributes:
        refused: How many requests were answered 429.
        held: How many 429s are being held back right now (a session refused again within ``Retry-After``).
        pacer: The large bodies' :class:`BodyPacer`.
    """

    def __init__(
        self, app: ASGIApp, gateway: Gateway, max_inflight: int, large_body_bytes_per_s: float = 1024 * 1024
    ) -> None:
        self.app = app
        self._gateway = gateway
        self.max_inflight = max_inflight
        self.pacer = BodyPacer(large_body_bytes_per_s)
        self.refused = 0
        self.held = 0
        self._turns: dict[str, _Turns] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Let the request on, wait its session's turn first, or refuse it (429) unread."""
        if scope["type"] != "http" or scope.get("method") != "POST" or not _gated(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        if sum(name == b"authorization" for name, _ in scope.get("headers", [])) > 1:
            # the routes would read the first and run the call, past every bound of its session: one header only
            message = "send one Authorization header (Bearer <session token>); this request has several"
            await send_refusal(_closing(scope, send), scope["path"], 401, message, [(b"www-authenticate", b"Bearer")])
            return
        session = self._session(scope)
        if session is None:
            await self.app({**scope, UNAUTHENTICATED: True}, receive, _closing(scope, send))
            return
        turns = self._turns.setdefault(session.id, _Turns())
        self._gateway.requesting = len(self._turns)  # sessions with a request open: the calls take fair turns
        if turns.open >= self.max_inflight:
            await self._refuse(scope, send, turns)
            return
        turns.open += 1
        try:
            if turns.running:
                waiter = asyncio.get_running_loop().create_future()
                turns.waiting.append(waiter)
                try:
                    await waiter
                except BaseException:
                    if not waiter.cancelled() and waiter.done():
                        self._next(turns)  # handed the turn as it was cancelled: pass it on
                    elif waiter in turns.waiting:
                        turns.waiting.remove(waiter)
                    raise
            turns.running = True
            try:
                await self.app({**scope, PACER: self.pacer}, receive, send)  # the body's bytes: BodyLimit paces them
            finally:
                self._next(turns)
        finally:
            turns.open -= 1
            if turns.open == 0:
                self._turns.pop(session.id, None)
                self._gateway.requesting = len(self._turns)

    async def _refuse(self, scope: Scope, send: Send, turns: _Turns) -> None:
        """Answer 429 unread; after ``Retry-After`` when the session was refused within the last one."""
        self.refused += 1
        loop = asyncio.get_running_loop()
        now = loop.time()
        again = turns.refused_at is not None and now - turns.refused_at < RETRY_AFTER_S
        if not again:
            turns.refused_at = now  # a new window of Retry-After begins with this refusal
        if again and self.held < MAX_HELD:
            self.held += 1
            try:  # the client did not wait as asked: its answer waits instead, costing the loop nothing meanwhile
                await asyncio.sleep(RETRY_AFTER_S)
            finally:
                self.held -= 1
        message = (
            f"too many requests open for this token (at most {self.max_inflight} at once); "
            f"retry after {RETRY_AFTER_S} s, once earlier ones are answered"
        )
        headers = [(b"retry-after", str(RETRY_AFTER_S).encode())]
        await send_refusal(_closing(scope, send), scope["path"], 429, message, headers)

    def _next(self, turns: _Turns) -> None:
        """End the running request's turn: hand it to the next waiter, if any."""
        while turns.waiting:
            waiter = turns.waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        turns.running = False

    def _session(self, scope: Scope) -> Session | None:
        """The live session of the request's one bearer token, else None."""
        values = [value for name, value in scope.get("headers", []) if name == b"authorization"]
        token = bearer_token(values[0]) if len(values) == 1 else None
        return self._gateway.session_by_token(token) if token is not None else None


def _closing(scope: Scope, send: Send) -> Send:
    """``send`` that marks the answer ``Connection: close`` when a large or chunked body may be left unread."""
    size = None
    chunked = False
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            size = int(value) if value.isdigit() else None
        elif name == b"transfer-encoding":
            chunked = True
    if not chunked and size is not None and size <= _DRAIN_BYTES:
        return send

    async def closing(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"]
            message = {**message, "headers": [*headers, (b"connection", b"close")]}
        await send(message)

    return closing
