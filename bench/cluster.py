"""Scale-out: seeds per second through the seed router, and tool calls per second straight to the replicas.

For 1 and 2 replicas on a local Ray cluster (``pip install 'company-gateway[ray]'``): ``SEEDS`` seeds
of ``READ_TASK``, ``SEED_CONCURRENCY`` at once, through the router; then ``wrk`` (``bench/mcp_call.lua``)
drives ``READ_TOOL`` calls at every replica at once, ``CONNECTIONS`` connections each, for ``SECONDS``
seconds, each replica with a session of its own. Run: ``python -m bench.cluster [--json]``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from bench.throughput import _wrk
from gateway.cluster.replicas import connect_ray, import_ray, start_cluster
from gateway.cluster.router import create_router_app
from gateway.settings import Settings
from gateway.surfaces.serve import serve_in_background

SEEDS = 200
SEED_CONCURRENCY = 16
CONNECTIONS = 10
SECONDS = 8.0
READ_TASK = "dir-manager-of-owen"


async def _seeds(control: httpx.AsyncClient) -> tuple[float, list[dict[str, Any]]]:
    gate = asyncio.Semaphore(SEED_CONCURRENCY)

    async def one() -> dict[str, Any]:
        async with gate:
            r = await control.post("/seed_session", json={"task_id": READ_TASK})
            r.raise_for_status()
            return r.json()

    started = time.perf_counter()
    seeds = await asyncio.gather(*(one() for _ in range(SEEDS)))
    rate = SEEDS / (time.perf_counter() - started)
    return rate, seeds


async def measure(replicas: int) -> dict[str, Any]:
    settings = Settings(sandbox_provider="none", log_level="WARNING")
    cluster = await start_cluster(replicas, settings, replica_host="127.0.0.1")
    try:
        app = create_router_app(cluster.router, settings.trusted_networks, watch_interval_s=None)
        async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
            await _seeds(control)  # warm-up (world templates, connections)
            seeds_per_s, seeds = await _seeds(control)
            first = {}
            for s in seeds:
                first.setdefault(s["mcp"]["url"].removesuffix("/mcp"), s["token"])
            loop = asyncio.get_running_loop()
            with ThreadPoolExecutor(len(first)) as pool:
                runs = await asyncio.gather(*(
                    loop.run_in_executor(pool, _wrk, url, token, CONNECTIONS, 2, SECONDS)
                    for url, token in first.items()
                ))  # fmt: skip
    finally:
        await cluster.stop(0.0)
    return {
        "replicas": replicas,
        "seeds_per_s": round(seeds_per_s, 1),
        "tool_calls_per_s": round(sum(r["rps"] for r in runs), 1),
        "tool_call_p50_ms": round(max(r["p50_ms"] for r in runs), 2),
        "bad": sum(r["bad"] for r in runs),
    }


def main() -> None:
    ray = import_ray()
    connect_ray(None, log_to_driver=False)
    try:
        rows = [asyncio.run(measure(n)) for n in (1, 2)]
    finally:
        ray.shutdown()
    if "--json" in sys.argv:
        print(json.dumps(rows))
        return
    for r in rows:
        print(
            f"{r['replicas']} replica(s): {r['seeds_per_s']} seeds/s through the router, "
            f"{r['tool_calls_per_s']} tool calls/s direct (p50 {r['tool_call_p50_ms']} ms, bad {r['bad']})"
        )


if __name__ == "__main__":
    main()
