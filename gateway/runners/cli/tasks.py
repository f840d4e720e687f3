"""``company-gateway tasks``: list, count, export or prove the tasks, or generate a family's rows."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway.runners.cli.common import load_selected, pick, selected_facts, tier
from gateway.runners.cli.progress import Progress

if TYPE_CHECKING:
    from gateway.control.rows import Task

__all__ = ["MAX_SEEDS", "run", "task_stats"]

#: Most instances per company ``tasks generate --seeds`` makes (the built-in families make 1-10).
MAX_SEEDS = 1000
_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

def run(args: argparse.Namespace) -> int:
    """``tasks``: list, count (``--stats``), export, prove or generate task rows."""
    if args.action == "generate":
        return _cmd_generate(args)
    if stray := [f"--{name}" for name in ("module", "companies", "seeds") if getattr(args, name) is not None]:
        one = len(stray) == 1
        print(f"company-gateway tasks: {', '.join(stray)} only {'applies' if one else 'apply'} to 'tasks generate';"
              f" drop {'it' if one else 'them'} to {args.action} the tasks", file=sys.stderr)  # fmt: skip
        return 2
    if args.stats and args.action != "prove":  # counted from the row cache's facts: no row is parsed
        print(json.dumps(task_stats(selected_facts(args)), indent=2))
        return 0
    tasks = load_selected(args)
    if args.task_ids:
        picked = pick(tasks, args, "tasks")
        if picked is None:
            return 2
        tasks = picked
    if args.action == "prove":
        return _cmd_prove(args, tasks)
    for t in tasks.values():
        if args.export:
            print(json.dumps(t.model_dump(mode="json", exclude_defaults=True)))
        elif args.json:
            print(json.dumps({"task_id": t.id, "apps": t.apps, "exposure": t.exposure, "family": t.family,
                              "split": t.split, "tier": tier(t), "kind": t.kind,
                              "instruction": t.instruction}))  # fmt: skip
        else:
            said = " ".join(t.instruction.split())  # one line a task, whatever breaks the instruction has
            print(f"{t.id:44} {','.join(t.apps):28} {t.exposure:5} {t.split:10} {said[:60]}")
    return 0


def _cmd_generate(args: argparse.Namespace) -> int:
    """``tasks generate --module M``: the rows of a family of one's own, one JSON line each, linted."""
    import importlib
    import importlib.util

    from gateway.control.rows import parse_task
    from gateway.control.worlds import lint_task
    from gateway.tasks.loader import Family, instance_row
    from tools.companies import GENERATED, CompanyError, company

    def usage(message: str) -> int:
        print(f"company-gateway tasks generate: {message}", file=sys.stderr)
        return 2

    if not args.module:
        return usage("--module names the family module (a dotted name or a .py file holding FAMILY = Family(...))")
    if args.seeds is not None and not 1 <= args.seeds <= MAX_SEEDS:
        return usage(f"--seeds must be from 1 to {MAX_SEEDS:,}, not {args.seeds}")
    if not args.module.endswith(".py") and not _MODULE_NAME.fullmatch(args.module):
        return usage(
            f"--module: {args.module[:200]!r} is neither a dotted module name (such as my_families.invoices) nor a "
            ".py file"
        )
    try:
        if args.module.endswith(".py"):
            spec = importlib.util.spec_from_file_location(Path(args.module).stem, args.module)
            if spec is None or spec.loader is None:
                return usage(f"--module: cannot load {args.module!r}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(args.module)
    except (ImportError, OSError, TypeError, ValueError) as exc:  # TypeError: a relative name such as ../x
        return usage(f"--module: cannot import {args.module[:200]!r}: {exc}; give a dotted module name or a .py file")
    except SyntaxError as exc:
        return usage(f"--module: {args.module[:200]!r} is not valid Python: {exc.msg} (line {exc.lineno})")
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


def task_stats(facts: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts and shares of a task set: by app, width, tier, split, exposure, kind and family.

    Args:
        facts: One dict per task (``gateway.control.rows.builtin_facts`` or ``stats_fact``): ``family``, ``split``,
            ``tier``, ``kind``, ``apps``, ``exposure``, ``instruction``, ``sandbox``.

    Returns:
        ``tasks`` and ``families`` (counts), ``by_app`` (rows enabling each app), ``by_number_of_apps``,
        ``by_tier``, ``by_split``, ``by_exposure``, ``by_family`` (instances; ``none``: hand-written),
        ``by_kind`` (instances of each kind of work: ``task``, ``refusal``, ``document``, ``long_horizon``,
        ``ambiguity``; kinds with none left out), ``by_tier_and_kind`` (``{kind: {tier: share of that kind's
        instances}}``, shares rounded to 3 places), ``families_by_kind`` (families of each kind),
        ``share`` (fractions of the rows: ``two_or_more_apps``, ``workspace_files`` (rows that move a file
        through the workspace, i.e. lend a sandbox for it), ``hard``), ``skeletons_by_family`` (distinct
        instruction skeletons: names, numbers, dates and codes masked; :mod:`gateway.runners.skeletons`),
        ``shapes_by_family`` (the scenario shapes a built-in family's module names in ``SHAPES``, which its
        seeds pick among; families of a ``--tasks`` file of one's own are left out).
    """
    from gateway.control.rows import KINDS
    from gateway.runners.skeletons import skeleton_counts

    n = len(facts) or 1
    tiers = ("easy", "medium", "hard")
    by_family = Counter(f["family"] or "none" for f in facts)
    kinds: dict[str, set[str]] = {}
    for f in facts:
        if f["family"]:
            kinds.setdefault(f["kind"], set()).add(f["family"])
    by_kind = {k: v for k in KINDS if (v := sum(f["kind"] == k for f in facts))}
    tier_kind = Counter((f["kind"], f["tier"]) for f in facts)
    return {
        "tasks": len(facts),
        "families": len([f for f in by_family if f != "none"]),
        "by_app": dict(Counter(a for f in facts for a in f["apps"]).most_common()),
        "by_number_of_apps": {str(k): v for k, v in sorted(Counter(len(f["apps"]) for f in facts).items())},
        "by_tier": {k: v for k in tiers if (v := sum(f["tier"] == k for f in facts))},
        "by_split": {k: v for k in ("train", "validation", "test") if (v := sum(f["split"] == k for f in facts))},
        "by_exposure": dict(Counter(f["exposure"] for f in facts)),
        "by_kind": by_kind,
        "by_tier_and_kind": {
            k: {t: round(tier_kind[k, t] / total, 3) for t in tiers if tier_kind[k, t]} for k, total in by_kind.items()
        },
        "families_by_kind": {k: v for k in KINDS if (v := len(kinds.get(k, set())))},
        "share": {
            "two_or_more_apps": round(sum(len(f["apps"]) > 1 for f in facts) / n, 3),
            "workspace_files": round(sum(bool(f["sandbox"]) for f in facts) / n, 3),
            "hard": round(sum(f["tier"] == "hard" for f in facts) / n, 3),
        },
        "by_family": dict(sorted(by_family.items())),
        "skeletons_by_family": skeleton_counts((f["family"] or "none", f["instruction"]) for f in facts),
        "shapes_by_family": _shapes(sorted(f for f in by_family if f != "none")),
    }


def _shapes(names: list[str]) -> dict[str, int]:
    """How many scenario shapes each built-in family of ``names`` names (its module's ``SHAPES``)."""
    import importlib

    from gateway.tasks.loader import families

    known = families()
    return {n: len(getattr(importlib.import_module(known[n].build.__module__), "SHAPES", ())) for n in names
            if n in known}  # fmt: skip


def _cmd_prove(args: argparse.Namespace, tasks: dict[str, Task]) -> int:
    """``tasks prove``: every policy of every task through each exposure; a table by family; 1 on any failure."""
    from rich.console import Console
    from rich.table import Table

    from gateway.runners.prove import Proof, prove_in_processes

    if args.jobs < 1:
        print("company-gateway tasks: --jobs must be 1 or more", file=sys.stderr)
        return 2
    if not tasks:
        print("company-gateway tasks: no task matches --split/--family/--task", file=sys.stderr)
        return 2
    exposures = ["mcp", "cli", "http"] if args.exposure == "all" else [args.exposure]
    proofs: list[Proof] = []
    jobs: list[tuple[str, str]]
    if args.exposure == "own":
        jobs = [(tid, str(t.exposure)) for tid, t in tasks.items()]
    else:
        # a row with shell steps (document work) needs a sandbox: never proved through mcp by "all"
        jobs = [(tid, e) for tid, t in tasks.items() for e in exposures if e != "mcp" or not t.needs_shell]
    started = time.perf_counter()
    with Progress("proving", len(jobs), quiet=args.json) as progress:
        for batch in prove_in_processes(list(tasks.values()), jobs, args.jobs):
            proofs.extend(batch)
            if args.json:
                for proof in batch:
                    print(json.dumps(proof.__dict__), flush=True)
            progress.advance(len({(p.task_id, p.exposure) for p in batch}))
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
        Console(width=None if sys.stdout.isatty() else 160).print(table)
        for proof in failed:
            print(f"FAILED {proof.task_id} {proof.exposure} {proof.policy}: {proof.detail}")
        seconds = time.perf_counter() - started
        ways = "each row's own exposure" if args.exposure == "own" else f"{len(exposures)} exposure(s)"
        print(f"{len(tasks)} tasks, {len(jobs)} task-exposure pairs, {len(proofs)} policies through {ways} "
              f"over {args.jobs} process(es): {len(failed)} failed, {seconds:.1f} s "
              f"({len(jobs) / max(seconds, 1e-9):.1f} pairs/s)")  # fmt: skip
    return 1 if failed else 0
