"""The ``company-gateway`` command line: the parser and the dispatch, nothing heavy.

Each command lives in a module of its own (``gateway/runners/cli/<command>.py``), imported only when it
runs, so ``--help`` and a usage error cost no server, no registry and no task rows.

Exit status: 0 on success; 1 when a demo's oracle scores below 1.0 (or noop
above 0.0), when ``tasks prove`` finds a grader that fails a policy, when a rollout
cannot start (its gateway is unreachable), or when no episode of a rollout could be
scored (every one masked, e.g. the model endpoint is unreachable); 2 for a usage error
(bad option, unknown task id, invalid task file, missing API key, ``serve --port`` in use) or an unavailable
sandbox provider or Ray cluster. A rollout in which some episodes were scored exits 0:
the other failures are in its output; so does a regrade in which some episode was graded
again (1 when none could be).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

__all__ = ["LOG_LEVELS", "main"]

#: The log levels ``--log-level`` takes (the same as ``gateway.settings.LOG_LEVELS``; a test holds them equal).
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")

#: Each command's module under ``gateway.runners.cli``; its ``run(args) -> int`` does the work.
_COMMANDS = {
    "serve": "serve",
    "tasks": "tasks",
    "tools": "tools",
    "demo": "demo",
    "cluster": "cluster",
    "rollout": "rollout",
    "regrade": "regrade",
    "report": "report",
    "harbor-export": "harbor_export",
    "gym-export": "gym_export",
    "model": "model",
}


#: The commands that read the built-in task rows (and build them when the row cache does not hold them).
_LOADS_TASKS = ("serve", "tasks", "demo", "cluster", "rollout", "regrade", "harbor-export", "gym-export")


def _say_when_rows_are_built(command: str) -> None:
    """Print a line to standard error before each family's rows are built (a cold row cache: minutes)."""
    from gateway.tasks import row_cache
    from gateway.tasks.loader import families

    built = 0

    def say(name: str) -> None:
        nonlocal built
        built += 1
        where = row_cache.cache_folder()
        kept = f"kept in {where} for later runs" if where else "not kept: no cache folder"
        print(f"company-gateway {command}: building task rows, family {built} of {len(families())} ({name}); first "
              f"run after an install or a change, {kept}", file=sys.stderr, flush=True)  # fmt: skip

    row_cache.on_build[:] = [say]


def _version() -> str:
    """The installed distribution's version ("unknown" when run from a tree that was never installed)."""
    from importlib import metadata

    try:
        return metadata.version("company-gateway")
    except metadata.PackageNotFoundError:
        return "unknown"


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
        action=_JoinedNames,
        metavar="NAMES",
        help="only these families' instances, comma-separated or repeated ('none': the hand-written rows)",
    )


