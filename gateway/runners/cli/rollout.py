"""``company-gateway rollout``: drive an OpenAI-compatible model through the tasks' tools, and grade it."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from gateway.runners.cli.common import load_selected

__all__ = ["run"]

def run(args: argparse.Namespace) -> int:
    """``rollout``: drive a model through the tasks' tools and grade every episode."""
    started = time.perf_counter()  # the wall clock of the whole command
    import httpx
    import openai
    from rich.console import Console

    from gateway.runners.rollout import RolloutConfig, rollout
    from gateway.runners.rollout_summary import Clock, print_summary, print_task_table, summarize, task_rows

    def usage(message: str) -> int:
        print(f"company-gateway rollout: {message}", file=sys.stderr)
        return 2

    api_key = os.environ.get(args.api_key_env)
    if not api_key:
        return usage(f"the environment variable {args.api_key_env} holding the API key is not set; "
                     "set it, or name another with --api-key-env")  # fmt: skip
    base = urlsplit(args.base_url)
    if base.scheme not in ("http", "https") or not base.hostname:
        return usage(f"--base-url must be an http(s) URL such as http://127.0.0.1:8001/v1, not {args.base_url!r}")
    for name in ("concurrency", "repeats", "max_steps"):
        if getattr(args, name) < 1:
            return usage(f"--{name.replace('_', '-')} must be 1 or more, not {getattr(args, name)}")
    if args.timeout <= 0 or args.max_retries < 0:
        return usage("--timeout must be above 0 seconds and --max-retries 0 or more")
    if args.split or args.families:
        if args.tasks:
            return usage("give --tasks, or --split/--family to choose built-in tasks, not both")
        chosen = load_selected(argparse.Namespace(tasks_file=None, split=args.split, families=args.families))
        args.tasks = [",".join(chosen)]
        if args.tasks == [""]:
            return usage("no built-in task matches --split/--family")
    logging.basicConfig(level=logging.ERROR)
    # FastMCP logs each error result at ERROR; here those are the model's mistakes, already in the trajectory.
    logging.getLogger("fastmcp").setLevel(logging.CRITICAL)
    config = RolloutConfig(model=args.model, api=args.api, max_steps=args.max_steps,
                           concurrency=args.concurrency, repeats=args.repeats)  # fmt: skip
    clock: dict[str, float] = {}

    async def go() -> list[Any]:
        async with openai.AsyncOpenAI(
            base_url=args.base_url, api_key=api_key, timeout=args.timeout, max_retries=args.max_retries
        ) as client:
            return await rollout(args.tasks, client, config, gateway_url=args.gateway_url,
                                 output=Path(args.output) if args.output else None,
                                 show_progress=not args.no_progress, clock=clock)  # fmt: skip

    try:
        records = asyncio.run(go())
    except httpx.HTTPError as exc:
        print(f"company-gateway rollout: cannot reach the gateway at {args.gateway_url}: {exc}", file=sys.stderr)
        return 1
    summary = summarize(records, args.repeats)
    console = Console(width=None if sys.stdout.isatty() else 160)  # a log or a pipe: wide enough for ids
    print_task_table(task_rows(records, args.repeats), args.repeats, console)
    spent = sum(r.timings.get("total_s") or 0.0 for r in records)
    print_summary(summary, Clock(time.perf_counter() - started, clock.get("episodes_s", 0.0), spent), console)
    if records and summary.masked == len(records):
        reasons = Counter(r.failure_reason or r.end_reason for r in records).most_common(1)
        print(f"company-gateway rollout: no episode could be scored (all {len(records)} masked); "
              f"most often: {reasons[0][0]}", file=sys.stderr)  # fmt: skip
        return 1
    return 0
