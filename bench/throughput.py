"""(a) Tool calls through the gateway vs a bare FastMCP server: same load, same run, each server in its own process.

Load comes from ``wrk`` (Debian package ``wrk``) with ``bench/mcp_call.lua``; without wrk, from
several Python client processes (said so in the result).
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
#: (connections, wrk threads)
LOADS = ((1, 1), (10, 2))


def _wrk(url: str, token: str, connections: int, threads: int, seconds: float) -> dict[str, Any]:
    env = {**os.environ, "MCP_TOKEN": token, "MCP_TOOL": READ_TOOL, "MCP_ARGS": json.dumps(READ_ARGS)}
    argv = ["wrk", f"-c{connections}", f"-t{threads}", f"-d{max(1, round(seconds))}s", "--timeout", "10s",
            "-s", str(LUA), f"{url}/mcp"]  # fmt: skip
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


def run(gw: Server, bare: Server, seconds: float) -> dict[str, Any]:
    """Measure both servers at 1 and 10 connections for ``seconds`` each; returns figures and ratios.

    Besides wrk's figures, each run records the server process's CPU time per call: on a
    machine shared with other work that figure moves far less than latency does.
    """
    use_wrk = shutil.which("wrk") is not None

    async def seed_one() -> str:
        async with httpx.AsyncClient(base_url=gw.url, timeout=60) as client:
            return str((await seed(client, READ_TASK))["token"])

    tokens = {"gateway": asyncio.run(seed_one()), "bare": "unused"}
    urls = {"gateway": gw.url, "bare": bare.url}
    pids = {"gateway": gw.pid, "bare": bare.pid}
    for name in urls:
        _check(urls[name], tokens[name])
    figures: dict[str, Any] = {}
    for connections, threads in LOADS:
        row: dict[str, Any] = {}
        for name in ("bare", "gateway"):
            if use_wrk:
                _wrk(urls[name], tokens[name], connections, threads, 1)  # warm-up, not counted
                cpu = cpu_seconds(pids[name])
                row[name] = _wrk(urls[name], tokens[name], connections, threads, seconds)
            else:
                _python_load(urls[name], tokens[name], connections, 1)
                cpu = cpu_seconds(pids[name])
                row[name] = _python_load(urls[name], tokens[name], connections, seconds)
            row[name]["server_cpu_ms_per_call"] = (cpu_seconds(pids[name]) - cpu) / max(1, row[name]["requests"]) * 1000
        row["latency_ratio"] = row["gateway"]["p50_ms"] / row["bare"]["p50_ms"]
        row["throughput_ratio"] = row["gateway"]["rps"] / row["bare"]["rps"]
        row["cpu_ratio"] = row["gateway"]["server_cpu_ms_per_call"] / row["bare"]["server_cpu_ms_per_call"]
        figures[f"c{connections}"] = row
    return {
        "generator": "wrk" if use_wrk else "python (wrk not installed: several httpx client processes)",
        "seconds_per_run": seconds,
        "tool": READ_TOOL,
        "task": READ_TASK,
        **figures,
    }
