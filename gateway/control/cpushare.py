"""A session's share of the CPU its tool calls spend.

A call runs on the event loop, which answers every session, or in a worker thread (a session that wrote much
text, a slow tool, a lent workspace's files) that holds the interpreter's lock while it computes, so that the loop
must win the lock back each time it wakes. Either way one session keeping costly calls going back to back slows
every other session's calls: a 31-term search over the 5 M characters it stored (~0.15 s of CPU each) raised
another session's p99 3-4x (``python -m bench.fairness 10 filled``). Each session therefore owes the time its
calls spent (CPU seconds of its worker thread, or the time it held the loop), and pays it back at
``session_cpu_share`` of a core per second. A call starts at once while the session owes at most :data:`BURST_S`;
past that it first waits for the excess to be paid, at most :data:`MAX_WAIT_S`, and only while another session is
live: a session alone has nobody to be unfair to.

A task's own calls stay far inside this: most take well under a millisecond, a fixture world's costliest search
~10 ms, reading and storing a workspace's documents tens of ms.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Any

from gateway.control.sessions import Session

__all__ = ["BURST_S", "CALL_COST_S", "MAX_WAIT_S", "Lane", "charge", "wait_s"]

#: CPU seconds a session may owe before its next call waits.
BURST_S = 0.5
#: Longest one call waits for its session's share (s): a single call that cost more than this is not held for all
#: of it, so no client's timeout is reached for a call it made once.
MAX_WAIT_S = 5.0


def _owed(session: Session, share: float, now: float) -> float:
    return max(0.0, session.cpu_owed_s - (now - session.cpu_owed_at) * share)


def wait_s(session: Session, share: float, now: float | None = None) -> float:
    """Seconds ``session``'s next call waits for its share; 0.0 when it owes at most :data:`BURST_S`.

    Args:
        share: ``session_cpu_share``: CPU seconds a session pays back per second (0 turns the rule off).
        now: ``time.monotonic()`` by default.
    """
    if share <= 0:
        return 0.0
    owed = _owed(session, share, time.monotonic() if now is None else now)
    return min(MAX_WAIT_S, (owed - BURST_S) / share) if owed > BURST_S else 0.0


def charge(session: Session, cpu_s: float, share: float, now: float | None = None) -> None:
    """Add ``cpu_s`` seconds a call of ``session`` spent to what it owes (paid back at ``share`` a second)."""
    now = time.monotonic() if now is None else now
    session.cpu_owed_s = _owed(session, share, now) + cpu_s
    session.cpu_owed_at = now


#: What a call costs the server beyond its own work (reading and parsing the request, writing the answer), in
#: seconds charged to its session's turn: cheap calls are ordered by how many, not only how long.
CALL_COST_S = 0.0005


class Lane:
    """One call at a time, between sessions in a fair order (start-time fair queuing).

    Each session's calls already run one at a time, under its lock; but 40 sessions that each keep a call ready
    make every call, another session's cheap read among them, wait behind up to 40 others in the event loop's
    first-come order: beside 40 sessions with 8 calls in flight each, another session's p99 was 90x of idle
    (``python -m bench.fairness 10 sessions_40``). A lane lets one call through at a time and picks the next by
    the lowest start tag: ``max(virtual time, the session's last finish tag)``, where a call's finish tag is its
    start tag plus what it cost. A session that has called little since others started flooding is next; one
    that called much waits in step with the rest.

    The gateway keeps two: one for calls on the event loop (held while the call runs, which is synchronous;
    the next is chosen only after what was already ready on the loop has run, so a request that just arrived is
    ordered too) and one for calls that compute in a worker thread (held until the thread ends: threads that
    compute share one interpreter lock, so two at once finish no sooner than one after the other, and each one
    more takes the lock from the event loop more often).

    Args:
        tag: Name of the session attribute that holds its finish tag in this lane (a float, seconds).
        yields: Whether a call waits for its turn even when the lane is free (the loop lane: calls that became
            ready together are then let through in fair order, not arrival order).
    """

    def __init__(self, tag: str, yields: bool) -> None:
        self._tag = tag
        self._yields = yields
        self._heap: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._virtual = 0.0  # start tag of the call let through last
        self._held = False  # a call was let through and has not left
        self._pending = False  # a dispatch is scheduled on the loop

    @property
    def waiting(self) -> int:
        """Calls waiting for their turn (cancelled ones included until they are passed over)."""
        return len(self._heap)

    async def enter(self, session: Any) -> float:
        """Wait for this call's turn; returns its start tag, to pass to :meth:`leave`.

        Raises:
            asyncio.CancelledError: cancelled while waiting; the lane is left as if the call never came.
        """
        start: float = max(self._virtual, float(getattr(session, self._tag)))
        if not self._yields and not self._held and not self._heap:
            self._held, self._virtual = True, start
            return start
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (start, next(self._order), future))
        self._schedule()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # let through, but gone before it ran: pass the turn on
                self._release()
            raise
        return start

    def leave(self, session: Any, start: float, cost_s: float) -> None:
        """End the turn :meth:`enter` gave: the session's next start tag is ``start + cost_s``."""
        setattr(session, self._tag, start + max(0.0, cost_s))
        self._release()

    def _release(self) -> None:
        self._held = False
        if self._heap:
            self._schedule()

    def _schedule(self) -> None:
        if not self._held and not self._pending:
            self._pending = True
            asyncio.get_running_loop().call_soon(self._dispatch)

    def _dispatch(self) -> None:
        self._pending = False
        while self._heap and not self._held:
            start, _, future = heapq.heappop(self._heap)
            if not future.done():  # a cancelled waiter is passed over
                self._held, self._virtual = True, start
                future.set_result(None)
