"""In-process figures, each run in a fresh interpreter: ``python -m bench.inproc shutdown|heap N``.

Prints one JSON object on stdout.

- ``shutdown N``: seed N sessions with a sandbox on :class:`SlowDestroyProvider`
  (100 ms per destroy), then time ``Gateway.shutdown()``.
- ``heap N``: Python heap that N live sessions add, traced with tracemalloc (the server
  figures come from RSS, in a process that runs without tracemalloc), before and after
  each session made one write.
- ``worst N``: :func:`bench.hostile.worst` with N rounds (the slowest answer of every search
  to the worst inputs); ``filled 1``: :mod:`bench.filled` (the slowest search of a session that
  filled its world to its text quota).
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import sys
import time
import tracemalloc
from typing import Any

from bench.common import READ_TASK, WRITE_ARGS, WRITE_TASK, WRITE_TOOL
from bench.fake_provider import SlowDestroyProvider
from gateway.control.core import Gateway
from gateway.control.rows import load_builtin_tasks
from gateway.settings import Settings

BASE_URL = "http://127.0.0.1:9/"


async def shutdown(n: int) -> dict[str, Any]:
    provider = SlowDestroyProvider(destroy_s=0.1)
    settings = Settings(sandbox_provider="none", seed_slice_s=0.0)  # setup only: no slice between builds
    gateway = Gateway(settings, load_builtin_tasks(), provider)
    started = time.perf_counter()
    await asyncio.gather(*(gateway.seed({"task_id": READ_TASK, "sandbox": True}, BASE_URL) for _ in range(n)))
    setup_s = time.perf_counter() - started
    lent = len(provider.live)
    started = time.perf_counter()
    await gateway.shutdown()
    seconds = time.perf_counter() - started
    return {
        "sandboxes": lent,
        "destroy_s": provider.destroy_s,
        "shutdown_s": seconds,
        "destroyed": provider.destroyed,
        "left_alive": len(provider.live),
        "peak_concurrent_destroys": provider.peak_concurrent_destroys,
        "setup_s": setup_s,
    }


async def heap(n: int) -> dict[str, Any]:
    settings = Settings(sandbox_provider="none", seed_slice_s=0.0)
    gateway = Gateway(settings, load_builtin_tasks(), None)
    warm = await gateway.seed({"task_id": WRITE_TASK}, BASE_URL)  # builds the shared template, warms caches
    await gateway.call(gateway.get_session(warm["session_id"]), WRITE_TOOL, dict(WRITE_ARGS))
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    seeds = [await gateway.seed({"task_id": WRITE_TASK}, BASE_URL) for _ in range(n)]
    gc.collect()
    seeded = tracemalloc.get_traced_memory()[0]
    for s in seeds:
        await gateway.call(gateway.get_session(s["session_id"]), WRITE_TOOL, dict(WRITE_ARGS))
    gc.collect()
    written = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {
        "sessions": n,
        "task": WRITE_TASK,
        "heap_per_session_bytes": (seeded - base) / n,
        "heap_per_written_session_bytes": (written - base) / n,
    }


async def worst(n: int) -> dict[str, Any]:
    from bench.hostile import worst_searches

    return await worst_searches(n)


async def filled(n: int) -> dict[str, Any]:
    from bench.filled import filled_session

    return await filled_session()


def main(argv: list[str]) -> None:
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("gateway").setLevel(logging.ERROR)
    jobs = {"shutdown": shutdown, "heap": heap, "worst": worst, "filled": filled}
    if len(argv) != 2 or argv[0] not in jobs:
        raise SystemExit("usage: python -m bench.inproc shutdown|heap|worst|filled N")
    print(json.dumps(asyncio.run(jobs[argv[0]](int(argv[1])))))


if __name__ == "__main__":
    main(sys.argv[1:])
