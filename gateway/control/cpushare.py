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

import time

from gateway.control.sessions import Session

__all__ = ["BURST_S", "MAX_WAIT_S", "charge", "wait_s"]

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
