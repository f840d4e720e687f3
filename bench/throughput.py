"""(a) Tool calls through the gateway vs a bare FastMCP server: same load, same run, each server in its own process.

Four ways to make the same call: MCP through the gateway (its fast path answers), MCP through a
gateway with the fast path off (FastMCP answers), the gateway's HTTP exposure (``POST /api/...``,
same process as the first), and a bare FastMCP server with one trivial tool.

Load comes from ``wrk`` (Debian package ``wrk``) with ``bench/mcp_call.lua`` (MCP, or the HTTP exposure);
without wrk, from several Python client processes (said so in the result), for MCP only.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import httpx

from bench.common import MCP_HEADERS, READ_ARGS, READ_TASK, READ_TOOL, check_result, percentile, rpc, seed
from bench.procs import Server, cpu_seconds

__all__ = ["run"]

LUA = Path(__file__).with_name("mcp_call.lua")
#: The HTTP exposure's path for READ_TOOL.
API_PATH = "/api/directory/get_person"
#: (connections, wrk threads)
LOADS = ((1, 1), (10, 2))


def _wrk(url: str, token: str, connections: int, threads: int, seconds: float, api: bool = False) -> dict[str, Any]:
    env = {**os.environ, "MCP_TOKEN": token, "MCP_TOOL": READ_TOOL, "MCP_ARGS": json.dumps(READ_ARGS),
           **({"API_PATH": API_PATH} if api else {})}  # fmt: skip
    argv = ["wrk", f"-c{connections}", f"-t{threads}", f"-d{max(1, round(seconds))}s", "--timeout", "10s",
            "-s", str(LUA), f"{url}{API_PATH if api else '/mcp'}"]  # fmt: skip
    out = subprocess.run(argv, capture_output=True, text=True, env=env, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("WRK_JSON "))
    raw = json.loads(line.removeprefix("WRK_JSON "))
    return {
        "rps": raw["requests"] / (raw["duration_us"] / 1e6),
        "p50_ms": raw["p50_us"] / 1000,
        "p90_ms": raw["p90_us"] / 1000,
        "p99_ms": raw["p99_us"] / 1000,
        "requests": raw["requests"],
        "bad": raw["non2xx"] + raw["no_result"] + raw["socket_errors"] + raw["timeouts"],
        "non2xx": raw["non2xx"],
        "no_result": raw["no_result"],
    }


def _py_client(url: str, token: str, connections: int, seconds: float) -> tuple[list[float], int, float]:
    """Fallback load: ``connections`` sequential loops in one process; returns latencies (s), bad count, seconds."""

    async def loop(client: httpx.AsyncClient, stop: float, out: list[float]) -> int:
        bad = 0
        body = rpc("tools/call", {"name": READ_TOOL, "arguments": READ_ARGS})
        while time.monotonic() < stop:
            t = time.perf_counter()
            r = await client.post("/mcp", content=body)
            out.append(time.perf_counter() - t)
            bad += not check_result(r)
        return bad

    async def main() -> tuple[list[float], int, float]:
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
        out: list[float] = []
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as client:
            bads = await asyncio.gather(*(loop(client, started + seconds, out) for _ in range(connections)))
        return out, sum(bads), time.monotonic() - started

    return asyncio.run(main())


def _python_load(url: str, token: str, connections: int, seconds: float) -> dict[str, Any]:
    procs = min(connections, max(1, (os.cpu_count() or 2) - 1))
    shares = [connections // procs + (i < connections % procs) for i in range(procs)]
    with ProcessPoolExecutor(procs, mp_context=get_context("spawn")) as pool:
        results = list(pool.map(_py_client, [url] * procs, [token] * procs, shares, [seconds] * procs))
    latencies = [x for r in results for x in r[0]]
    elapsed = max(r[2] for r in results)
    return {
        "rps": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p90_ms": percentile(latencies, 90) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "requests": len(latencies),
        "bad": sum(r[1] for r in results),
    }


def _check(url: str, token: str) -> None:
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
    body = rpc("tools/call", {"name": READ_TOOL, "arguments": READ_ARGS})
    r = httpx.post(f"{url}/mcp", headers=headers, content=body)
    if not check_result(r) or "owen.bell" not in r.text:
        raise RuntimeError(f"{url}: the tool call did not return a result: {r.status_code} {r.text[:300]}")


def run(gw: Server, bare: Server, seconds: float, slow: Server | None = None) -> dict[str, Any]:
    """Measure each way at 1 and 10 connections for ``seconds`` each; returns figures and ratios.

    Args:
        gw: A gateway with the MCP fast path on (its HTTP exposure is measured too, with wrk).
        bare: The bare FastMCP server.
        seconds: Length of each measured run (each follows a 1 s warm-up).
        slow: A gateway with the fast path off, if given.

    Returns:
        ``{"c1": row, "c10": row, ...}``; a row has a figure dict per way (``bare``, ``gateway``,
        ``gateway_fastmcp``, ``http``: calls/s, p50/p90/p99 ms, server CPU ms per call) and the
        ratios of ``gateway`` to ``bare`` (``latency_ratio``, ``throughput_ratio``, ``cpu_ratio``).

    Besides wrk's figures, each run records the server process's CPU time per call: on a
    machine shared with other work that figure moves far less than latency does.
    """
    use_wrk = shutil.which("wrk") is not None

    async def seed_one(url: str) -> str:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            return str((await seed(client, READ_TASK))["token"])

    ways: dict[str, tuple[Server, bool]] = {"bare": (bare, False), "gateway": (gw, False)}
    if slow is not None:
        ways["gateway_fastmcp"] = (slow, False)
    if use_wrk:
        ways["http"] = (gw, True)  # the wrk script for the HTTP exposure; no Python fallback
    tokens = {"bare": "unused", "gateway": asyncio.run(seed_one(gw.url))}
    tokens["http"] = tokens["gateway"]
    if slow is not None:
        tokens["gateway_fastmcp"] = asyncio.run(seed_one(slow.url))
    for name, (server, api) in ways.items():
        if not api:
            _check(server.url, tokens[name])
    figures: dict[str, Any] = {}
    for connections, threads in LOADS:
        row: dict[str, Any] = {}
        for name, (server, api) in ways.items():
            if use_wrk:
                _wrk(server.url, tokens[name], connections, threads, 1, api)  # warm-up, not counted
                cpu = cpu_seconds(server.pid)
                row[name] = _wrk(server.url, tokens[name], connections, threads, seconds, api)
            else:
                _python_load(server.url, tokens[name], connections, 1)
                cpu = cpu_seconds(server.pid)
                row[name] = _python_load(server.url, tokens[name], connections, seconds)
            calls = max(1, row[name]["requests"])
            row[name]["server_cpu_ms_per_call"] = (cpu_seconds(server.pid) - cpu) / calls * 1000
        row["latency_ratio"] = row["gateway"]["p50_ms"] / row["bare"]["p50_ms"]
        row["throughput_ratio"] = row["gateway"]["rps"] / row["bare"]["rps"]
        row["cpu_ratio"] = row["gateway"]["server_cpu_ms_per_call"] / row["bare"]["server_cpu_ms_per_call"]
        figures[f"c{connections}"] = row
    return {
        "generator": "wrk" if use_wrk else "python (wrk not installed: several httpx client processes; MCP only)",
        "seconds_per_run": seconds,
        "tool": READ_TOOL,
        "task": READ_TASK,
        **figures,
    }
