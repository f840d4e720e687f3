"""Seeds under load: admission (a cap on live sessions) and turns (one world build at a time).

Admission: at most ``limit`` sessions hold a world or a sandbox; a seed past the
cap waits, in arrival order, before building anything, up to a timeout. A slot
is released when its session is closed.

Turns: world builds are CPU work on the event loop. They run one at a time,
and before each the loop serves whatever else is waiting for ``slice_s``
seconds, so MCP calls and health checks stay responsive during a burst of seeds.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from gateway.exceptions import GatewayError, ShuttingDown

__all__ = ["Admission", "AdmissionTimeout", "Turn", "Turns"]


class AdmissionTimeout(GatewayError):
    """A seed waited longer than ``admission_timeout_s`` for a free session slot (HTTP 503)."""

    status_code = 503


class Admission:
    """A first-come, first-served cap on live sessions.

    Args:
        limit: Most sessions held at once; None for no cap.
        timeout_s: Longest a seed waits for a slot, in seconds.
    """

    def __init__(self, limit: int | None, timeout_s: float) -> None:
        self.limit = limit
        self.timeout_s = timeout_s
        self.held = 0
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._closed = False

    @property
    def waiting(self) -> int:
        """Seeds waiting for a slot."""
        return sum(1 for w in self._waiters if not w.done())

    async def acquire(self) -> float:
        """Wait for a slot; returns the seconds waited.

        Raises:
            AdmissionTimeout: no slot within ``timeout_s``.
            ShuttingDown: the server began to stop (while waiting or before).
        """
        if self._closed:
            raise ShuttingDown("the server is shutting down; no new sessions")
        started = time.perf_counter()
        if self.limit is None or (self.held < self.limit and not self._waiters):
            self.held += 1
            return 0.0
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await asyncio.wait_for(asyncio.shield(waiter), self.timeout_s)
        except TimeoutError:
            if waiter.done() and waiter.exception() is None:  # granted just as the wait ran out: hand it on
                self.release()
            waiter.cancel()
            raise AdmissionTimeout(
                f"no session slot came free within {self.timeout_s:g} s (max_concurrent_sessions={self.limit})"
            ) from None
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self.release()
            waiter.cancel()
            raise
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
        return time.perf_counter() - started

    def release(self) -> None:
        """Free a slot, handing it to the longest-waiting seed if any."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # the slot passes on: held stays the same
                return
        self.held = max(0, self.held - 1)

    def close(self) -> None:
        """Refuse new seeds and fail every waiting one with ShuttingDown."""
        self._closed = True
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(ShuttingDown("the server is shutting down; no new sessions"))


@dataclass(frozen=True)
class Turn:
    """A seed's turn at building: its place in the queue on arrival and how long it waited (seconds)."""

    place: int
    wait_s: float


class Turns:
    """One world build at a time; after each ``slice_s`` of back-to-back building, a slice for other requests.

    A build (about half a millisecond from a template) yields to the event loop once before it
    starts; once builds have run for ``slice_s`` without a pause, the next one first lets the loop
    serve whatever is waiting for ``slice_s`` seconds. A burst of seeds therefore takes at most
    about half the loop's time, and a lone seed waits one slice.

    Args:
        slice_s: Seconds of building between pauses, and the length of each pause (e.g. 0.01).
    """

    def __init__(self, slice_s: float) -> None:
        self.slice_s = slice_s
        self._lock = asyncio.Lock()
        self._pause_due = 0.0  # perf_counter() after which the next build pauses first
        self.queued = 0

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[Turn]:
        """Hold the build turn for the ``async with`` body; yields the place and the wait."""
        place = self.queued
        self.queued += 1
        started = time.perf_counter()
        try:
            await self._lock.acquire()
        finally:
            self.queued -= 1
        try:
            if time.perf_counter() >= self._pause_due:
                await asyncio.sleep(self.slice_s)
                self._pause_due = time.perf_counter() + self.slice_s
            else:
                await asyncio.sleep(0)
            yield Turn(place, time.perf_counter() - started)
        finally:
            self._lock.release()
