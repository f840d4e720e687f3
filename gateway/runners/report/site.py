"""Writing the report: the pages and assets copied from the package, the data as script files beside them.

A page opened from disk cannot fetch, so every piece of data is a script file that hands its value to the
page (``REPORT.put(key, value)``), and a page adds the ``<script>`` of what it needs when it needs it. The
folder :func:`build_report` writes::

    index.html tasks.html task.html episode.html compare.html report.css report.js <page>.js
    data/site.js                   the runs and the pairs to compare
    data/r<R>/overview.js          run R's figures (runs.overview)
    data/r<R>/tasks.js             its task table
    data/r<R>/t/<T>.js             task T: its row and its episodes, one line each
    data/r<R>/e/<E>.js             episode E (episode.episode_view)
    data/r<R>/x/<E>-<n>.js         the long texts of episode E, each loaded when the reader opens it
    data/cmp-<A>-<B>.js            run B against run A (runs.compare), for each run after the first

Runs are numbered in the order given, episodes in file order, tasks in first-seen order.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from gateway.runners.report.episode import FOLD_AT, episode_view
from gateway.runners.report.runs import Run, compare, overview, task_table

__all__ = ["ASSETS", "SiteStats", "build_report"]

#: The pages and assets copied from ``gateway/runners/report/static``.
ASSETS = (
    "index.html", "tasks.html", "task.html", "episode.html", "compare.html", "report.css", "report.js",
    "overview.js", "tasks.js", "task.js", "episode.js", "compare.js",
)  # fmt: skip


@dataclass
class SiteStats:
    """What a build wrote: ``files`` and their ``bytes``, ``episodes`` over all runs, ``folded`` long texts."""

    files: int = 0
    bytes: int = 0
    episodes: int = 0
    folded: int = 0


class _Writer:
    """Writes data files under ``data/`` and counts them."""

    def __init__(self, root: Path, stats: SiteStats) -> None:
        self.root, self.stats = root, stats
        self._made: set[Path] = set()

    def put(self, key: str, value: Any) -> None:
        path = self.root / "data" / f"{key}.js"
        if path.parent not in self._made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(path.parent)
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        text = f"REPORT.put({json.dumps(key)},{body});\n"
        data = text.encode()
        path.write_bytes(data)
        self.stats.files += 1
        self.stats.bytes += len(data)


def _episode_line(index: int, view: dict[str, Any]) -> dict[str, Any]:
    """An episode's line on its task's page."""
    calls = view["calls"]
    return {
        "i": index, "repeat": view["repeat"], "reward": view["reward"], "mask_sample": view["mask_sample"],
        "failure_kind": view["failure_kind"], "end_reason": view["end_reason"], "steps": view["model_steps"],
        "calls": len(calls), "tool_errors": sum(not c.get("ok", True) for c in calls),
        "not_offered": sum(c.get("offered") is False for c in calls),
        "checks_failed": sum(not c["passed"] for c in view["checks"]),
        "duration_s": (view["timings"] or {}).get("total_s"), "grader_version": view["grader_version"],
    }  # fmt: skip


def _write_run(writer: _Writer, number: int, run: Run, fold_at: int) -> None:
    prefix = f"r{number}"
    writer.put(f"{prefix}/overview", overview(run))
    rows, members = task_table(run)
    writer.put(f"{prefix}/tasks", rows)
    lines: dict[int, dict[str, Any]] = {}
    for index, record in enumerate(run.records):
        count = 0

        def fold(text: str, index: int = index) -> str:
            nonlocal count
            key = f"{prefix}/x/{index}-{count}"
            count += 1
            writer.put(key, text)
            writer.stats.folded += 1
            return key

        view = episode_view(record, index, fold=fold, fold_at=fold_at)
        view["run"] = number
        writer.put(f"{prefix}/e/{index}", view)
        lines[index] = _episode_line(index, view)
        writer.stats.episodes += 1
    for row in rows:
        indexes = sorted(members[row["task_id"]], key=lambda i: run.records[i].repeat)
        first = run.records[indexes[0]]
        instruction = (first.row or {}).get("instruction") if isinstance(first.row, dict) else None
        writer.put(f"{prefix}/t/{row['i']}", {"row": row, "instruction": instruction, "company": first.company,
                                              "episodes": [lines[i] for i in indexes]})  # fmt: skip


def build_report(runs: Sequence[Run], out: str | Path, *, fold_at: int = FOLD_AT) -> SiteStats:
    """Write the report of ``runs`` into the folder ``out`` (made if missing; files of a former report replaced).

    Args:
        runs: One or more runs; the first is compared with each of the others.
        out: The folder to write; open ``out/index.html`` in a browser.
        fold_at: Characters past which a text goes to a side file.

    Returns:
        What was written (files, bytes, episodes, folded texts).

    Raises:
        ValueError: no run given.
        OSError: the folder cannot be written.
    """
    if not runs:
        raise ValueError("no run to report; give one or more JSONL files of episode records")
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    if (root / "data").is_dir():
        shutil.rmtree(root / "data")
    stats = SiteStats()
    static = resources.files("gateway.runners.report") / "static"
    for name in ASSETS:
        data = (static / name).read_bytes()
        (root / name).write_bytes(data)
        stats.files += 1
        stats.bytes += len(data)
    writer = _Writer(root, stats)
    pairs = [[0, b] for b in range(1, len(runs))]
    writer.put("site", {"runs": [{"name": r.name, "episodes": len(r.records),
                                  "tasks": len({x.task_id for x in r.records})} for r in runs],
                        "pairs": pairs})  # fmt: skip
    for number, run in enumerate(runs):
        _write_run(writer, number, run, fold_at)
    for a, b in pairs:
        writer.put(f"cmp-{a}-{b}", compare(runs[a], runs[b]))
    return stats
