"""Leases: a live session that nobody touches for ``lease_s`` seconds is handed to a callback that ends it.

Renewing costs O(1): it only moves the session's deadline. One reaper task keeps a heap of
``(deadline, session id)`` with at most one entry per session; it sleeps until the earliest
deadline (and at least ``tick_s`` between wakes), then, for each entry due, either finds the
session renewed since (the entry goes back with its new deadline) or hands the session to
``on_expiry``. So 10,000 sessions cost one heap, not a scan per tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

__all__ = ["Leases"]

logger = logging.getLogger(__name__)

#: Expired sessions ended at once (each may destroy a sandbox).
_AT_ONCE = 64


class Leases:
    """Deadlines of live sessions, and the task that ends those whose deadline passed.

    Args:
        lease_s: Seconds a session lives after its last renewal; 0 means sessions have no lease
            (every method then does nothing).
        on_expiry: Coroutine called with the id of a session whose lease ran out; it returns True when
            it ended the session, False when the session turned out to be in use (a renewal came in while
            it waited for the session's lock): the session is then watched again from its new deadline.
        tick_s: Fewest seconds between two wakes of the reaper (e.g. 1.0).
        clock: Seconds on a monotonic clock (``time.monotonic``; a test passes its own).
    """

    def __init__(
        self,
        lease_s: float,
        on_expiry: Callable[[str], Awaitable[bool]],
        tick_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lease_s = lease_s
        self.tick_s = tick_s
        self._on_expiry = on_expiry
        self._clock = clock
        self._due: dict[str, float] = {}  # session id -> deadline (monotonic seconds)
        self._heap: list[tuple[float, str]] = []  # at most one entry per id in _due (plus dropped ones)
        self._queued: set[str] = set()  # ids with an entry in the heap
        self._wake = asyncio.Event()
        self._next_wake = float("inf")
        self._reaper: asyncio.Task[None] | None = None
        self._ending: set[asyncio.Task[None]] = set()
        self._gate = asyncio.Semaphore(_AT_ONCE)

    def __len__(self) -> int:
        return len(self._due)

    def add(self, session_id: str) -> None:
        """Start the lease of a new session (and the reaper, on first use, in the running loop)."""
        if not self.lease_s:
            return
        due = self._due[session_id] = self._clock() + self.lease_s
        self._push(session_id, due)
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.get_running_loop().create_task(self._run(), name="session-leases")

    def renew(self, session_id: str) -> float | None:
        """Extend a session's lease to ``lease_s`` from now; returns the new expiry in Unix seconds.

        Returns None when the session holds no lease (unknown, ended, or leases are off).
        """
        if session_id not in self._due:
            return None
        self._due[session_id] = self._clock() + self.lease_s
        return time.time() + self.lease_s

    def expires_at(self, session_id: str) -> float | None:
        """When the session's lease runs out, in Unix seconds; None when it holds none."""
        due = self._due.get(session_id)
        return None if due is None else time.time() + (due - self._clock())

    def expired(self, session_id: str) -> bool:
        """Whether the session holds a lease whose deadline has passed."""
        due = self._due.get(session_id)
        return due is not None and due <= self._clock()

    def drop(self, session_id: str) -> None:
        """End a session's lease (it was closed); its heap entry is discarded when it comes up."""
        self._due.pop(session_id, None)

    def wake(self) -> None:
        """Make the reaper look at the deadlines now (e.g. after a test moved its clock)."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop the reaper and wait for sessions it is ending right now."""
        if self._reaper is not None:
            self._reaper.cancel()
            await asyncio.gather(self._reaper, return_exceptions=True)
            self._reaper = None
        if self._ending:
            await asyncio.gather(*self._ending, return_exceptions=True)

    def _push(self, session_id: str, due: float) -> None:
        if session_id in self._queued:
            return  # its entry is earlier than ``due``: when it comes up it is pushed again
        self._queued.add(session_id)
        heapq.heappush(self._heap, (due, session_id))
        if due < self._next_wake:
            self._wake.set()

    async def _run(self) -> None:
        last = float("-inf")
        while True:
            now = self._clock()
            at = max(self._heap[0][0], last + self.tick_s) if self._heap else float("inf")
            if at > now:
                self._next_wake = at
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), None if at == float("inf") else at - now)
                self._next_wake = float("inf")
                continue
            last = now
            self.sweep(now)

    def sweep(self, now: float | None = None) -> list[asyncio.Task[None]]:
        """Look at every deadline due by ``now`` (default: the clock's now); the reaper calls this when it wakes.

        A session renewed since its entry was queued is queued again at its new deadline; one whose lease
        ran out is handed to ``on_expiry`` in a task of its own (64 at a time).

        Returns:
            The tasks ending expired sessions (a test may await them).
        """
        now = self._clock() if now is None else now
        heap, due_of = self._heap, self._due
        started = []
        while heap and heap[0][0] <= now:
            _, sid = heapq.heappop(heap)
            self._queued.discard(sid)
            due = due_of.get(sid)
            if due is None:
                continue  # dropped
            if due > now:
                self._push(sid, due)
                continue
            task = asyncio.get_running_loop().create_task(self._end(sid))
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)
            started.append(task)
        return started

    async def _end(self, session_id: str) -> None:
        async with self._gate:
            try:
                ended = await self._on_expiry(session_id)
            except Exception:  # a reaper that stops would leak every later session
                logger.exception("lease: ending session %s failed", session_id)
                ended = False
        if ended:
            self._due.pop(session_id, None)
        elif (due := self._due.get(session_id)) is not None:
            self._push(session_id, due)
