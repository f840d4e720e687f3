"""``company-gateway gym-export``: a NeMo Gym resources server that forwards to a running gateway."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["run"]

def run(args: argparse.Namespace) -> int:
    """``gym-export``: write the resources server, print its folder and the number of tasks."""
    from gateway.control.rows import select_tasks as select_families
    from gateway.exceptions import TaskError
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
