"""``company-gateway demo``: serve on loopback, play a policy on every task over real MCP, verify, report.

Each task is seeded over HTTP, played through one way in (a real MCP client
over streamable HTTP; the app commands in the session's sandbox; curl in the
sandbox), verified and closed.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import random
import time
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import httpx
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from starlette.applications import Starlette

from gateway.control.core import Gateway
from gateway.control.rows import Task
from gateway.runners.policies import (
    StepFailed,
    cli_caller,
    http_caller,
    mcp_caller,
    run_steps,
    sandbox_shell,
    steps_for,
)
from gateway.surfaces.serve import serve_in_background

__all__ = ["DEMO_SEED", "EpisodeResult", "cluster_demo", "demo_sample", "demo_ways", "play", "run_demo"]

logger = logging.getLogger(__name__)

#: The seed of the demo's sample of family instances: the same sample on every run.
DEMO_SEED = 20251205


def demo_sample(tasks: Mapping[str, Task], per_family: int, seed: int = DEMO_SEED) -> dict[str, Task]:
    """Every hand-written task and ``per_family`` instances of each family, drawn with ``seed``, in ``tasks`` order.

    A family's draw deals its instances' own exposures round (mcp, cli, http, mcp, ...) while it has instances of
    each, so a sample of 3 plays each way in once; the same tasks and seed give the same sample.

    Raises:
        ValueError: ``per_family`` is below 1.
    """
    if per_family < 1:
        raise ValueError(f"per_family must be 1 or more, not {per_family}")
    by_family: dict[str, list[str]] = {}
    for tid, task in tasks.items():
        if task.family:
            by_family.setdefault(task.family, []).append(tid)
    chosen: set[str] = set()
    for family, ids in sorted(by_family.items()):
        rng = random.Random(f"{seed}:{family}")
        pools = {e: [tid for tid in sorted(ids) if tasks[tid].exposure == e] for e in ("mcp", "cli", "http")}
        for pool in pools.values():
            rng.shuffle(pool)
        rest = [tid for tid in sorted(ids) if tasks[tid].exposure not in pools]
        rng.shuffle(rest)
        ways = [e for e in ("mcp", "cli", "http") if pools[e]]
        for n in range(min(per_family, len(ids))):
            turn = n % len(ways) if ways else 0
            way = next((w for w in ways[turn:] + ways[:turn] if pools[w]), None)
            chosen.add(pools[way].pop() if way is not None else rest.pop())
    return {tid: t for tid, t in tasks.items() if not t.family or tid in chosen}


@dataclass
class EpisodeResult:
    """One task played once: the JSON line of ``demo --json``."""

    task_id: str
    exposure: str
    policy: str
    apps: list[str]
    reward: float
    calls: int
    ms: float
    checks: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The JSON line: task_id, exposure, policy, reward, calls, ms, checks (and error if a step failed)."""
        out = {
            "task_id": self.task_id,
            "exposure": self.exposure,
            "policy": self.policy,
            "reward": self.reward,
            "calls": self.calls,
            "ms": round(self.ms, 1),
            "checks": self.checks,
        }
        if self.error:
            out["error"] = self.error
        return out


