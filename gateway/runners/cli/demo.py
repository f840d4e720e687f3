"""``company-gateway demo``: serve on loopback and play a policy on every task, every way in."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from typing import Any

from gateway.runners.cli.common import load_selected, pick
from gateway.runners.cli.progress import Progress

__all__ = ["run"]

def run(args: argparse.Namespace) -> int:
    """``demo``: serve on loopback and play a policy on the tasks; 1 when a run scores off the mark."""
    from gateway.runners.demo import EpisodeResult, demo_sample, demo_ways, run_demo
    from gateway.settings import Settings
    from gateway.surfaces.asgi import create_app

    if args.in_flight < 1:
        print(f"company-gateway demo: --in-flight must be 1 or more, not {args.in_flight}", file=sys.stderr)
        return 2
    tasks = load_selected(args)
    if args.task_ids:
        picked = pick(tasks, args, "demo")
        if picked is None:
            return 2
        tasks = picked
    elif not args.all:  # a fixed sample of each family's instances; --all plays every one
        sample = 3 if args.sample is None else args.sample
        if sample < 1:
            print(f"company-gateway demo: --sample must be 1 or more, not {sample}", file=sys.stderr)
            return 2
        tasks = demo_sample(tasks, sample)
    logging.basicConfig(level=logging.WARNING)
    exposures = ["mcp", "cli", "http"] if args.exposure == "all" else [args.exposure]
    if args.cluster is not None and (args.cluster < 1 or args.exposure not in ("mcp", "all", "auto")):
        print("company-gateway demo: --cluster takes 1 or more replicas, and plays over MCP only", file=sys.stderr)
        return 2
    settings = Settings(**({"sandbox_provider": args.sandbox_provider} if args.sandbox_provider else {}))
    app = create_app(settings, tasks)
    results: list[EpisodeResult] = []

    async def go() -> None:
        if args.cluster:
            from gateway.runners.demo import cluster_demo

            episodes = cluster_demo(list(tasks.values()), args.policy, args.cluster)
        else:
            episodes = run_demo(app, list(tasks.values()), args.policy, exposures, args.in_flight)
        total = len(tasks) if args.cluster else sum(len(demo_ways(t, exposures)) for t in tasks.values())
        # the generator is closed here, in the loop, whatever ends the run
        async with contextlib.aclosing(episodes):
            with Progress("playing", total, quiet=args.json) as progress:
                await _drain(episodes, results, progress)

    async def _drain(episodes: Any, results: list[EpisodeResult], progress: Progress) -> None:
        async for res in episodes:
            results.append(res)
            progress.advance()
            if args.json:
                try:
                    print(json.dumps(res.as_json()), flush=True)
                except BrokenPipeError:  # e.g. `demo --json | head -1`: the reader has all it wanted
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                    raise _ReaderGone from None

    started = time.perf_counter()
    try:
        asyncio.run(go())
    except _ReaderGone:
        return 0
    wall_s = time.perf_counter() - started
    want = 1.0 if args.policy == "oracle" else 0.0
    bad = [r for r in results if r.reward != want]
    if not args.json:
        _print_table(results, args.policy, wall_s)
    if bad:
        print(f"{len(bad)} run(s) did not score {want}: {', '.join(r.task_id for r in bad)}", file=sys.stderr)
        return 1
    return 0


class _ReaderGone(Exception):
    """The reader of standard output left (a closed pipe): stop quietly."""


def _summary(results: list[Any], wall_s: float) -> str:
    """The closing line: runs, mean reward, the wall time, and the plays' own times summed (they overlap)."""
    mean = sum(r.reward for r in results) / len(results) if results else 0.0
    summed_s = sum(r.ms for r in results) / 1000
    return f"{len(results)} runs, mean reward {mean:.3f}, {wall_s:.1f} s wall ({summed_s:.1f} s summed over plays)"


def _print_table(results: list[Any], policy: str, wall_s: float) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 160)  # a log or a pipe: wide enough for ids
    if len(results) > 300:  # a row per run is a wall; a row per family says the same
        _print_family_table(results, policy, console, wall_s)
        return
    table = Table(title=f"demo: policy {policy}")
    # Task ids whole, on one line, however narrow the terminal (the other columns wrap instead).
    widest = max((len(r.task_id) for r in results), default=4)
    table.add_column("task", no_wrap=True, min_width=widest)
    table.add_column("exposure")
    table.add_column("apps", overflow="fold")
    for col in ("calls", "reward", "ms"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(r.task_id, r.exposure, ",".join(r.apps), str(r.calls), f"{r.reward:.1f}", f"{r.ms:.0f}")
    console.print(table)
    console.print(_summary(results, wall_s))


def _print_family_table(results: list[Any], policy: str, console: Any, wall_s: float) -> None:
    """One row per family (hand-written tasks by app): runs, ways in, mean reward and the runs off the mark."""
    from rich.table import Table

    want = 1.0 if policy == "oracle" else 0.0
    groups: dict[str, list[Any]] = {}
    for r in results:
        key = r.task_id.split(".", 1)[0] if "." in r.task_id else f"(hand-written) {r.apps[0]}"
        groups.setdefault(key, []).append(r)
    table = Table(title=f"demo: policy {policy}, by family")
    table.add_column("family", no_wrap=True)
    for col in ("runs", "exposures", "mean reward", f"not {want}"):
        table.add_column(col, justify="right")
    for key, rows in sorted(groups.items()):
        mean = sum(r.reward for r in rows) / len(rows)
        off = sum(r.reward != want for r in rows)
        table.add_row(key, str(len(rows)), str(len({r.exposure for r in rows})), f"{mean:.3f}", str(off))
    console.print(table)
    console.print(_summary(results, wall_s))
