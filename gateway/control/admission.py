"""Seeds under load: admission (a cap on live sessions) and turns (one world build at a time).

Admission: at most ``limit`` sessions hold a world or a sandbox; a seed past the
cap waits, in arrival order, before building anything, up to a timeout. A slot
is released when its session is closed.

Turns: world builds are CPU work on the event loop. They run one at a time, in
slices of ``slice_s`` seconds that alternate with slices in which the loop serves
everything else, so MCP calls and health checks stay responsive during a burst
of seeds, and the burst is not slowed to one build per trip through a busy loop.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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


T = TypeVar("T")


@dataclass
class _Job(Generic[T]):
    build: Callable[[], T]
    future: asyncio.Future[T]
    place: int
    arrived: float
    wait_s: float = 0.0


class Turns:
    """World builds one at a time, in arrival order, in slices that alternate with the rest of the server.

    A seed hands its build (a plain function: CPU work, no awaits) to :meth:`run`. One drainer
    runs the queued builds back to back for up to ``slice_s`` seconds, then lets the event loop
    serve whatever else is waiting for ``slice_s`` seconds, and so on until the queue is empty.
    Builds in one slice cost no trip through the event loop each, so a burst of seeds is built
    at the rate the CPU allows even when the loop is busy with MCP calls, and those calls still
    get at least half the loop while the burst lasts. A lone seed waits one slice.

    Args:
        slice_s: Seconds of building between pauses, and the length of each pause (e.g. 0.01; 0 in tests).
    """

    def __init__(self, slice_s: float) -> None:
        self.slice_s = slice_s
        self._queue: collections.deque[_Job[Any]] = collections.deque()
        self._drainer: asyncio.Task[None] | None = None
        self._pause_due = 0.0  # perf_counter() after which the drainer pauses before building more

    @property
    def queued(self) -> int:
        """Builds waiting for their turn."""
        return len(self._queue)

    async def run(self, build: Callable[[], T]) -> tuple[T, Turn]:
        """Queue ``build``, wait for its turn, and return what it returned with the seed's place and wait.

        Raises:
            Exception: whatever ``build`` raised (only this seed sees it; the queue goes on).
            asyncio.CancelledError: the caller was cancelled; a build not yet started never runs.
        """
        loop = asyncio.get_running_loop()
        job: _Job[T] = _Job(build, loop.create_future(), len(self._queue), time.perf_counter())
        self._queue.append(job)
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        result = await job.future  # cancelling the caller cancels the future: the drainer skips it
        return result, Turn(job.place, job.wait_s)

    async def _drain(self) -> None:
        while self._queue:
            if time.perf_counter() >= self._pause_due:
                await asyncio.sleep(self.slice_s)
                self._pause_due = time.perf_counter() + self.slice_s
            while self._queue:
                job = self._queue.popleft()
                if job.future.done():  # its seed was cancelled while queued
                    continue
                job.wait_s = time.perf_counter() - job.arrived
                try:
                    job.future.set_result(job.build())
                except Exception as exc:  # noqa: BLE001 - the seed that queued it raises it
                    job.future.set_exception(exc)
                if time.perf_counter() >= self._pause_due:
                    break