async def play(control: httpx.AsyncClient, gateway: Gateway, task: Task, policy: str, exposure: str) -> EpisodeResult:
    """Seed ``task``, play ``policy`` through ``exposure``, verify and close; never raises for a failed step.

    ``mcp`` plays through a real MCP client over streamable HTTP; ``cli`` runs the app
    commands inside the session's sandbox; ``http`` runs curl inside the sandbox.
    """
    started = time.perf_counter()
    seed = (await control.post("/seed_session", json={"task_id": task.id, "exposure": exposure})).raise_for_status()
    info = seed.json()
    error = None
    calls = 0
    steps = steps_for(task, policy)
    try:
        if exposure == "mcp":
            transport = StreamableHttpTransport(info["mcp"]["url"], headers=info["mcp"]["headers"])
            async with Client(transport) as client:
                calls = await run_steps(steps, mcp_caller(client))
        else:
            session = gateway.get_session(info["session_id"])
            if session.sandbox is None or gateway.provider is None:
                raise StepFailed(f"exposure {exposure} needs a sandbox, and this server lends none")
            make = cli_caller if exposure == "cli" else http_caller
            shell = sandbox_shell(gateway.provider, session.sandbox)
            calls = await run_steps(steps, make(gateway.provider, session.sandbox), shell=shell)
    except StepFailed as exc:
        error = str(exc)
    verdict = (await control.post("/verify", json={"session_id": info["session_id"]})).raise_for_status().json()
    await control.post("/close_session", json={"session_id": info["session_id"]})
    return EpisodeResult(
        task_id=task.id,
        exposure=exposure,
        policy=policy,
        apps=task.apps,
        reward=verdict["reward"],
        calls=calls,
        ms=(time.perf_counter() - started) * 1000,
        checks=verdict["checks"],
        error=error,
    )


#: Plays :func:`run_demo` keeps going at once: a play mostly waits (on its sandbox's processes, on the gateway's
#: worker threads), so a few at a time keep both cores busy where one at a time leaves them idle.
DEMO_IN_FLIGHT = 4


async def run_demo(
    app: Starlette, tasks: list[Task], policy: str, exposures: list[str], in_flight: int = DEMO_IN_FLIGHT
) -> AsyncGenerator[EpisodeResult, None]:
    """Serve ``app`` on loopback and play every task under each exposure; yields results in the tasks' order.

    Args:
        exposures: ``mcp``, ``cli``, ``http``; ``own`` plays a task through its row's exposure, and ``auto``
            plays a hand-written task through all three and a family instance through its own.
        in_flight: Plays going at once (1 or more); results still come in the order of ``tasks``.
    """
    runs = [(task, exposure) for task in tasks for exposure in demo_ways(task, exposures)]
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
        gateway = app.state.gateway
        pending: collections.deque[asyncio.Task[EpisodeResult]] = collections.deque()
        upcoming = iter(runs)
        try:
            for task, exposure in itertools.islice(upcoming, max(1, in_flight)):
                pending.append(asyncio.create_task(play(control, gateway, task, policy, exposure)))
            while pending:
                result = await pending.popleft()
                for task, exposure in itertools.islice(upcoming, 1):
                    pending.append(asyncio.create_task(play(control, gateway, task, policy, exposure)))
                yield result
        finally:  # the reader stopped early (or a play raised): the plays still going are cancelled
            for left in pending:
                left.cancel()
            await asyncio.gather(*pending, return_exceptions=True)


def demo_ways(task: Task, exposures: list[str]) -> list[str]:
    """The exposures :func:`run_demo` plays ``task`` through, given its ``exposures`` argument."""
    if exposures == ["own"] or (exposures == ["auto"] and task.family):
        return [task.exposure]
    if exposures == ["auto"]:
        return ["mcp", "cli", "http"]
    return exposures


async def cluster_demo(tasks: list[Any], policy: str, replicas: int) -> AsyncGenerator[EpisodeResult, None]:
    """Play every task over MCP against ``replicas`` replicas on a local Ray cluster; yields EpisodeResults."""
    from gateway.cluster.replicas import connect_ray, import_ray, start_cluster
    from gateway.cluster.router import create_router_app
    from gateway.settings import Settings

    ray = import_ray()
    connect_ray(None, log_to_driver=False)
    settings = Settings()
    cluster = await start_cluster(replicas, settings, replica_host="127.0.0.1")
    try:
        app = create_router_app(cluster.router, settings.trusted_networks, watch_interval_s=None)
        async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
            for task in tasks:
                yield await play(control, cast(Gateway, None), task, policy, "mcp")  # mcp needs no local gateway
    finally:
        await cluster.stop(0.0)
        ray.shutdown()
