"""The ``company-gateway`` command: serve, tasks, tools, demo, rollout, cluster, harbor-export, gym-export.

Exit status: 0 on success; 1 when a demo's oracle scores below 1.0 (or noop
above 0.0), when ``tasks prove`` finds a grader that fails a policy, when a rollout
cannot start (its gateway is unreachable), or when no episode of a rollout could be
scored (every one masked, e.g. the model endpoint is unreachable); 2 for a usage error
(bad option, unknown task id, invalid task file, missing API key) or an unavailable
sandbox provider or Ray cluster. A rollout in which some episodes were scored exits 0:
the other failures are in its output.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from pydantic_settings import SettingsError

from gateway.control.tasks import Task, load_builtin_tasks, load_tasks, select_tasks
from gateway.exceptions import TaskError
from gateway.settings import LOG_LEVELS, Settings
from sandbox import ProviderUnavailable, SandboxError

__all__ = ["main", "task_stats"]


def _selection(parser: argparse.ArgumentParser) -> None:
    """The task filters every command that takes tasks shares: --split and --family."""
    parser.add_argument(
        "--split", choices=["train", "validation", "test"], help="only the tasks of this split (default: all)"
    )
    parser.add_argument(
        "--family",
        dest="families",
        action="append",
        metavar="NAME",
        help="only these families' instances (comma-separated or repeated; 'none': the hand-written rows)",
    )


def _served_selection(parser: argparse.ArgumentParser) -> None:
    """--split and --family for the commands that serve (they set tasks_split and tasks_family)."""
    parser.add_argument(
        "--split", dest="tasks_split", choices=["train", "validation", "test"], help="only this split's tasks"
    )
    parser.add_argument(
        "--family",
        dest="tasks_family",
        metavar="NAMES",
        help="only these families' instances, comma-separated ('none': the hand-written rows)",
    )


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="company-gateway",
        description="An MCP gateway that lends each agent session its own simulated company, and grades it.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the gateway (MCP at /mcp, control routes)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default: a free one, printed at start)")
    serve.add_argument("--tasks", dest="tasks_file", help="JSONL file of task rows (default: built-in tasks)")
    serve.add_argument("--public-url", help="base URL clients use to reach this server")
    _served_selection(serve)
    serve.add_argument(
        "--log-level", type=str.upper, choices=LOG_LEVELS, help="DEBUG, INFO (default), WARNING or ERROR"
    )

    tasks = sub.add_parser(
        "tasks",
        help="list the tasks, or prove their graders",
        description="List the tasks ('tasks'), or prove every task's grader ('tasks prove'): reference solutions "
        "score 1.0, doing nothing 0.0, each negative control 0.0, and the generated controls as each requires.",
    )
    tasks.add_argument(
        "action",
        nargs="?",
        choices=["list", "prove", "generate"],
        default="list",
        help="list (default), prove, or generate (your own family's rows as JSONL: --module)",
    )
    tasks.add_argument("--module", help="generate: a family module (dotted name or .py file) holding FAMILY")
    tasks.add_argument("--companies", help="generate: company keys, comma-separated (default: gen-1 .. gen-11)")
    tasks.add_argument("--seeds", type=int, help="generate: instances per company (default: the family's seeds)")
    tasks.add_argument("--tasks", dest="tasks_file", help="JSONL file of task rows (default: built-in tasks)")
    tasks.add_argument("--json", action="store_true", help="one JSON object per task (prove: per policy)")
    tasks.add_argument("--stats", action="store_true", help="counts by app, exposure and number of apps")
    tasks.add_argument("--task", dest="task_ids", action="append", help="prove only this task id (repeatable)")
    tasks.add_argument(
        "--exposure",
        choices=["mcp", "cli", "http", "all", "own"],
        default="all",
        help="prove through this way in: all three (default), or each row's own ('own')",
    )
    tasks.add_argument("--jobs", type=int, default=2, help="worker processes proving at once (default 2)")
    _selection(tasks)
    tasks.add_argument("--export", action="store_true", help="print the selected rows as JSONL (what --tasks takes)")

    tools = sub.add_parser("tools", help="list every generated tool")
    tools.add_argument("--json", action="store_true", help="a JSON array: name, app, read_only, input_schema")

    demo = sub.add_parser("demo", help="serve on loopback and play a policy on every task, every way in")
    demo.add_argument("--policy", default="oracle", help="oracle (reference solutions, default) or noop")
    demo.add_argument(
        "--exposure",
        default="auto",
        choices=["mcp", "cli", "http", "all", "own", "auto"],
        help="how the apps are reached: MCP tools, shell commands in a sandbox, HTTP from a sandbox, all three, "
        "each row's own, or auto (default: hand-written tasks all three ways, family instances their own)",
    )
    demo.add_argument(
        "--sandbox-provider",
        choices=["local", "docker", "opensandbox"],
        help="who lends the sandboxes for cli and http (default: local)",
    )
    demo.add_argument("--tasks", dest="tasks_file", help="JSONL file of task rows (default: built-in tasks)")
    demo.add_argument("--task", action="append", dest="task_ids", metavar="ID", help="only this task (repeatable)")
    _selection(demo)
    demo.add_argument("--json", action="store_true", help="one JSON object per task and exposure")
    demo.add_argument(
        "--cluster",
        type=int,
        metavar="N",
        help="play over MCP against N replicas on a local Ray cluster (needs the ray extra)",
    )

    cl = sub.add_parser("cluster", help="serve N gateway replicas on Ray behind a seed router")
    cl.add_argument("--replicas", type=int, default=2, help="replicas, spread over the Ray nodes (default 2)")
    cl.add_argument("--address", help="Ray cluster to join: auto or ray://HOST:10001 (default: start a local one)")
    cl.add_argument("--host", help="address the seed router listens on (default 127.0.0.1)")
    cl.add_argument("--port", type=int, help="seed router's port (default: a free one, printed at start)")
    cl.add_argument("--replica-host", help="address each replica binds (default: its node's IP)")
    cl.add_argument(
        "--max-sessions-per-replica",
        type=int,
        dest="max_concurrent_sessions",
        help="cap on live sessions per replica; seeds beyond every cap get 503 (default: no cap)",
    )
    cl.add_argument(
        "--drain-timeout",
        type=float,
        default=30.0,
        help="seconds open sessions get to finish after SIGTERM before they are masked (default 30)",
    )
    cl.add_argument("--tasks", dest="tasks_file", help="JSONL file of task rows (default: built-in tasks)")
    _served_selection(cl)
    cl.add_argument("--log-level", type=str.upper, choices=LOG_LEVELS, help="DEBUG, INFO (default), WARNING or ERROR")

    ro = sub.add_parser("rollout", help="drive an OpenAI-compatible model through every task's tools, and grade it")
    ro.add_argument(
        "--tasks",
        action="append",
        metavar="IDS|FILE",
        help="task ids, comma-separated or repeated, or a JSONL file of task rows (default: all)",
    )
    ro.add_argument("--base-url", required=True, help="the model endpoint, e.g. http://127.0.0.1:8001/v1")
    ro.add_argument("--model", required=True, help="model name sent to the endpoint")
    ro.add_argument("--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the API key")
    ro.add_argument(
        "--api", choices=["chat", "responses"], default="chat", help="wire API: Chat Completions (default) or Responses"
    )
    ro.add_argument("--concurrency", type=int, default=4, help="episodes at once (default 4)")
    ro.add_argument("--repeats", type=int, default=1, help="episodes per task, the k of pass@k (default 1)")
    ro.add_argument("--max-steps", type=int, default=50, help="most model calls per episode (default 50)")
    ro.add_argument("--timeout", type=float, default=120.0, help="seconds one model call may take (default 120)")
    ro.add_argument("--max-retries", type=int, default=2, help="retries of a failed model call (default 2)")
    ro.add_argument("--output", help="JSONL file: one line per episode, with its trajectory")
    ro.add_argument("--gateway-url", help="a running gateway (default: start one in this process on loopback)")
    ro.add_argument("--no-progress", action="store_true", help="draw no progress bar")
    _selection(ro)

    hx = sub.add_parser("harbor-export", help="write Harbor task folders whose trials run in this gateway's sandboxes")
    hx.add_argument("dir", metavar="DIR", help="folder to write (tasks/, job.yaml, company_gateway_harbor.py)")
    hx.add_argument("--tasks", action="append", metavar="IDS", help="task ids, comma-separated or repeated")
    _selection(hx)
    hx.add_argument("--tasks-file", help="JSONL file of task rows the gateway serves (default: the built-in tasks)")
    hx.add_argument("--gateway-url", default="http://127.0.0.1:8000",
                    help="the running gateway Harbor's process reaches (default http://127.0.0.1:8000)")  # fmt: skip
    hx.add_argument("--exposure", default="cli", help="the agent's way in from its shell: cli (default) or http")
    hx.add_argument("--agent-timeout", type=float, default=600.0, help="seconds per trial for the agent (600)")

    gx = sub.add_parser("gym-export", help="write a NeMo Gym resources server that forwards to a running gateway")
    gx.add_argument("directory", metavar="DIR", help="Gym search root; writes DIR/resources_servers/company_gateway/")
    pick = gx.add_mutually_exclusive_group()
    pick.add_argument(
        "--tasks",
        action="append",
        metavar="IDS|FILE",
        help="task ids, comma-separated or repeated, or a JSONL file of task rows (default: all)",
    )
    pick.add_argument("--split", help="only the tasks of this split: train, validation or test")
    gx.add_argument(
        "--family",
        dest="families",
        action="append",
        metavar="NAME",
        help="only these families' instances (comma-separated or repeated; 'none': the hand-written rows)",
    )
    return p


def _load(args: argparse.Namespace) -> dict[str, Task]:
    """The tasks a command works on: --tasks FILE or the built-in ones, narrowed by --split and --family.

    Raises:
        TaskError: a bad file, split or family (main prints it as one line).
    """
    tasks = load_tasks(args.tasks_file) if args.tasks_file else load_builtin_tasks()
    values = getattr(args, "families", None)
    names = [n.strip() for v in values for n in v.split(",") if n.strip()] if values else None
    chosen = select_tasks(tasks, getattr(args, "split", None), names)
    if not chosen and (names is not None or getattr(args, "split", None)):
        raise TaskError("no task matches --split/--family; 'company-gateway tasks --stats' counts them by both")
    return chosen


def _cmd_tasks(args: argparse.Namespace) -> int:
    if args.action == "generate":
        return _cmd_generate(args)
    tasks = _load(args)
    if args.action == "prove":
        return _cmd_prove(args, tasks)
    if args.stats:
        print(json.dumps(task_stats(list(tasks.values())), indent=2))
        return 0
    for t in tasks.values():
        if args.export:
            print(json.dumps(t.model_dump(mode="json", exclude_defaults=True)))
        elif args.json:
            print(json.dumps({"task_id": t.id, "apps": t.apps, "exposure": t.exposure, "family": t.family,
                              "split": t.split, "tier": _tier(t), "instruction": t.instruction}))  # fmt: skip
        else:
            print(f"{t.id:44} {','.join(t.apps):28} {t.exposure:5} {t.split:10} {t.instruction[:60]}")
    return 0


def _cmd_generate(args: argparse.Namespace) -> int:
    """``tasks generate --module M``: the rows of a family of one's own, one JSON line each, linted."""
    import importlib
    import importlib.util

    from gateway.control.tasks import lint_task, parse_task
    from gateway.families import Family, instance_row
    from tools.fixtures import GENERATED, CompanyError, company

    def usage(message: str) -> int:
        print(f"company-gateway tasks generate: {message}", file=sys.stderr)
        return 2

    if not args.module:
        return usage("--module names the family module (a dotted name or a .py file holding FAMILY = Family(...))")
    if args.seeds is not None and args.seeds < 1:
        return usage(f"--seeds must be 1 or more, not {args.seeds}")
    try:
        if args.module.endswith(".py"):
            spec = importlib.util.spec_from_file_location(Path(args.module).stem, args.module)
            if spec is None or spec.loader is None:
                return usage(f"--module: cannot load {args.module!r}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(args.module)
    except (ImportError, OSError) as exc:
        return usage(f"--module: cannot import {args.module!r}: {exc}")
    family = getattr(module, "FAMILY", None)
    if not isinstance(family, Family):
        return usage(f"--module: {args.module!r} has no FAMILY = Family(...)")
    keys = list(dict.fromkeys(k.strip() for k in args.companies.split(",") if k.strip())) if args.companies else []
    keys = keys or list(GENERATED)
    try:
        companies = [company(k) for k in keys]
    except CompanyError as exc:
        return usage(f"--companies: {exc}")
    for info in companies:
        for seed in range(args.seeds or family.seeds):
            row = instance_row(family, info, seed)
            task = parse_task(row, row["id"])  # a TaskError names the row and the field (exit 2)
            lint_task(task, row["id"])
            print(json.dumps(row))
    return 0


def _tier(task: Task) -> str:
    from gateway.families import tier_of

    return task.tier or tier_of(len(task.solution), False)


def task_stats(tasks: list[Task]) -> dict[str, Any]:
    """Counts and shares of a task set: by app, width, tier, split, exposure and family.

    Returns:
        ``tasks`` and ``families`` (counts), ``by_app`` (rows enabling each app), ``by_number_of_apps``,
        ``by_tier``, ``by_split``, ``by_exposure``, ``by_family`` (instances; ``none``: hand-written),
        ``share`` (fractions of the rows: ``two_or_more_apps``, ``workspace_files`` (rows that move a file
        through the workspace, i.e. lend a sandbox for it), ``hard``).
    """
    n = len(tasks) or 1
    by_family = Counter(t.family or "none" for t in tasks)
    return {
        "tasks": len(tasks),
        "families": len([f for f in by_family if f != "none"]),
        "by_app": dict(Counter(a for t in tasks for a in t.apps).most_common()),
        "by_number_of_apps": {str(k): v for k, v in sorted(Counter(len(t.apps) for t in tasks).items())},
        "by_tier": {k: v for k in ("easy", "medium", "hard") if (v := sum(_tier(t) == k for t in tasks))},
        "by_split": {k: v for k in ("train", "validation", "test") if (v := sum(t.split == k for t in tasks))},
        "by_exposure": dict(Counter(t.exposure for t in tasks)),
        "share": {
            "two_or_more_apps": round(sum(len(t.apps) > 1 for t in tasks) / n, 3),
            "workspace_files": round(sum(bool(t.sandbox) for t in tasks) / n, 3),
            "hard": round(sum(_tier(t) == "hard" for t in tasks) / n, 3),
        },
        "by_family": dict(sorted(by_family.items())),
    }


def _pick(tasks: dict[str, Task], args: argparse.Namespace, command: str) -> dict[str, Task] | None:
    """The tasks ``--task`` names, in its order; None (the reason printed) when one is not among ``tasks``."""
    missing = [t[:120] for t in args.task_ids if t not in tasks]
    if not missing:
        return {t: tasks[t] for t in args.task_ids}
    narrowed = [f"--{name} {value}" for name in ("split", "family") if (value := getattr(args, name, None))]
    where = f" among the tasks {' and '.join(narrowed)} select" if narrowed else ""
    print(f"company-gateway {command}: unknown task ids {missing}{where}; see 'company-gateway tasks'", file=sys.stderr)
    return None


def _cmd_prove(args: argparse.Namespace, tasks: dict[str, Task]) -> int:
    """``tasks prove``: every policy of every task through each exposure; a table by family; 1 on any failure."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from gateway.runners.prove import Proof, prove_in_processes

    if args.jobs < 1:
        print("company-gateway tasks: --jobs must be 1 or more", file=sys.stderr)
        return 2
    if args.task_ids:
        picked = _pick(tasks, args, "tasks")
        if picked is None:
            return 2
        tasks = picked
    if not tasks:
        print("company-gateway tasks: no task matches --split/--family/--task", file=sys.stderr)
        return 2
    exposures = ["mcp", "cli", "http"] if args.exposure == "all" else [args.exposure]
    proofs: list[Proof] = []
    err = Console(stderr=True)
    jobs: list[tuple[str, str]]
    if args.exposure == "own":
        jobs = [(tid, str(t.exposure)) for tid, t in tasks.items()]
    else:
        jobs = [(tid, exposure) for tid in tasks for exposure in exposures]
    started = time.perf_counter()
    columns = (TextColumn("proving"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True, disable=args.json or not err.is_terminal) as bar:
        todo = bar.add_task("proving", total=len(jobs))
        for batch in prove_in_processes(list(tasks.values()), jobs, args.jobs):
            proofs.extend(batch)
            if args.json:
                for proof in batch:
                    print(json.dumps(proof.__dict__), flush=True)
            bar.advance(todo, len({(p.task_id, p.exposure) for p in batch}))
    failed = [p for p in proofs if not p.passed]
    if not args.json:
        table = Table(title="tasks prove")
        for column in ("family", "tasks", "exposures", "policies", "failed"):
            table.add_column(column, justify="left" if column == "family" else "right")
        by_family: dict[str, list[Proof]] = {}
        for proof in proofs:
            by_family.setdefault(tasks[proof.task_id].family or "(hand-written)", []).append(proof)
        for name, rows in sorted(by_family.items()):
            table.add_row(name, str(len({r.task_id for r in rows})), str(len({r.exposure for r in rows})),
                          str(len(rows)), str(sum(not r.passed for r in rows)))  # fmt: skip
        Console().print(table)
        for proof in failed:
            print(f"FAILED {proof.task_id} {proof.exposure} {proof.policy}: {proof.detail}")
        seconds = time.perf_counter() - started
        ways = "each row's own exposure" if args.exposure == "own" else f"{len(exposures)} exposure(s)"
        print(f"{len(tasks)} tasks, {len(proofs)} policies through {ways}: "
              f"{len(failed)} failed, {seconds:.1f} s")  # fmt: skip
    return 1 if failed else 0


def _cmd_tools(args: argparse.Namespace) -> int:
    from tools import COMPLETE_TASK, REGISTRY

    actions = [*REGISTRY.actions(), COMPLETE_TASK]
    if args.json:
        rows = [
            {"name": a.tool_name, "app": a.app or None, "read_only": a.read_only, "description": a.description,
             "input_schema": a.input_schema}
            for a in actions
        ]  # fmt: skip
        print(json.dumps(rows, indent=2))
        return 0
    for a in actions:
        print(f"{a.tool_name:48} {'read' if a.read_only else 'write':5} {a.summary}")
    print(f"{len(actions)} tools over {len(REGISTRY.apps)} apps")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from gateway.surfaces.asgi import create_app
    from gateway.surfaces.protocol import http_protocol

    overrides = {k: v for k, v in vars(args).items() if k in Settings.model_fields and v is not None}
    settings = Settings(**overrides)
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")
    app = create_app(settings)
    gateway = app.state.gateway
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        proxy_headers=False,  # the peer address is the socket's, never one from X-Forwarded-For
        timeout_graceful_shutdown=max(1, int(settings.shutdown_timeout_s - 2)),
        http=http_protocol(settings.read_timeout_s, settings.max_request_bytes),
    )

    class Server(uvicorn.Server):
        """Refuses new seeds the moment SIGTERM or SIGINT arrives, before waiting for open requests."""

        async def serve(self, sockets: list[socket.socket] | None = None) -> None:
            # Reach the sandbox provider first, in the server's loop: an unreachable engine is then one
            # ProviderUnavailable line (main), not a traceback from the app's startup.
            await gateway.reap()
            await super().serve(sockets)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            bound = [sock.getsockname() for server in self.servers for sock in server.sockets]
            if bound and not self.should_exit:  # the port actually taken (port 0 picks one)
                host, port = bound[0][0], bound[0][1]
                shown = f"[{host}]" if ":" in host else host
                print(f"company-gateway: serving http://{shown}:{port} (MCP at /mcp)", flush=True)

        received: int | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.received = sig
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_soon_threadsafe(gateway.begin_shutdown)
            super().handle_exit(sig, frame)

    server = Server(config)
    print(f"company-gateway: {len(gateway.tasks)} tasks", flush=True)
    try:
        server.run()  # after a clean stop, uvicorn raises the signal again: SIGTERM ends the process as SIGTERM does
    except KeyboardInterrupt:  # SIGINT, re-raised the same way: the shell's usual status, no traceback
        return 128 + signal.SIGINT
    # SIGINT raised again inside asyncio's runner can land on a main task that has just finished, and the
    # runner then returns quietly (seen under load): the status is still the shell's usual one for SIGINT.
    return 128 + signal.SIGINT if server.received == signal.SIGINT else 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from gateway.runners.demo import EpisodeResult, demo_ways, run_demo
    from gateway.surfaces.asgi import create_app

    if args.policy not in ("oracle", "noop"):
        print(f"company-gateway demo: --policy must be oracle or noop, not {args.policy!r}", file=sys.stderr)
        return 2
    tasks = _load(args)
    if args.task_ids:
        picked = _pick(tasks, args, "demo")
        if picked is None:
            return 2
        tasks = picked
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
            episodes = run_demo(app, list(tasks.values()), args.policy, exposures)
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        err = Console(stderr=True)
        total = len(tasks) if args.cluster else sum(len(demo_ways(t, exposures)) for t in tasks.values())
        columns = (TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        progress = Progress(*columns, console=err, transient=True, disable=args.json or not err.is_terminal)
        # the generator is closed here, in the loop, whatever ends the run
        async with contextlib.aclosing(episodes):
            bar = progress.add_task("playing", total=total)
            progress.start()
            try:
                await _drain(episodes, results, progress, bar)
            finally:
                progress.stop()

    async def _drain(episodes: Any, results: list[EpisodeResult], progress: Any, bar: Any) -> None:
        async for res in episodes:
            results.append(res)
            progress.advance(bar)
            if args.json:
                try:
                    print(json.dumps(res.as_json()), flush=True)
                except BrokenPipeError:  # e.g. `demo --json | head -1`: the reader has all it wanted
                    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                    raise _ReaderGone from None

    try:
        asyncio.run(go())
    except _ReaderGone:
        return 0
    want = 1.0 if args.policy == "oracle" else 0.0
    bad = [r for r in results if r.reward != want]
    if not args.json:
        _print_table(results, args.policy)
    if bad:
        print(f"{len(bad)} run(s) did not score {want}: {', '.join(r.task_id for r in bad)}", file=sys.stderr)
        return 1
    return 0


class _ReaderGone(Exception):
    """The reader of standard output left (a closed pipe): stop quietly."""


def _cmd_cluster(args: argparse.Namespace) -> int:
    from gateway.cluster.replicas import serve_cluster

    if args.replicas < 1:
        print(f"company-gateway cluster: --replicas must be 1 or more, not {args.replicas}", file=sys.stderr)
        return 2
    overrides = {k: v for k, v in vars(args).items() if k in Settings.model_fields and v is not None}
    settings = Settings(**overrides)
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        serve_cluster(args.replicas, settings, address=args.address, drain_s=args.drain_timeout,
                      replica_host=args.replica_host, announce=lambda line: print(line, flush=True))  # fmt: skip
    except ImportError as exc:
        print(f"company-gateway cluster: {exc}", file=sys.stderr)
        return 2
    return 0


def _cmd_rollout(args: argparse.Namespace) -> int:
    import httpx
    import openai
    from rich.console import Console

    from gateway.runners.rollout import RolloutConfig, rollout
    from gateway.runners.rollout_summary import print_summary, summarize

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
        args.tasks = [",".join(_load(argparse.Namespace(tasks_file=None, split=args.split, families=args.families)))]
        if args.tasks == [""]:
            return usage("no built-in task matches --split/--family")
    logging.basicConfig(level=logging.ERROR)
    # FastMCP logs each error result at ERROR; here those are the model's mistakes, already in the trajectory.
    logging.getLogger("fastmcp").setLevel(logging.CRITICAL)
    config = RolloutConfig(model=args.model, api=args.api, max_steps=args.max_steps,
                           concurrency=args.concurrency, repeats=args.repeats)  # fmt: skip
    started = time.perf_counter()

    async def go() -> list[Any]:
        async with openai.AsyncOpenAI(
            base_url=args.base_url, api_key=api_key, timeout=args.timeout, max_retries=args.max_retries
        ) as client:
            return await rollout(args.tasks, client, config, gateway_url=args.gateway_url,
                                 output=Path(args.output) if args.output else None,
                                 show_progress=not args.no_progress)  # fmt: skip

    try:
        records = asyncio.run(go())
    except httpx.HTTPError as exc:
        print(f"company-gateway rollout: cannot reach the gateway at {args.gateway_url}: {exc}", file=sys.stderr)
        return 1
    summary = summarize(records, args.repeats)
    print_summary(summary, time.perf_counter() - started, Console())
    if records and summary.masked == len(records):
        reasons = Counter(r.failure_reason or r.end_reason for r in records).most_common(1)
        print(f"company-gateway rollout: no episode could be scored (all {len(records)} masked); "
              f"most often: {reasons[0][0]}", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _cmd_harbor_export(args: argparse.Namespace) -> int:
    from gateway.runners.harbor_export import export_harbor, pick_tasks

    ids = [i.strip() for arg in args.tasks for i in arg.split(",") if i.strip()] if args.tasks else None
    try:
        chosen = pick_tasks(_load(args), ids)
        folders = export_harbor(args.dir, chosen, args.gateway_url, args.exposure, args.agent_timeout)
    except ValueError as exc:
        print(f"company-gateway harbor-export: {exc}", file=sys.stderr)
        return 2
    out = Path(args.dir)
    print(f"wrote {len(folders)} Harbor task folder(s) under {out / 'tasks'}; the job: {out / 'job.yaml'}")
    return 0


def _print_table(results: list[Any], policy: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if len(results) > 300:  # a row per run is a wall; a row per family says the same
        _print_family_table(results, policy, console)
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
    mean = sum(r.reward for r in results) / len(results) if results else 0.0
    total_ms = sum(r.ms for r in results)
    console.print(f"{len(results)} runs, mean reward {mean:.3f}, {total_ms / 1000:.1f} s in all")


def _print_family_table(results: list[Any], policy: str, console: Any) -> None:
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
    mean = sum(r.reward for r in results) / len(results)
    console.print(f"{len(results)} runs, mean reward {mean:.3f}, {sum(r.ms for r in results) / 1000:.1f} s in all")


def _setting_errors(exc: ValidationError) -> str:
    """Pydantic's errors as one line naming each option and its GATEWAY_ variable, e.g. ``--port (GATEWAY_PORT)``."""
    parts = []
    for err in exc.errors(include_url=False):
        name = str(err["loc"][0]) if err.get("loc") else "setting"
        parts.append(f"--{name.replace('_', '-')} (GATEWAY_{name.upper()}): {err['msg']}")
    return "invalid setting: " + "; ".join(parts)


def _cmd_gym_export(args: argparse.Namespace) -> int:
    """``gym-export``: write the resources server, print its folder and the number of tasks."""
    from gateway.control.tasks import select_tasks as select_families
    from gateway.runners.gym_export import export_gym, select_tasks

    tasks = select_tasks(args.tasks, args.split)
    if args.families:
        names = [n.strip() for v in args.families for n in v.split(",") if n.strip()]
        kept = select_families({t.id: t for t in tasks}, None, names)
        if not kept:
            raise TaskError("--family: no task of these families is among the tasks chosen")
        tasks = list(kept.values())
    server = export_gym(Path(args.directory), tasks)
    print(f"{server}: {len(tasks)} tasks")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    handlers = {"serve": _cmd_serve, "tasks": _cmd_tasks, "tools": _cmd_tools, "demo": _cmd_demo,
                "cluster": _cmd_cluster, "rollout": _cmd_rollout, "harbor-export": _cmd_harbor_export,
                "gym-export": _cmd_gym_export}  # fmt: skip
    try:
        return handlers[args.command](args)
    except ProviderUnavailable as exc:
        print(f"company-gateway {args.command}: the sandbox provider is unavailable: {exc}; start it, "
              "or choose another with GATEWAY_SANDBOX_PROVIDER", file=sys.stderr)  # fmt: skip
        return 2
    except (TaskError, SandboxError) as exc:
        print(f"company-gateway {args.command}: {exc}", file=sys.stderr)
        return 2
    except ValidationError as exc:
        print(f"company-gateway {args.command}: {_setting_errors(exc)}", file=sys.stderr)
        return 2
    except SettingsError as exc:
        print(f"company-gateway {args.command}: invalid setting: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `demo --json | head`: the reader left; nothing more to say
        sys.stderr.close()
        return 0
    except OSError as exc:
        print(f"company-gateway {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
