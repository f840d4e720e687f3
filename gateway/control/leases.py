"""Leases: a live session that nobody touches for ``lease_s`` seconds is handed to a callback that ends it.

Renewing costs O(1): it only moves the session's deadline. One reaper task keeps a heap of
``(deadline, session id)`` with at most one entry per session; it sleeps until the earliest
deadline (and at least ``tick_s`` between wakes), then, for each entry due, either finds the
session renewed since (the entry goes back with its new deadline) or hands the session to
``on_expiry``. So 10,000 sessions cost one heap, not a scan per tick.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

__all__ = ["Leases"]

logger = logging.getLogger(__name__)

#: Expired sessions ended at once (each may destroy a sandbox).
_AT_ONCE = 64

#: Heap entries the reaper looks at before it lets the event loop serve others (a few ms at most).
_PER_TURN = 250

#: Expired sessions whose ending may begin in one turn of the event loop (ending one without a sandbox is ~0.2 ms
#: of CPU: its state kept as JSON), so ending thousands at once holds the loop about 1 ms a turn.
_STARTS_PER_TURN = 4


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
        self._backlog: collections.deque[str] = collections.deque()  # expired, waiting for an ender
        self._starts = 0  # endings begun in this turn of the event loop

    def __len__(self) -> int:
        return len(self._due)

    def add(self, session_id: str) -> None:
        """Start the lease of a new session (and the reaper, on first use, in the running loop)."""
        if not self.lease_s:
            return
        due = self._due[session_id] = self._clock() + self.lease_s
        self._push(session_id, due)
        loop = asyncio.get_running_loop()
        if self._reaper is None or self._reaper.done() or self._reaper.get_loop() is not loop:
            # a gateway driven from one event loop after another (tasks prove runs a loop per job) gets a
            # reaper, and a wake-up event, in each
            self._wake = asyncio.Event()
            self._reaper = loop.create_task(self._run(), name="session-leases")

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
        """Stop the reaper and wait for sessions it is ending right now (those not yet begun are left)."""
        if self._reaper is not None:
            self._reaper.cancel()
            await asyncio.gather(self._reaper, return_exceptions=True)
            self._reaper = None
        self._backlog.clear()
        if self._ending:
            await asyncio.gather(*self._ending, return_exceptions=True)

    async def settle(self) -> None:
        """Wait until every session handed to ``on_expiry`` so far has been dealt with."""
        while self._ending or self._backlog:
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
            while self.sweep(now, _PER_TURN) == _PER_TURN:
                await asyncio.sleep(0)  # more are due: let the loop serve others between batches

    def sweep(self, now: float | None = None, limit: int | None = None) -> int:
        """Look at the deadlines due by ``now`` (default: the clock's now); the reaper calls this when it wakes.

        A session renewed since its entry was queued is queued again at its new deadline; one whose lease
        ran out is handed to ``on_expiry``, at most 64 at a time, each in a task of its own started in a later
        turn of the event loop than the one before it (so ending 10,000 sessions never holds the loop long).

        Args:
            now: Seconds on the clock.
            limit: Most heap entries to look at in this call (None: all that are due).

        Returns:
            How many entries it looked at (``limit`` when more may be due).
        """
        now = self._clock() if now is None else now
        heap, due_of = self._heap, self._due
        looked = 0
        while heap and heap[0][0] <= now and (limit is None or looked < limit):
            looked += 1
            _, sid = heapq.heappop(heap)
            self._queued.discard(sid)
            due = due_of.get(sid)
            if due is None:
                continue  # dropped
            if due > now:
                self._push(sid, due)
                continue
            self._backlog.append(sid)
        self._start_enders()
        return looked

    def _start_enders(self) -> None:
        loop = asyncio.get_running_loop()
        while self._backlog and len(self._ending) < _AT_ONCE:
            task = loop.create_task(self._end(self._backlog.popleft()))
            self._ending.add(task)

    async def _my_turn(self) -> None:
        """Wait for a turn of the event loop in which fewer than ``_STARTS_PER_TURN`` endings began."""
        while self._starts >= _STARTS_PER_TURN:
            await asyncio.sleep(0)
        if self._starts == 0:
            asyncio.get_running_loop().call_soon(self._new_turn)
        self._starts += 1

    def _new_turn(self) -> None:
        self._starts = 0

    async def _end(self, session_id: str) -> None:
        try:
            await self._my_turn()
            ended = await self._on_expiry(session_id)
        except Exception:  # a reaper that stops would leak every later session
            logger.exception("lease: ending session %s failed", session_id)
            ended = False
        finally:
            self._ending.discard(asyncio.current_task())
            self._start_enders()  # the next one's first step runs in the loop's next turn
        if ended:
            self._due.pop(session_id, None)
        elif (due := self._due.get(session_id)) is not None:
            self._push(session_id, due)
