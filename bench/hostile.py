"""(e) Hostile inputs: what the worst inputs cost, and whether they slow another session down.

- ``python -m bench.hostile worst``: in-process, every search action is called with each
  input of :data:`CANDIDATES` (many one-letter terms, a long word, operators, negations) and
  the slowest answer of each action is printed as JSON: the figure a single call can hold the
  event loop for, since actions of sessions without a sandbox run on it.
- :func:`run` (``python -m bench.hostile attack [SECONDS] [LANES]`` alone): against a gateway in its
  own process, one session ("victim") loops a cheap read while another session, from its own
  process, sends the worst inputs of every search action over and over; the victim's p50/p99 is
  taken idle, beside a neighbour sending cheap reads, and beside the hostile one.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from multiprocessing import get_context
from typing import Any

import httpx

from bench.common import MCP_HEADERS, READ_ARGS, READ_TASK, READ_TOOL, check_result, percentile, rpc
from bench.procs import Server

__all__ = ["CANDIDATES", "LANES", "SEARCHES", "TASK_ROW", "run", "worst", "worst_searches"]

#: Calls the neighbour session keeps in flight.
LANES = 1

#: A task with every app, so one session can call every search action.
TASK_ROW: dict[str, Any] = {
    "id": "bench-hostile",
    "instruction": "Find the budget.",
    "apps": ["gmail", "calendar", "drive", "box", "onedrive", "sharepoint", "slack", "helpdesk", "directory"],
    "checks": [{"name": "says_budget", "kind": "answer", "match": {"contains": "budget"}}],
}

#: Search actions and the name of their query parameter.
SEARCHES: dict[str, str] = {
    "company_gmail_search_messages": "query",
    "company_gmail_list_contacts": "query",
    "company_calendar_list_events": "query",
    "company_drive_search_files": "query",
    "company_drive_list_shared_drives": "query",
    "company_box_search": "query",
    "company_onedrive_search_items": "query",
    "company_sharepoint_search_files": "query",
    "company_sharepoint_list_sites": "query",
    "company_slack_search_messages": "query",
    "company_slack_list_channels": "query",
    "company_slack_list_files": "query",
    "company_helpdesk_search_tickets": "text",
    "company_directory_search_people": "query",
}

#: Query texts tried on every search action: the most terms and characters a query may hold (32 terms,
#: 500 characters), in the shapes that cost most, and inputs beyond the bounds (refused before any work;
#: before the bounds, these were the costliest: "e " * 20,000 took 10.6 s in gmail).
CANDIDATES: dict[str, str] = {
    "1,000 one-letter terms (2,000 chars)": "e " * 1000,
    "20,000 one-letter terms (40 KB)": "e " * 20_000,
    "32 one-letter terms": "e " * 32,
    "one 500-letter word": "e" * 500,
    "one 2,000-letter word": "e" * 2000,
    "32 negated unmatched terms": "-zq " * 32,
    "32 two-letter terms": "an " * 32,
    "31 terms + a 400-letter word": "e " * 31 + "e" * 400,
    "32 from: operators": "from:e " * 32,
    "32 subject: operators": "subject:e " * 32,
    "32 after: dates": "after:2026/01/01 " * 29,
    "16 quoted two-word phrases": '"e a" ' * 16,
}


async def worst_searches(rounds: int) -> dict[str, Any]:
    """:func:`worst` in a running event loop."""
    from gateway.control.core import Gateway
    from gateway.control.rows import load_builtin_tasks
    from gateway.settings import Settings
    from tools import AppError

    gateway = Gateway(Settings(sandbox_provider="none", seed_slice_s=0.0), load_builtin_tasks(), None)
    seeded = await gateway.seed({"task": TASK_ROW, "exposure": "http"}, "http://127.0.0.1:9/")
    session = gateway.get_session(seeded["session_id"])
    figures: dict[str, Any] = {}
    for tool, param in SEARCHES.items():
        if tool not in gateway.actions:
            continue
        # the first search of a process reads every document's text once (then cached for all sessions)
        await gateway.call(session, tool, {param: "budget"}, surface="http")
        worst_ms, worst_name, refused = 0.0, "", 0
        for name, text in CANDIDATES.items():
            for _ in range(rounds):
                started = time.perf_counter()
                try:
                    await gateway.call(session, tool, {param: text}, surface="http")
                except AppError:
                    refused += 1
                ms = (time.perf_counter() - started) * 1000
                if ms > worst_ms:
                    worst_ms, worst_name = ms, name
        figures[tool] = {"worst_ms": round(worst_ms, 2), "input": worst_name, "refused": refused // rounds}
    await gateway.shutdown()
    slowest = max(figures.items(), key=lambda kv: kv[1]["worst_ms"])
    return {"actions": figures, "slowest_tool": slowest[0], "slowest_ms": slowest[1]["worst_ms"]}


def worst(rounds: int = 2) -> dict[str, Any]:
    """The slowest answer of every search action to :data:`CANDIDATES`, in-process (ms, the input that cost it)."""
    return asyncio.run(worst_searches(rounds))


async def _seed_row(http: httpx.AsyncClient, body: dict[str, Any]) -> str:
    response = await http.post("/seed_session", json=body)
    response.raise_for_status()
    return str(response.json()["token"])


def _attack_bodies() -> list[bytes]:
    return [
        rpc("tools/call", {"name": tool, "arguments": {param: text}})
        for tool, param in SEARCHES.items()
        for text in CANDIDATES.values()
    ]


def _neighbour(url: str, token: str, bodies: list[bytes], lanes: int, stop: Any, out: Any) -> None:
    """Send ``bodies`` round and round, ``lanes`` calls in flight, until ``stop`` is set; put the count on ``out``."""

    async def lane(http: httpx.AsyncClient, first: int) -> int:
        sent, i = 0, first
        while not stop.is_set():
            await http.post("/mcp", content=bodies[i % len(bodies)])
            sent, i = sent + 1, i + 1
        return sent

    async def main() -> int:
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120) as http:
            out.put("ready")
            return sum(await asyncio.gather(*(lane(http, k * 37) for k in range(lanes))))

    out.put(asyncio.run(main()))


async def _victim(url: str, token: str, seconds: float) -> dict[str, Any]:
    body = rpc("tools/call", {"name": READ_TOOL, "arguments": READ_ARGS})
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
    latencies: list[float] = []
    failed = 0
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.monotonic()
            ok = check_result(await http.post("/mcp", content=body))
            latencies.append(time.monotonic() - started)
            failed += not ok
    return {
        "calls": len(latencies),
        "failed": failed,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies) * 1000,
    }


def _under(server: Server, victim: str, neighbour: str, bodies: list[bytes], lanes: int, seconds: float) -> Any:
    """The victim's latencies while a neighbour session (its own process) sends ``bodies``; and its call count."""
    ctx = get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    proc = ctx.Process(target=_neighbour, args=(server.url, neighbour, bodies, lanes, stop, out))
    proc.start()
    try:
        out.get(timeout=60)
        measured = asyncio.run(_victim(server.url, victim, seconds))
    finally:
        stop.set()
        sent = out.get(timeout=180)
        proc.join(30)
    return {**measured, "neighbour_calls": sent}


