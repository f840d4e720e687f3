"""The closing figures of a rollout: the run's (mean reward, pass@k, end reasons, masked) and each task's.

:func:`task_rows` gives one row per task, which ``company-gateway report`` shows too.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gateway.runners.episodes import EpisodeRecord

__all__ = ["Clock", "Summary", "TaskRow", "pass_at_k", "print_summary", "print_task_table", "summarize", "task_rows"]


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimator: ``1 - C(n-c, k) / C(n, k)``.

    From Chen et al., "Evaluating Large Language Models Trained on Code" (2021), eq. 1: the
    chance that at least one of k samples drawn without replacement from n passes, c of them passing.

    Args:
        n: Samples of the task (>= 1).
        c: Samples that passed (0 <= c <= n).
        k: Samples drawn (1 <= k <= n).

    Returns:
        A probability in [0, 1].

    Raises:
        ValueError: the counts are out of range.
    """
    if not (1 <= k <= n and 0 <= c <= n):
        raise ValueError(f"pass@k needs 1 <= k <= n and 0 <= c <= n; got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


@dataclass
class Summary:
    """The run's figures: unmasked episodes only in the mean and pass@k.

    Attributes:
        episodes: Every episode run.
        masked: Episodes with ``mask_sample`` true.
        mean_reward: Mean reward of unmasked episodes (None if all were masked).
        k: The k of pass@k (the repeats per task).
        pass_at_k: Mean over tasks with at least k unmasked episodes (None if no task has); reward 1.0 passes.
        pass_tasks: Tasks counted in ``pass_at_k``.
        end_reasons: End reason to count.
    """

    episodes: int
    masked: int
    mean_reward: float | None
    k: int
    pass_at_k: float | None
    pass_tasks: int
    end_reasons: dict[str, int]


def summarize(records: Sequence[EpisodeRecord], k: int) -> Summary:
    """Figures of a run; see :class:`Summary`."""
    kept = [r for r in records if not r.mask_sample]
    by_task: dict[str, list[EpisodeRecord]] = defaultdict(list)
    for r in kept:
        by_task[r.task_id].append(r)
    scores = [pass_at_k(len(rs), sum(r.reward >= 1.0 for r in rs), k) for rs in by_task.values() if len(rs) >= k]
    return Summary(
        episodes=len(records),
        masked=len(records) - len(kept),
        mean_reward=sum(r.reward for r in kept) / len(kept) if kept else None,
        k=k,
        pass_at_k=sum(scores) / len(scores) if scores else None,
        pass_tasks=len(scores),
        end_reasons=dict(Counter(r.end_reason or "?" for r in records).most_common()),
    )


@dataclass
class TaskRow:
    """One task's episodes.

    Attributes:
        task_id: The task.
        episodes: Its episodes (masked ones too).
        masked: Its masked episodes.
        mean: Mean reward of its unmasked episodes (None: all masked).
        variance: Population variance of those rewards (None: all masked).
        passed: Unmasked episodes with reward 1.0.
        pass_at_k: :func:`pass_at_k` of its unmasked episodes (None: fewer than k of them).
        end_reasons: End reason to count.
        tool_errors: Tool calls that returned an error.
    """

    task_id: str
    episodes: int
    masked: int
    mean: float | None
    variance: float | None
    passed: int
    pass_at_k: float | None
    end_reasons: dict[str, int]
    tool_errors: int


def task_rows(records: Sequence[EpisodeRecord], k: int) -> list[TaskRow]:
    """One :class:`TaskRow` per task, in the order tasks first appear in ``records``."""
    by_task: dict[str, list[EpisodeRecord]] = defaultdict(list)
    for r in records:
        by_task[r.task_id].append(r)
    rows = []
    for task_id, rs in by_task.items():
        rewards = [r.reward for r in rs if not r.mask_sample]
        mean = sum(rewards) / len(rewards) if rewards else None
        passed = sum(x >= 1.0 for x in rewards)
        rows.append(TaskRow(
            task_id=task_id, episodes=len(rs), masked=len(rs) - len(rewards), mean=mean,
            variance=None if mean is None else sum((x - mean) ** 2 for x in rewards) / len(rewards),
            passed=passed, pass_at_k=pass_at_k(len(rewards), passed, k) if len(rewards) >= k else None,
            end_reasons=dict(Counter(r.end_reason or "?" for r in rs).most_common()),
            tool_errors=sum(not c.get("ok", True) for r in rs for c in r.tool_calls),
        ))  # fmt: skip
    return rows


@dataclass
class Clock:
    """What a rollout's time figures measure, in seconds.

    Attributes:
        wall_s: The whole command, from its start to the summary (what a stopwatch shows).
        episodes_s: From the first seed to the last episode's end (what the progress bar shows at its end).
        episode_sum_s: The episodes' ``total_s`` added up (more than ``episodes_s`` when they run at once).
    """

    wall_s: float
    episodes_s: float
    episode_sum_s: float


def print_task_table(rows: Sequence[TaskRow], k: int, console: Any = None, limit: int = 200) -> None:
    """Print one row per task (the first ``limit``; the rest counted): episodes, masked, mean, variance, pass@k."""
    from rich.table import Table

    table = Table(title="rollout: per task")
    table.add_column("task", no_wrap=True)
    for col in ("episodes", "masked", "mean", "variance", f"pass@{k}", "tool errors"):
        table.add_column(col, justify="right")
    table.add_column("ended")

    def num(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.3f}"

    for row in rows[:limit]:
        ended = ", ".join(f"{reason} {n}" for reason, n in row.end_reasons.items())
        table.add_row(row.task_id, str(row.episodes), str(row.masked), num(row.mean), num(row.variance),
                      num(row.pass_at_k), str(row.tool_errors), ended)  # fmt: skip
    out = console or _console()
    out.print(table)
    if len(rows) > limit:
        out.print(f"... and {len(rows) - limit} more tasks (company-gateway report shows them all)")


def _console() -> Any:
    from rich.console import Console

    return Console()


def print_summary(summary: Summary, clock: Clock, console: Any = None) -> None:
    """Print the summary as a rich table (to ``console``, default stdout)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="rollout")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("episodes", str(summary.episodes))
    table.add_row("masked", str(summary.masked))
    table.add_row("mean reward (unmasked)", "n/a" if summary.mean_reward is None else f"{summary.mean_reward:.3f}")
    pass_text = "n/a" if summary.pass_at_k is None else f"{summary.pass_at_k:.3f} over {summary.pass_tasks} tasks"
    table.add_row(f"pass@{summary.k}", pass_text)
    for reason, count in summary.end_reasons.items():
        table.add_row(f"ended: {reason}", str(count))
    table.add_row("wall clock, s (whole command)", f"{clock.wall_s:.1f}")
    table.add_row("episodes, s (first seed to last end)", f"{clock.episodes_s:.1f}")
    table.add_row("episode time summed, s", f"{clock.episode_sum_s:.1f}")
    (console or Console()).print(table)
