"""(e) Memory closed sessions leave behind: gateway RSS after each round of 1,000 seed-write-verify-close.

The gateway runs in its own process (``python -m bench.serve gateway-kept``) keeping the last state of at
most :data:`KEPT` closed sessions (``max_closed_sessions``). The first round fills that; from then on each
closed session makes the oldest kept one expire, so RSS should stay flat round after round. RSS comes from
``/proc/<pid>/status`` (VmRSS).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from bench.common import MCP_HEADERS, WRITE_ARGS, WRITE_TASK, WRITE_TOOL, check_result, rpc
from bench.procs import Server, rss_bytes

__all__ = ["KEPT", "ROUND", "run"]

#: Closed sessions the measured gateway keeps (its ``max_closed_sessions``), and sessions per round.
KEPT = 1000
ROUND = 1000


async def _round(url: str, n: int, in_flight: int = 20) -> int:
    """``n`` sessions of the write task, each seeded, written once, verified and closed; returns how many failed."""
    gate = asyncio.Semaphore(in_flight)
    write = rpc("tools/call", {"name": WRITE_TOOL, "arguments": WRITE_ARGS})
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:

        async def one() -> bool:
            async with gate:
                seed = (await http.post("/seed_session", json={"task_id": WRITE_TASK})).json()
                auth = {**MCP_HEADERS, "Authorization": f"Bearer {seed['token']}"}
                wrote = check_result(await http.post("/mcp", content=write, headers=auth))
                sid = {"session_id": seed["session_id"]}
                verified = (await http.post("/verify", json=sid)).status_code == 200
                closed = (await http.post("/close_session", json=sid)).status_code == 200
                return wrote and verified and closed

        oks = await asyncio.gather(*(one() for _ in range(n)))
    return sum(not ok for ok in oks)


def run(gw: Server, rounds: int) -> dict[str, Any]:
    """``rounds`` rounds of :data:`ROUND` closed sessions on ``gw``; RSS before and after each."""
    if asyncio.run(_round(gw.url, 20)):  # builds the task's template and warms every code path
        raise RuntimeError("the warm-up sessions failed")
    time.sleep(0.5)
    rss = [rss_bytes(gw.pid)]
    failed = 0
    started = time.perf_counter()
    for _ in range(rounds):
        failed += asyncio.run(_round(gw.url, ROUND))
        time.sleep(0.5)
        rss.append(rss_bytes(gw.pid))
    seconds = time.perf_counter() - started
    after = [b - a for a, b in zip(rss[1:], rss[2:], strict=False)]  # rounds once KEPT are held
    return {
        "kept": KEPT,
        "per_round": ROUND,
        "rounds": rounds,
        "task": WRITE_TASK,
        "rss_mb": [r / 2**20 for r in rss],
        "filling_per_1000_bytes": (rss[1] - rss[0]) * 1000 / ROUND,
        "after_expiry_per_1000_bytes": (rss[-1] - rss[1]) * 1000 / ROUND / max(1, rounds - 1),
        "after_expiry_max_round_bytes": max(after, default=0),
        "failures": failed,
        "sessions_per_s": ROUND * rounds / seconds,
    }
