"""Every family instance proves its grader (in process, through its own exposure), and a sample of at least
100 instances proves through each of the three exposures.

Reference solutions 1.0, doing nothing 0.0, each negative control 0.0 and the generated controls as
each requires: what ``company-gateway tasks prove --family ... --exposure own`` checks, over two worker
processes.
"""

import random

import pytest

from gateway.control.rows import load_builtin_tasks
from gateway.runners.prove import prove_in_processes

INSTANCES = {t.id: t for t in load_builtin_tasks().values() if t.family}
SAMPLE = 100


def _failures(pairs: list[tuple[str, str]]) -> tuple[int, list[str]]:
    proofs = [p for batch in prove_in_processes(list(INSTANCES.values()), pairs, 2) for p in batch]
    assert {(p.task_id, p.exposure) for p in proofs} == set(pairs)  # every pair was proved
    return len(proofs), [f"{p.task_id} {p.exposure} {p.policy}: {p.detail}" for p in proofs if not p.passed]


@pytest.mark.timeout(1800)
def test_every_family_instance_proves_its_grader_through_its_own_exposure():
    count, failed = _failures([(tid, t.exposure) for tid, t in INSTANCES.items()])
    assert not failed, failed[:20]
    assert count >= 4 * len(INSTANCES)  # at least oracle, noop and two controls each


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("exposure", ["mcp", "cli", "http"])
def test_a_sample_of_instances_proves_through_each_exposure(exposure):
    others = sorted(tid for tid, t in INSTANCES.items() if t.exposure != exposure)
    pairs = [(tid, exposure) for tid in random.Random(exposure).sample(others, min(SAMPLE, len(others)))]
    _, failed = _failures(pairs)
    assert not failed, failed[:20]