class _JoinedNames(argparse.Action):
    """Keeps every ``--family`` given, joined with commas (the setting's form), instead of only the last."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        before = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{before},{values}" if before else str(values))


def _http_url(value: str) -> str:
    """``--gateway-url``'s type: an http(s) URL with a host, e.g. ``http://127.0.0.1:8000``, else a usage error."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        _ = parts.port  # read for its ValueError: a port that is not a number, or out of range
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        shown = value if len(value) <= 80 else value[:80] + "..."
        raise argparse.ArgumentTypeError(f"{shown!r} is not an http(s) URL; give one such as http://127.0.0.1:8000")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="company-gateway",
        description="An MCP gateway that lends each agent session its own simulated company, and grades it.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the gateway (MCP at /mcp, control routes)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default: a free one, printed at start)")
    serve.add_argument("--tasks", dest="tasks_file", help="JSONL file of task rows (default: built-in tasks)")
    serve.add_argument("--public-url", help="base URL clients use to reach this server")
    serve.add_argument(
        "--sandbox-provider",
        choices=["local", "docker", "opensandbox", "none"],
        help="who lends the sandboxes for cli and http sessions (default: local; GATEWAY_SANDBOX_PROVIDER)",
    )
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
    tasks.add_argument(
        "--seeds", type=int, help="generate: instances per company, 1 to 1000 (default: the family's seeds)"
    )
    tasks.add_argument("--tasks", dest="tasks_file", help="JSONL file of task rows (default: built-in tasks)")
    tasks.add_argument("--json", action="store_true", help="one JSON object per task (prove: per policy)")
    tasks.add_argument(
        "--stats",
        action="store_true",
        help="counts by app, exposure, tier, split, kind, family and shape; instruction skeletons per family",
    )
    tasks.add_argument("--task", dest="task_ids", action="append", help="list or prove only this task id (repeatable)")
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

    demo = sub.add_parser(
        "demo",
        help="serve on loopback and play a policy on the hand-written tasks and a sample of each family",
        description="Serve on loopback and play a policy: every hand-written task through all three ways in, and a "
        "fixed sample of each family's instances (--sample N, default 3; --all for every one), each through its own "
        "way in. Prints a table by family and a summary; the exit status is 1 if a reference solution scores below "
        "1.0.",
    )
    demo.add_argument(
        "--policy", choices=["oracle", "noop"], default="oracle", help="oracle (reference solutions, default) or noop"
    )
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
    how_many = demo.add_mutually_exclusive_group()
    how_many.add_argument(
        "--all", action="store_true", help="every family instance (default: a fixed sample per family)"
    )
    # default None, not 3: argparse lets `--all --sample 3` through when the value is the default object itself
    how_many.add_argument("--sample", type=int, metavar="N", help="family instances per family (default 3)")
    demo.add_argument(
        "--in-flight", type=int, default=4, metavar="N", help="plays at once (default 4; results keep their order)"
    )
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
    ro.add_argument(
        "--gateway-url", type=_http_url, help="a running gateway (default: start one in this process on loopback)"
    )
    ro.add_argument("--no-progress", action="store_true", help="draw no progress bar")
    _selection(ro)

    rg = sub.add_parser(
        "regrade",
        help="grade a saved run's episodes again with today's graders, from their change sets",
        description="Grade the episode records of RUN.jsonl again from their change sets, without the model: "
        "rebuild each episode's initial world from its row, apply its change set, grade. Prints what changed per "
        "episode (reward, the checks that flipped and why) and a summary.",
    )
    rg.add_argument("run", metavar="RUN.jsonl", help="episode records, one a line (rollout --output writes them)")
    rg.add_argument(
        "--rows",
        choices=["saved", "current"],
        default="saved",
        help="grade with the row saved with each episode (default) or today's row of its task id ('current')",
    )
    rg.add_argument("--tasks", dest="tasks_file", help="with --rows current: a JSONL file of today's rows "
                    "(default: the built-in tasks)")  # fmt: skip
    rg.add_argument("--json", action="store_true", help="one episode record a line, with the new grade")

    rp = sub.add_parser(
        "report",
        help="write a static site of runs to read in a browser, or their ATIF trajectories",
        description="Write a static site (plain HTML, CSS and JavaScript, opened from disk) of one or more runs of "
        "episode records: an overview, a table of tasks, every episode's steps, checks and changes, and the first "
        "run compared with each other one. --atif writes each episode as an ATIF trajectory (Harbor's format).",
    )
    rp.add_argument("runs", nargs="+", metavar="RUN.jsonl", help="episode records, one a line (rollout --output)")
    rp.add_argument("-o", "--output", metavar="DIR", help="folder to write the site into (open DIR/index.html)")
    rp.add_argument("--atif", metavar="DIR", help="folder to write one ATIF trajectory per episode into")

    hx = sub.add_parser("harbor-export", help="write Harbor task folders whose trials run in this gateway's sandboxes")
    hx.add_argument("dir", metavar="DIR", help="folder to write (tasks/, job.yaml, company_gateway_harbor.py)")
    hx.add_argument("--tasks", action="append", metavar="IDS", help="task ids, comma-separated or repeated")
    _selection(hx)
    hx.add_argument("--tasks-file", help="JSONL file of task rows the gateway serves (default: the built-in tasks)")
    hx.add_argument("--gateway-url", type=_http_url, default="http://127.0.0.1:8000",
                    help="the running gateway Harbor's process reaches (default http://127.0.0.1:8000)")  # fmt: skip
    hx.add_argument(
        "--exposure", choices=["cli", "http"], default="cli", help="the agent's way in from its shell (default cli)"
    )
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
    pick.add_argument("--split", choices=["train", "validation", "test"], help="only the tasks of this split")
    gx.add_argument(
        "--family",
        dest="families",
        action="append",
        metavar="NAME",
        help="only these families' instances (comma-separated or repeated; 'none': the hand-written rows)",
    )

    md = sub.add_parser(
        "model",
        help="serve a scripted model (OpenAI, Anthropic, Gemini APIs) that plays a gateway's sessions, for dry runs",
        description="Serve a scripted model on loopback for dry runs of a harness or framework: it plays each "
        "session of the gateway at --gateway-url (found by the instruction in the request, through the gateway's "
        "control plane) with --policy: the reference solution (oracle), nothing (noop) or a wrong play (wrong).",
    )
    md.add_argument("--policy", choices=["oracle", "noop", "wrong"], default="oracle",
                    help="oracle (reference solutions, default), noop, or wrong (a negative control: 0.0)")  # fmt: skip
    md.add_argument("--gateway-url", type=_http_url, required=True,
                    help="the gateway whose sessions it plays, e.g. http://127.0.0.1:8000")  # fmt: skip
    md.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    md.add_argument("--port", type=int, default=8001, help="port (default 8001; 0: a free one, printed at start)")
    md.add_argument("--control-token", help="the gateway's control token, if any (default: $GATEWAY_CONTROL_TOKEN)")
    md.add_argument("--log-level", type=str.upper, choices=LOG_LEVELS, default="WARNING",
                    help="DEBUG, INFO, WARNING (default) or ERROR")  # fmt: skip
    return p


