"""(b) A burst of seeds while 50 MCP clients loop initialize + tools/list + one read call.

The gateway runs in its own process; the 50 clients run in 5 processes of 10 async
httpx clients each, speaking raw JSON-RPC; the burst is sent from this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import time
from collections.abc import Iterator
from multiprocessing import get_context
from typing import Any

import httpx

from bench.common import (
    INITIALIZE,
    MCP_HEADERS,
    READ_ARGS,
    READ_TASK,
    READ_TOOL,
    check_result,
    percentile,
    rpc,
    seed_many,
)
from bench.procs import Server

__all__ = ["run", "run_bare"]

PROCESSES = 5
CLIENTS_PER_PROCESS = 10


def _client_process(url: str, tokens: list[str], stop: Any, out: Any) -> None:
    """Loop initialize, tools/list, tools/call on each token until ``stop`` is set; put records on ``out``."""
    calls = [INITIALIZE, rpc("tools/list", {}), rpc("tools/call", {"name": READ_TOOL, "arguments": READ_ARGS})]
    records: list[tuple[float, float, bool]] = []  # (start, latency s, ok), start on the machine's monotonic clock

    async def client(token: str, ready: asyncio.Event) -> None:
        headers = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as http:
            while not stop.is_set():
                for body in calls:
                    started = time.monotonic()
                    try:
                        ok = check_result(await http.post("/mcp", content=body))
                    except httpx.HTTPError:
                        ok = False
                    records.append((started, time.monotonic() - started, ok))
                ready.set()

    async def main() -> None:
        readies = [asyncio.Event() for _ in tokens]
        tasks = [asyncio.create_task(client(t, r)) for t, r in zip(tokens, readies, strict=True)]
        for r in readies:
            await r.wait()
        out.put("ready")
        await asyncio.gather(*tasks)

    asyncio.run(main())
    out.put(records)


async def _post_raw(host: str, port: int, path: str, body: bytes) -> tuple[int, bytes]:
    """One HTTP/1.1 POST on a connection of its own (``Connection: close``); returns status and body.

    Plain asyncio streams: httpx's connection pool slows down with a thousand requests in flight,
    and the burst generator must not be what limits the seed rate.
    """
    reader, writer = await asyncio.open_connection(host, port)
    try:
        head = (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()  # fmt: skip
        writer.write(head + body)
        await writer.drain()
        raw = await reader.read()  # the server closes after the response
    finally:
        writer.close()
    status_line, _, rest = raw.partition(b"\r\n")
    _, _, payload = rest.partition(b"\r\n\r\n")
    return int(status_line.split()[1]), payload


async def _burst(url: str, n: int, cap_s: float) -> tuple[float, float, list[float], int]:
    """Send ``n`` seeds at once; returns start, end (monotonic), each finished seed's latency, failures.

    Seeds still unanswered after ``cap_s`` are abandoned (the run stays bounded on a slow machine).
    """
    parts = httpx.URL(url)
    host, port = parts.host, parts.port or 80
    body = json.dumps({"task_id": READ_TASK}).encode()

    async def one() -> tuple[float, bool]:
        started = time.monotonic()
        try:
            status, payload = await _post_raw(host, port, "/seed_session", body)
            ok = status == 200 and b'"token"' in payload
        except (OSError, ValueError, IndexError):
            ok = False
        return time.monotonic() - started, ok

    started = time.monotonic()
    tasks = [asyncio.create_task(one()) for _ in range(n)]
    done, pending = await asyncio.wait(tasks, timeout=cap_s)
    ended = time.monotonic()
    for t in pending:
        t.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    results = [t.result() for t in done]
    return started, ended, [r[0] for r in results], sum(not r[1] for r in results)


def _summary(records: list[tuple[float, float, bool]], start: float, end: float) -> dict[str, Any]:
    window = [r for r in records if start <= r[0] <= end]
    latencies = [r[1] for r in window]
    return {
        "calls": len(window),
        "failed": sum(not r[2] for r in window),
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
    }


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return float("nan")


@contextlib.contextmanager
def _looping_clients(url: str, tokens: list[str]) -> Iterator[list[tuple[float, float, bool]]]:
    """Run the client processes (one token each) for the block; the list fills with their records at exit."""
    ctx = get_context("spawn")
    stop = ctx.Event()
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_client_process,
                    args=(url, tokens[i * CLIENTS_PER_PROCESS:(i + 1) * CLIENTS_PER_PROCESS], stop, out))
        for i in range(PROCESSES)
    ]  # fmt: skip
    for p in procs:
        p.start()
    records: list[tuple[float, float, bool]] = []
    try:
        for _ in procs:
            if out.get(timeout=120) != "ready":
                raise RuntimeError("a client process did not get ready")
        yield records
        stop.set()
        for _ in procs:
            records += out.get(timeout=120)
    except queue.Empty:
        raise RuntimeError("a client process gave no records") from None
    finally:
        stop.set()
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.kill()


def run_bare(bare: Server, seconds: float) -> dict[str, Any]:
    """The same 50 looping clients against the bare FastMCP server for ``seconds``: the floor of (b)'s latency."""
    with _looping_clients(bare.url, ["-"] * (PROCESSES * CLIENTS_PER_PROCESS)) as records:
        start = time.monotonic()
        time.sleep(seconds)
        end = time.monotonic()
    return _summary(records, start, end)


def run(gw: Server, seeds: int, quiet_s: float, cap_s: float) -> dict[str, Any]:
    """Burst ``seeds`` seeds at ``gw`` under the client load; ``quiet_s`` of load before it gives the baseline.

    A first burst of as many seeds with no client load gives the seed rate the server reaches alone.
    """

    async def tokens() -> list[str]:
        async with httpx.AsyncClient(base_url=gw.url, timeout=60) as http:
            infos = await seed_many(http, READ_TASK, PROCESSES * CLIENTS_PER_PROCESS)
            return [str(i["token"]) for i in infos]

    alone_start, alone_end, alone_latencies, alone_failures = asyncio.run(_burst(gw.url, seeds, cap_s))
    with _looping_clients(gw.url, asyncio.run(tokens())) as records:
        time.sleep(quiet_s)
        start, end, seed_latencies, seed_failures = asyncio.run(_burst(gw.url, seeds, cap_s))
    metrics = httpx.get(f"{gw.url}/metrics").text
    build_n = _metric(metrics, "gateway_seed_build_seconds_count")
    return {
        "seeds": seeds,
        "seeds_answered": len(seed_latencies),
        "seed_failures": seed_failures,
        "capped_at_s": cap_s if len(seed_latencies) < seeds else None,
        "burst_s": end - start,
        "seeds_per_s": (len(seed_latencies) - seed_failures) / (end - start),
        "seed_p50_ms": percentile(seed_latencies, 50) * 1000,
        "seed_p99_ms": percentile(seed_latencies, 99) * 1000,
        "mean_build_ms": _metric(metrics, "gateway_seed_build_seconds_sum") / build_n * 1000,
        "seeds_per_s_alone": (len(alone_latencies) - alone_failures) / (alone_end - alone_start),
        "clients": PROCESSES * CLIENTS_PER_PROCESS,
        "client_processes": PROCESSES,
        "during_burst": _summary(records, start, end),
        "before_burst": _summary(records, start - quiet_s, start),
    }
