"""``python -m bench.leases [N]``: what leases cost with N live sessions (default 10,000), in-process.

A gateway (no sandboxes) seeds N sessions of one hand-written task, with its leases on a clock the bench
moves. Printed, as one JSON object: the cost of one renewal, of a reaper wake with nothing due, of one
batch of 250 entries whose sessions were renewed since they were queued (each goes back in the heap;
the reaper yields to the loop between batches), and of abandoning all N at once through the reaper's own
loop (wall time, and the longest the event loop was held meanwhile, seen by a 1 ms ticker).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from typing import Any

from gateway import Settings, create_app
from gateway.control.core import Gateway
from gateway.control.leases import Leases

__all__ = ["run"]

TASK = "dir-manager-of-owen"


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


async def run(n: int) -> dict[str, Any]:
    """Seed ``n`` sessions, then time renewals, reaper wakes and abandoning them all."""
    app = create_app(Settings(sandbox_provider="none", seed_slice_s=0))
    gateway: Gateway = app.state.gateway
    clock = _Clock()
    gateway.leases = Leases(900, gateway.abandon, tick_s=0, clock=clock)
    logging.getLogger("gateway.control.core").setLevel(logging.ERROR)  # one line per abandoned session otherwise
    started = time.perf_counter()
    ids = [(await gateway.seed({"task_id": TASK}, "http://127.0.0.1:1/"))["session_id"] for _ in range(n)]
    seeded_s = time.perf_counter() - started

    leases = gateway.leases
    started = time.perf_counter()
    for sid in ids:
        leases.renew(sid)
    renew_us = (time.perf_counter() - started) / n * 1e6

    started = time.perf_counter()
    for _ in range(1000):
        leases.sweep()
    idle_wake_us = (time.perf_counter() - started) / 1000 * 1e6

    clock.t = 600.0
    for sid in ids:
        leases.renew(sid)  # due at 1500 now; their entries still say 900
    clock.t = 1000.0
    started = time.perf_counter()
    requeued = leases.sweep(limit=250)
    requeue_ms = (time.perf_counter() - started) * 1000
    while leases.sweep(limit=250) == 250:
        pass

    gaps: list[float] = []

    async def ticker() -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    clock.t = 2000.0
    started = time.perf_counter()
    leases.wake()  # the reaper's own loop: batches of 250 entries, 64 endings at once, 4 begun a loop turn
    while len(gateway.store):
        await asyncio.sleep(0.01)
    abandon_s = time.perf_counter() - started
    ticking.cancel()
    await asyncio.gather(ticking, return_exceptions=True)
    await gateway.shutdown()
    return {
        "sessions": n,
        "seed_all_s": round(seeded_s, 2),
        "renew_us": round(renew_us, 2),
        "wake_nothing_due_us": round(idle_wake_us, 2),
        "wake_250_renewed_ms": round(requeue_ms, 2),
        "wake_250_renewed_looked_at": requeued,
        "abandon_all_s": round(abandon_s, 3),
        "abandoned": n - len(gateway.store),
        "left_live": len(gateway.store),
        "slots_held": gateway.admission.held,
        "loop_gap_p50_ms": round(sorted(gaps)[len(gaps) // 2] * 1000, 1),
        "loop_gap_p99_ms": round(sorted(gaps)[int(len(gaps) * 0.99)] * 1000, 1),
        "longest_loop_hold_ms": round(max(gaps) * 1000, 1),
        "load_average_1m": os.getloadavg()[0],
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)), indent=1))
