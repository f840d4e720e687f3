"""``company-gateway regrade``: grade a saved run's episodes again from their change sets (no model, no replay)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from gateway.runners.cli.common import unreadable_run

__all__ = ["run"]


def _passed(value: bool | None) -> str:
    return "absent" if value is None else "passed" if value else "failed"


def _mean(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _report(pairs: list[tuple[Any, Any]], summary: Any) -> None:
    """Per episode what changed (nothing for an unchanged one), then the figures."""
    for old, new in pairs:
        info = new.regrade or {}
        label = f"{new.task_id} #{new.repeat}"
        if info.get("error"):
            print(f"{label}: {info['error']}")
            continue
        if not info.get("flipped") and new.reward == old.reward:
            continue
        notes = [n for n, on in (("row changed", info.get("row_changed")), ("masked", new.mask_sample)) if on]
        print(f"{label}: reward {old.reward:g} -> {new.reward:g}" + (f" ({', '.join(notes)})" if notes else ""))
        for flip in info.get("flipped", []):
            print(f"  {flip['name']}: {_passed(flip['was'])} -> {_passed(flip['now'])}: {flip['detail']}")
    if summary.rows_changed:
        print(f"rows changed since the run: {', '.join(summary.rows_changed)}")
    print(
        f"{summary.episodes} episode(s): {summary.regraded} regraded ({summary.changed} changed, "
        f"{summary.regraded - summary.changed} unchanged), {summary.cannot} cannot be regraded, {summary.masked} "
        f"masked; grader version changed for {summary.versions_changed}; mean reward (unmasked) "
        f"{_mean(summary.old_mean)} -> {_mean(summary.new_mean)}"
    )


def run(args: argparse.Namespace) -> int:
    """``regrade``: read the records, grade each again, print what changed (or the records with ``--json``)."""
    from gateway.control.rows import load_builtin_tasks, load_tasks
    from gateway.runners.regrade import Regrader, summarize_regrade
    from gateway.runners.report.runs import load_run
    from gateway.tasks.loader import families

    def usage(message: str) -> int:
        print(f"company-gateway regrade: {message}", file=sys.stderr)
        return 2

    if args.tasks_file and args.rows != "current":
        return usage("--tasks names today's rows: give it with --rows current")
    try:
        records = load_run(args.run).records
    except (OSError, UnicodeDecodeError) as exc:
        return usage(unreadable_run(args.run, exc))
    except ValueError as exc:  # a line that is no episode record, or no record at all
        return usage(str(exc)[:400])
    current = None
    if args.rows == "current":
        if args.tasks_file:
            current = load_tasks(args.tasks_file)
        else:
            wanted = {r.family or "none" for r in records} & {*families(), "none"}
            current = load_builtin_tasks(sorted(wanted)) if wanted else {}
    regrader = Regrader(args.rows, current)
    pairs = [(record, regrader.regrade(record)) for record in records]
    summary = summarize_regrade(pairs)
    if args.json:
        for _, new in pairs:
            print(new.to_json())
    else:
        _report(pairs, summary)
    if records and summary.regraded == 0:
        print(f"company-gateway regrade: no episode could be regraded (all {len(records)})", file=sys.stderr)
        return 1
    return 0
