"""``company-gateway harbor-export``: Harbor task folders whose trials run in this gateway's sandboxes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gateway.runners.cli.common import load_selected

__all__ = ["run"]

def run(args: argparse.Namespace) -> int:
    """``harbor-export DIR``: one Harbor task folder per chosen task, and the job file."""
    from gateway.runners.harbor_export import export_harbor, pick_tasks

    ids = [i.strip() for arg in args.tasks for i in arg.split(",") if i.strip()] if args.tasks else None
    try:
        chosen = pick_tasks(load_selected(args), ids)
        folders = export_harbor(args.dir, chosen, args.gateway_url, args.exposure, args.agent_timeout)
    except ValueError as exc:
        print(f"company-gateway harbor-export: {exc}", file=sys.stderr)
        return 2
    out = Path(args.dir)
    print(f"wrote {len(folders)} Harbor task folder(s) under {out / 'tasks'}; the job: {out / 'job.yaml'}")
    return 0
