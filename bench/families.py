"""Figures for task families and generated companies, each part in a fresh interpreter.

    python -m bench.families build      # a generated company: first build (cold document cache) and warm
    python -m bench.families seed       # seeding a family instance vs a default-company task
    python -m bench.families prove      # `tasks prove --exposure own --jobs 2` over every family instance
    python -m bench.families            # all three

Prints one JSON object per part on stdout.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

BASE_URL = "http://127.0.0.1:9/"


def build() -> dict[str, Any]:
    """Seconds to build every app's validated state of one generated company, then of all of them."""
    from gateway.control.worlds import _company_app
    from tools import REGISTRY
    from tools.companies import GENERATED

    started = time.perf_counter()
    for app in REGISTRY.apps:
        _company_app("gen-1", app)
    first = time.perf_counter() - started
    started = time.perf_counter()
    for key in GENERATED:
        for app in REGISTRY.apps:
            _company_app(key, app)
    rest = time.perf_counter() - started
    return {"first_company_s": round(first, 3), "other_companies_s": round(rest, 3), "companies": len(GENERATED)}


async def _seeds(gateway: Any, task_ids: list[str]) -> tuple[float, float]:
    """(median first seed of each task, median later seed) in ms."""
    first, later = [], []
    for tid in task_ids:
        for n in range(6):
            started = time.perf_counter()
            out = await gateway.seed({"task_id": tid}, BASE_URL)
            (first if n == 0 else later).append((time.perf_counter() - started) * 1000)
            await gateway.close(out["session_id"])
    return statistics.median(first), statistics.median(later)


def seed() -> dict[str, Any]:
    """Seeding family instances (their company already built) against hand-written default-company tasks."""
    from gateway.control.core import Gateway
    from gateway.control.rows import load_builtin_tasks
    from gateway.control.worlds import _company_app
    from gateway.settings import Settings
    from tools import REGISTRY
    from tools.companies import GENERATED

    tasks = load_builtin_tasks()
    for key in ["default", *GENERATED]:  # companies built: what is measured is the seed itself
        for app in REGISTRY.apps:
            _company_app(key, app)
    gateway = Gateway(Settings(sandbox_provider="none", seed_slice_s=0.0), tasks, None)
    # hand-written rows start from the default company as it is (no overrides); an instance's first seed also
    # applies its scenario's records to its company (the template, then shared by its later seeds)
    handwritten = [t.id for t in tasks.values() if not t.family and not t.sandbox][:40]
    instances = [t.id for t in tasks.values() if t.family and not t.sandbox][::25][:40]

    async def run() -> dict[str, Any]:
        d_first, d_later = await _seeds(gateway, handwritten)
        g_first, g_later = await _seeds(gateway, instances)
        return {
            "default_first_seed_ms": round(d_first, 2),
            "default_later_seed_ms": round(d_later, 3),
            "instance_first_seed_ms": round(g_first, 2),
            "instance_later_seed_ms": round(g_later, 3),
            "first_seed_ratio": round(g_first / d_first, 2),
            "later_seed_ratio": round(g_later / d_later, 2),
            "tasks": [len(handwritten), len(instances)],
        }

    return asyncio.run(run())


def prove() -> dict[str, Any]:
    """Wall time of proving every family instance through its own exposure over 2 worker processes."""
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "gateway.runners.cli", "tasks", "prove", "--exposure", "own", "--jobs", "2",
         "--family", _all_families()],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    return {"exit": out.returncode, "wall_s": round(seconds, 1), "summary": out.stdout.strip().splitlines()[-1]}


def _all_families() -> str:
    from gateway.tasks.loader import families

    return ",".join(families())


def main(argv: list[str]) -> int:
    parts = argv or ["build", "seed", "prove"]
    for part in parts:
        if part not in ("build", "seed", "prove"):
            print(f"bench.families: unknown part {part!r}; use build, seed or prove", file=sys.stderr)
            return 2
    for part in parts:
        env = dict(os.environ)
        if part == "build":
            env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="bench-cold-")  # documents made, not read from a cache
            for label, extra in (("cold", env), ("warm", env)):
                out = subprocess.run([sys.executable, "-c", _CALL.format(part=part)], env=extra, capture_output=True,
                                     text=True, check=True)  # fmt: skip
                print(json.dumps({"part": f"build ({label} document cache)", **json.loads(out.stdout)}), flush=True)
            continue
        out = subprocess.run([sys.executable, "-c", _CALL.format(part=part)], capture_output=True, text=True)
        if out.returncode:
            print(out.stderr, file=sys.stderr)
            return 1
        print(json.dumps({"part": part, **json.loads(out.stdout)}), flush=True)
    return 0


_CALL = "import json, bench.families as b; print(json.dumps(b.{part}()))"

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
