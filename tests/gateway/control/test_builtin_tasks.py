"""The built-in tasks' shape: solutions, controls, nothing met at seed, spread (proving: tests/gateway/runners)."""

import pytest

from gateway import Gateway, Settings
from gateway.control.rows import load_builtin_tasks
from gateway.control.worlds import build_world
from gateway.grading import grade
from gateway.runners.policies import run_steps, steps_for, tool_name
from sandbox.local import LocalProvider
from tests.tiers import sampled

TASKS = load_builtin_tasks(families=False)  # the hand-written rows (families: tests/gateway/tasks)


def test_every_task_has_a_solution_and_two_negative_controls():
    for task in TASKS.values():
        assert task.solution, task.id
        assert len(task.negative_controls) >= 2, task.id


@pytest.mark.parametrize("task_id", list(TASKS))
def test_no_task_passes_on_its_initial_world(task_id):
    task = TASKS[task_id]
    snap = build_world(task).snapshot()
    assert grade(task.checks, task.allowed_changes, snap, snap, None).reward == 0.0


def test_builtin_task_spread():
    from collections import Counter

    from tools import REGISTRY

    tasks = list(TASKS.values())
    assert len(tasks) >= 60
    assert sum(len(t.apps) >= 2 for t in tasks) >= 20
    assert sum(bool(t.sandbox) for t in tasks) >= 12  # rows that move a file through the workspace
    assert min(Counter(t.exposure for t in tasks).values()) >= 10
    assert {a for t in tasks for a in t.apps} == set(REGISTRY.apps)


@pytest.mark.parametrize("task_id", sampled(list(TASKS), 8, seed="copy-on-write"))
async def test_sessions_never_write_to_the_shared_initial_world(task_id, tmp_path):
    """Copy on write: after every policy of a task ran on one gateway, its shared template is untouched."""
    from gateway.control.worlds import world_template

    gw = Gateway(Settings(), TASKS, LocalProvider(tmp_path / "ws", owner="test"))
    task = TASKS[task_id]
    for policy in ["oracle", *[f"control:{c.name}" for c in task.negative_controls]]:
        seed = await gw.seed({"task_id": task_id}, "http://127.0.0.1:1/")
        session = gw.get_session(seed["session_id"])

        async def call(step_tool, args, session=session):
            return await gw.call(session, tool_name(step_tool), args, surface=task.exposure)

        await run_steps(steps_for(task, policy), call)
        await gw.verify(seed["session_id"])
    template = gw._template(task)
    from tools import World

    now = World(template.now, template.timezone, template.user, template.states).snapshot()
    assert now == template.snapshot == world_template(task).snapshot


def test_asking_for_one_family_builds_that_family_alone(monkeypatch):
    from gateway.control import rows
    from gateway.tasks import loader

    built: list[list[str]] = []
    real = loader.family_rows

    def counting(names=None, companies=None):
        built.append(list(names) if names is not None else ["<all>"])
        return real(names, companies)

    monkeypatch.setattr(loader, "family_rows", counting)
    monkeypatch.setenv("GATEWAY_ROWS_CACHE", "off")  # built here, not read from the row cache
    rows._family_tasks.cache_clear()
    try:
        tasks = rows.load_builtin_tasks(["gmail-forward-invoice"])
    finally:
        rows._family_tasks.cache_clear()
    assert built == [["gmail-forward-invoice"]]
    assert {t.family for t in tasks.values()} == {"gmail-forward-invoice"}  # no hand-written row either
    assert len(tasks) == loader.families()["gmail-forward-invoice"].seeds * 11


def test_an_unknown_family_is_refused_before_anything_is_built():
    from gateway.control.rows import load_builtin_tasks
    from gateway.exceptions import TaskError

    with pytest.raises(TaskError, match="unknown family 'no-such-family'"):
        load_builtin_tasks(["no-such-family"])
