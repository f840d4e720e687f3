"""The test tiers: a fixed-seed sample of a long parametrised test runs by default, the rest in the slow tier.

Plain ``pytest`` runs the default tier (pyproject.toml's addopts leave out ``-m slow``); ``pytest -m slow``
runs the slow tier. A test too long for the default tier is marked ``@pytest.mark.slow``. A parametrised
one whose cases are each short but many keeps a sample in the default tier::

    @pytest.mark.parametrize("task_id", sampled(list(TASKS), 4, seed="parity"))

The default tier then runs 4 cases, always the same 4 for one list and seed, and the slow tier the others,
so the two tiers together run every case once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

__all__ = ["sampled"]


def sampled(values: Sequence[Any], keep: int, *, seed: str, ids: Callable[[Any], str] | None = None) -> list[Any]:
    """``values`` as pytest params: ``keep`` of them, drawn with ``seed``, unmarked; the others marked slow.

    Args:
        values: The parameter values, in their order (a tuple per case for several argnames).
        keep: How many stay in the default tier (all of them when there are no more).
        seed: Names the draw; the same values and seed keep the same cases.
        ids: The test id of a value, as ``pytest.mark.parametrize`` takes it; default pytest's own.
    """
    kept = set(random.Random(seed).sample(range(len(values)), min(keep, len(values))))
    made = []
    for i, value in enumerate(values):
        marks = () if i in kept else (pytest.mark.slow,)
        args = value if isinstance(value, tuple) else (value,)
        made.append(pytest.param(*args, marks=marks, id=ids(value) if ids else None))
    return made
