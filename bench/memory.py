"""(c) Memory a live session adds: gateway RSS before and after seeding N sessions, and after each wrote once.

The gateway runs in its own process without tracemalloc; RSS comes from ``/proc/<pid>/status``
(VmRSS). Sessions stay live (never verified or closed). The traced-heap figure comes from
``bench.inproc heap``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from bench.common import MCP_HEADERS, WRITE_ARGS, WRITE_TASK, WRITE_TOOL, check_result, rpc, seed_many
from bench.procs import Server, rss_bytes

__all__ = ["run"]


async def _calls(url: str, tokens: list[str], body: bytes, in_flight: int = 10) -> int:
    """One call per token, ``in_flight`` at a time; returns how many failed."""
    gate = asyncio.Semaphore(in_flight)
    async with httpx.AsyncClient(base_url=url, headers=MCP_HEADERS, timeout=120) as http:

        async def one(token: str) -> bool:
            async with gate:
                r = await http.post("/mcp", content=body, headers={"Authorization": f"Bearer {token}"})
                return check_result(r)

        oks = await asyncio.gather(*(one(t) for t in tokens))
    return sum(not ok for ok in oks)


def run(gw: Server, sessions: int) -> dict[str, Any]:
    """Seed ``sessions`` sessions of the write task on ``gw`` (a fresh gateway process), then one write each."""
    write = rpc("tools/call", {"name": WRITE_TOOL, "arguments": WRITE_ARGS})
    read = rpc("tools/call", {"name": "company_calendar_get_event", "arguments": {"event_id": "evt_054"}})

    async def seeds(n: int) -> list[str]:
        async with httpx.AsyncClient(base_url=gw.url, timeout=300) as http:
            return [str(i["token"]) for i in await seed_many(http, WRITE_TASK, n)]

    warm = asyncio.run(seeds(1))  # builds the task's shared template and warms every code path
    if asyncio.run(_calls(gw.url, warm, read)) or asyncio.run(_calls(gw.url, warm, write)):
        raise RuntimeError("the warm-up calls failed")
    time.sleep(0.5)
    before = rss_bytes(gw.pid)
    started = time.perf_counter()
    tokens = asyncio.run(seeds(sessions))
    seed_s = time.perf_counter() - started
    time.sleep(0.5)
    seeded = rss_bytes(gw.pid)
    started = time.perf_counter()
    failed = asyncio.run(_calls(gw.url, tokens, write))
    write_s = time.perf_counter() - started
    time.sleep(0.5)
    written = rss_bytes(gw.pid)
    return {
        "sessions": sessions,
        "task": WRITE_TASK,
        "write_tool": WRITE_TOOL,
        "rss_before_mb": before / 2**20,
        "rss_seeded_mb": seeded / 2**20,
        "rss_written_mb": written / 2**20,
        "per_session_bytes": (seeded - before) / sessions,
        "per_written_session_bytes": (written - before) / sessions,
        "write_failures": failed,
        "seed_s": seed_s,
        "write_ms_each": write_s / sessions * 1000,
    }
