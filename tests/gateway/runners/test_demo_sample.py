"""The demo's default sample: every hand-written task, and a fixed few instances of each family, each way in."""

from collections import Counter

import pytest

from gateway.control.rows import load_builtin_tasks
from gateway.runners.cli import main
from gateway.runners.demo import demo_sample

TASKS = load_builtin_tasks()


def test_the_sample_keeps_every_hand_written_task_and_three_instances_per_family_one_per_exposure():
    sample = demo_sample(TASKS, 3)
    assert [t for t in sample if not TASKS[t].family] == [t for t in TASKS if not TASKS[t].family]
    per_family = Counter(t.family for t in sample.values() if t.family)
    assert set(per_family) == {t.family for t in TASKS.values() if t.family}
    assert set(per_family.values()) == {3}
    for family in per_family:
        ways = sorted(t.exposure for t in sample.values() if t.family == family)
        offered = {t.exposure for t in TASKS.values() if t.family == family}
        assert set(ways) == offered, family  # each way in the family has (document work: cli and http)
        if offered == {"cli", "http", "mcp"}:
            assert ways == ["cli", "http", "mcp"], family
    assert list(sample) == [t for t in TASKS if t in sample]  # in the tasks' order


def test_the_sample_is_the_same_every_run_and_another_seed_draws_another():
    assert demo_sample(TASKS, 3) == demo_sample(TASKS, 3)
    assert list(demo_sample(TASKS, 3, seed=1)) != list(demo_sample(TASKS, 3))
    one = demo_sample(TASKS, 1)
    assert Counter(t.family for t in one.values() if t.family).most_common(1)[0][1] == 1
    small = {tid: t for tid, t in TASKS.items() if t.family == "gmail-forward-invoice"}
    assert demo_sample(small, 10_000) == small  # never more than a family has


def test_a_sample_below_one_is_refused(capsys):
    with pytest.raises(ValueError, match="per_family must be 1 or more"):
        demo_sample(TASKS, 0)
    assert main(["demo", "--sample", "0", "--family", "gmail-forward-invoice"]) == 2
    assert "--sample must be 1 or more" in capsys.readouterr().err