def run(server: Server, seconds: float, lanes: int = LANES) -> dict[str, Any]:
    """Another session's call latency (p50/p99): idle, beside a busy neighbour, beside a hostile one.

    The busy neighbour sends the victim's own cheap read; the hostile one every input of
    :data:`CANDIDATES` to every search action. Both keep ``lanes`` calls in flight.

    Args:
        server: A gateway in its own process.
        seconds: How long each window lasts.
        lanes: Calls the neighbour keeps in flight.

    Returns:
        ``{"idle", "busy_neighbour", "under_attack"}`` (each ``{"calls", "failed", "p50_ms", "p99_ms",
        "max_ms"}``), ``"p50_ratio"`` and ``"p99_ratio"`` (under attack / idle).
    """

    async def tokens() -> tuple[str, str]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            victim = await _seed_row(http, {"task_id": READ_TASK})
            attacker = await _seed_row(http, {"task": {**TASK_ROW, "exposure": "mcp"}})
            return victim, attacker

    victim, attacker = asyncio.run(tokens())
    asyncio.run(_victim(server.url, victim, 0.5))  # warm the connection path and caches
    idle = asyncio.run(_victim(server.url, victim, seconds))
    cheap = [rpc("tools/call", {"name": READ_TOOL, "arguments": READ_ARGS})]
    busy = _under(server, victim, attacker, cheap, lanes, seconds)
    attacked = _under(server, victim, attacker, _attack_bodies(), lanes, seconds)
    return {
        "lanes": lanes,
        "idle": idle,
        "busy_neighbour": busy,
        "under_attack": attacked,
        "p50_ratio": attacked["p50_ms"] / idle["p50_ms"],
        "p99_ratio": attacked["p99_ms"] / idle["p99_ms"],
    }


if __name__ == "__main__":
    if sys.argv[1:2] == ["worst"]:
        print(json.dumps(worst(int(sys.argv[2]) if len(sys.argv) > 2 else 2)))
    elif sys.argv[1:2] == ["attack"]:  # python -m bench.hostile attack [SECONDS] [LANES]: the latency figure alone
        from bench.procs import server_processes

        with server_processes("gateway") as (gw,):
            secs, n = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0, int(sys.argv[3]) if len(sys.argv) > 3 else LANES
            print(json.dumps(run(gw, secs, n)))
    else:
        raise SystemExit("usage: python -m bench.hostile worst [ROUNDS] | attack [SECONDS] [LANES]")
