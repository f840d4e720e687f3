"""``company-gateway report``: runs of episode records as a static site, and/or as ATIF trajectories."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gateway.runners.cli.common import unreadable_run

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """``report``: write the site of the runs into ``-o DIR`` and/or their ATIF files into ``--atif DIR``."""
    from gateway.runners.report import build_report, load_run, write_atif

    def usage(message: str) -> int:
        print(f"company-gateway report: {message}", file=sys.stderr)
        return 2

    if not args.output and not args.atif:
        return usage("say where to write: -o DIR for the site, --atif DIR for ATIF trajectories, or both")
    started = time.perf_counter()
    runs = []
    for path in args.runs:
        try:
            runs.append(load_run(path))
        except (OSError, UnicodeDecodeError) as exc:
            return usage(unreadable_run(path, exc))
        except ValueError as exc:
            return usage(str(exc))
    if args.output:
        stats = build_report(runs, args.output)
        index = (Path(args.output) / "index.html").resolve()
        print(f"report of {stats.episodes} episodes in {len(runs)} run(s): {stats.files} files, "
              f"{stats.bytes / 1e6:.1f} MB, {time.perf_counter() - started:.1f} s; open {index.as_uri()}")
    if args.atif:
        written = [p for n, r in enumerate(runs)  # several runs: a folder each, <n>-<name> (names may repeat)
                   for p in write_atif(r.records, Path(args.atif) / (f"{n}-{r.name}" if len(runs) > 1 else ""))]
        print(f"ATIF: {len(written)} trajectories in {args.atif}")
    return 0
