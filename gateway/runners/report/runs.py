"""Reading runs (JSONL files of episode records) and the figures a report shows of them.

A run is what one ``rollout --output`` (or an adapter's episodes file, or ``regrade --json``) wrote: one
:class:`~gateway.runners.episodes.EpisodeRecord` a line. The figures:

- :func:`overview`: episodes, masked (by ``failure_kind``), mean reward of the unmasked ones, pass@k and
  pass@1 with a 95% bootstrap interval over tasks, the share of unmasked episodes that passed with a Wilson
  95% interval, end reasons, and reward by family, app, tier, split and exposure;
- :func:`task_table`: one row per task (:func:`~gateway.runners.rollout_summary.task_rows` and what the
  tasks page filters on);
- :func:`compare`: two runs task by task, and the episodes whose reward or mask changed.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gateway.runners.episodes import EpisodeRecord
from gateway.runners.rollout_summary import pass_at_k, summarize, task_rows

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "GROUPS",
    "Run",
    "bootstrap_interval",
    "compare",
    "load_run",
    "overview",
    "run_k",
    "task_table",
    "wilson_interval",
]

#: Resamples of the bootstrap interval of pass@k (percentile method, fixed seed 0, so a report is reproducible).
BOOTSTRAP_RESAMPLES = 1000

#: What the overview breaks reward down by: the record field of each (``apps`` counts an episode once per app).
GROUPS = {"family": "family", "app": "apps", "tier": "tier", "split": "split", "exposure": "exposure"}

#: z for a two-sided 95% interval.
_Z95 = 1.959964


@dataclass
class Run:
    """One run: a name (its file's stem) and its records in file order."""

    name: str
    records: list[EpisodeRecord]


def load_run(path: str | Path) -> Run:
    """Read a JSONL file of episode records; blank lines are skipped.

    Raises:
        OSError: the file cannot be read.
        ValueError: a line is not an episode record (names the file and line), or the file has none.
    """
    path = Path(path)
    records = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                records.append(EpisodeRecord.from_json(line))
            except ValueError as exc:
                raise ValueError(f"{path}:{number}: {exc}") from None
    if not records:
        raise ValueError(f"{path}: no episode records (rollout --output writes them)")
    return Run(path.stem, records)


def wilson_interval(passed: int, n: int) -> tuple[float, float] | None:
    """The Wilson score 95% interval of a proportion ``passed / n`` (Wilson 1927); None when ``n`` is 0."""
    if n == 0:
        return None
    p = passed / n
    denominator = 1 + _Z95**2 / n
    centre = (p + _Z95**2 / (2 * n)) / denominator
    half = _Z95 * math.sqrt(p * (1 - p) / n + _Z95**2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_interval(values: Sequence[float], resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float] | None:
    """A 95% percentile bootstrap interval of the mean of ``values`` (one value per task); None when empty.

    Resamples the tasks with replacement ``resamples`` times with a generator seeded 0, so the same values
    give the same interval in every process.
    """
    if not values:
        return None
    rng = random.Random(0)
    n = len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(resamples))
    return means[int(0.025 * (resamples - 1))], means[int(math.ceil(0.975 * (resamples - 1)))]


def run_k(records: Sequence[EpisodeRecord]) -> int:
    """The k of pass@k for a run: the most episodes any task has (rollout's ``--repeats``); at least 1."""
    return max(Counter(r.task_id for r in records).values(), default=1)


def _pass_figure(records: Sequence[EpisodeRecord], k: int) -> dict[str, Any]:
    """pass@k over tasks with at least k unmasked episodes, with its bootstrap interval."""
    by_task: dict[str, list[float]] = defaultdict(list)
    for r in records:
        if not r.mask_sample:
            by_task[r.task_id].append(r.reward)
    scores = [pass_at_k(len(v), sum(x >= 1.0 for x in v), k) for v in by_task.values() if len(v) >= k]
    interval = bootstrap_interval(scores)
    return {"k": k, "value": sum(scores) / len(scores) if scores else None, "tasks": len(scores),
            "low": interval[0] if interval else None, "high": interval[1] if interval else None}  # fmt: skip


def _group_rows(records: Sequence[EpisodeRecord], field: str) -> list[dict[str, Any]]:
    """Episodes, masked, mean reward (unmasked) and passed per value of ``field``, most episodes first."""
    groups: dict[str, list[EpisodeRecord]] = defaultdict(list)
    for r in records:
        value = getattr(r, field)
        for key in (value or ["(none)"]) if isinstance(value, list) else [value or "(none)"]:
            groups[str(key)].append(r)
    rows = []
    for name, rs in groups.items():
        kept = [r.reward for r in rs if not r.mask_sample]
        rows.append({"name": name, "episodes": len(rs), "masked": len(rs) - len(kept), "passed":
                     sum(x >= 1.0 for x in kept), "mean": sum(kept) / len(kept) if kept else None})  # fmt: skip
    return sorted(rows, key=lambda g: (-g["episodes"], g["name"]))


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def overview(run: Run) -> dict[str, Any]:
    """The overview page's figures of a run (JSON-ready); pass@k and its masked rule as ``rollout`` prints them."""
    records = run.records
    k = run_k(records)
    summary = summarize(records, k)
    kept = [r for r in records if not r.mask_sample]
    passed = sum(r.reward >= 1.0 for r in kept)
    interval = wilson_interval(passed, len(kept))
    calls = [c for r in records for c in r.tool_calls]
    return {
        "name": run.name,
        "episodes": summary.episodes,
        "tasks": len({r.task_id for r in records}),
        "masked": summary.masked,
        "mean_reward": summary.mean_reward,
        "pass_at_k": _pass_figure(records, k),
        "pass_at_1": _pass_figure(records, 1),
        "pass_rate": {"passed": passed, "of": len(kept), "low": interval[0] if interval else None,
                      "high": interval[1] if interval else None},  # fmt: skip
        "masked_by_kind": dict(Counter(r.failure_kind or "(none)" for r in records if r.mask_sample).most_common()),
        "end_reasons": summary.end_reasons,
        "groups": {name: _group_rows(records, field) for name, field in GROUPS.items()},
        "tool_calls": len(calls),
        "tool_errors": sum(not c.get("ok", True) for c in calls),
        "not_offered": sum(c.get("offered") is False for c in calls),
        "grader_versions": dict(Counter(r.grader_version or "(none)" for r in records).most_common()),
        "adapters": dict(Counter(r.adapter for r in records).most_common()),
        "timings": {name: _mean([r.timings.get(name) for r in records]) for name in
                    ("seed_s", "model_s", "tools_s", "verify_s", "total_s")},  # fmt: skip
        "regraded": sum(r.regrade is not None for r in records),
    }


def task_table(run: Run) -> tuple[list[dict[str, Any]], dict[str, list[int]]]:
    """One row per task (JSON-ready, in first-seen order) and each task's episode indexes in the run.

    A row: ``i`` (its index), ``task_id``, ``family``, ``tier``, ``split``, ``apps``, ``episodes``, ``masked``,
    ``mean``, ``variance``, ``passed``, ``pass_at_k``, ``end_reasons``, ``tool_errors``, ``not_offered``,
    ``steps`` (mean), ``duration_s`` (mean ``total_s``).
    """
    k = run_k(run.records)
    members: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(run.records):
        members[r.task_id].append(i)
    rows = []
    for i, row in enumerate(task_rows(run.records, k)):
        rs = [run.records[j] for j in members[row.task_id]]
        first = rs[0]
        rows.append({
            "i": i, "task_id": row.task_id, "family": first.family, "tier": first.tier, "split": first.split,
            "apps": first.apps, "episodes": row.episodes, "masked": row.masked, "mean": row.mean,
            "variance": row.variance, "passed": row.passed, "pass_at_k": row.pass_at_k,
            "end_reasons": row.end_reasons, "tool_errors": row.tool_errors,
            "not_offered": sum(c.get("offered") is False for r in rs for c in r.tool_calls),
            "steps": _mean([r.steps for r in rs]), "duration_s": _mean([r.timings.get("total_s") for r in rs]),
        })  # fmt: skip
    return rows, dict(members)


def compare(a: Run, b: Run) -> dict[str, Any]:
    """Run ``b`` against run ``a``: per task the mean rewards and their delta, and the episodes that changed.

    Tasks are those of either run (a missing side is null). Episodes pair by (task, repeat); one changed when
    its reward or its mask differs. Each changed episode gives both runs' indexes (``ia``, ``ib``).
    """
    rows_a, _ = task_table(a)
    rows_b, _ = task_table(b)
    by_a = {r["task_id"]: r for r in rows_a}
    by_b = {r["task_id"]: r for r in rows_b}
    tasks = []
    for task_id in [*by_a, *(t for t in by_b if t not in by_a)]:
        ra, rb = by_a.get(task_id), by_b.get(task_id)
        mean_a, mean_b = (ra or {}).get("mean"), (rb or {}).get("mean")
        tasks.append({"task_id": task_id, "a": mean_a, "b": mean_b,
                      "delta": None if mean_a is None or mean_b is None else mean_b - mean_a,
                      "ta": ra["i"] if ra else None, "tb": rb["i"] if rb else None})  # fmt: skip
    index_b = {(r.task_id, r.repeat): i for i, r in enumerate(b.records)}
    changed = []
    for ia, ra_ in enumerate(a.records):
        ib = index_b.get((ra_.task_id, ra_.repeat))
        if ib is None:
            continue
        rb_ = b.records[ib]
        if (ra_.reward, ra_.mask_sample) != (rb_.reward, rb_.mask_sample):
            changed.append({"task_id": ra_.task_id, "repeat": ra_.repeat, "ia": ia, "ib": ib,
                            "a": ra_.reward, "b": rb_.reward, "masked_a": ra_.mask_sample,
                            "masked_b": rb_.mask_sample})  # fmt: skip
    return {"a": a.name, "b": b.name, "tasks": tasks, "changed": changed,
            "mean_a": summarize(a.records, 1).mean_reward, "mean_b": summarize(b.records, 1).mean_reward}  # fmt: skip
