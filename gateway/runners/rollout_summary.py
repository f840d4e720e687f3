"""The closing figures of a rollout: mean reward of unmasked episodes, pass@k, end reasons, masked count."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gateway.runners.episodes import EpisodeRecord

__all__ = ["Summary", "pass_at_k", "print_summary", "summarize"]


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


def print_summary(summary: Summary, seconds: float, console: Any = None) -> None:
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
    table.add_row("seconds", f"{seconds:.1f}")
    (console or Console()).print(table)