def _setting_errors(exc: Any) -> str:
    """Pydantic's errors as one line naming each option and its GATEWAY_ variable, e.g. ``--port (GATEWAY_PORT)``."""
    parts = []
    for err in exc.errors(include_url=False):
        name = str(err["loc"][0]) if err.get("loc") else "setting"
        parts.append(f"--{name.replace('_', '-')} (GATEWAY_{name.upper()}): {err['msg']}")
    return "invalid setting: " + "; ".join(parts)


def _explain(exc: BaseException) -> str | None:
    """The one line a known failure prints (exit 2), or None for one that is not ours to explain."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    from gateway.exceptions import TaskError
    from sandbox import ProviderUnavailable, SandboxError

    if isinstance(exc, ProviderUnavailable):
        return (f"the sandbox provider is unavailable: {exc}; start it, "
                "or choose another with GATEWAY_SANDBOX_PROVIDER")  # fmt: skip
    if isinstance(exc, TaskError | SandboxError):
        return str(exc)
    if isinstance(exc, ValidationError):
        return _setting_errors(exc)
    if isinstance(exc, SettingsError):
        return f"invalid setting: {exc}"
    if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
        return str(exc)
    return None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command in _LOADS_TASKS:
            _say_when_rows_are_built(args.command)
        command = importlib.import_module(f"gateway.runners.cli.{_COMMANDS[args.command]}")
        status: int = command.run(args)
        return status
    except BrokenPipeError:  # e.g. `demo --json | head`: the reader left; nothing more to say
        sys.stderr.close()
        return 0
    except Exception as exc:  # the top-level handler: known failures become one line and exit 2
        line = _explain(exc)
        if line is None:
            raise
        print(f"company-gateway {args.command}: {line}", file=sys.stderr)
        return 2
