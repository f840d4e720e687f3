"""Every built-in task proves its grader: reference 1.0, noop 0.0, each negative control 0.0."""

import pytest

from gateway import Gateway, Settings
from gateway.control.tasks import build_world, load_builtin_tasks
from gateway.grading import grade
from gateway.runners.policies import StepFailed, run_steps, steps_for, tool_name
from sandbox.local import LocalProvider
from tools import AppError
from tools.kernel.world import snapshot_state

TASKS = load_builtin_tasks()
CASES = [(t.id, "oracle") for t in TASKS.values()] + [(t.id, "noop") for t in TASKS.values()] + [
    (t.id, f"control:{c.name}") for t in TASKS.values() for c in t.negative_controls
]


async def play(task_id, policy, provider):
    gw = Gateway(Settings(), TASKS, provider)
    seed = await gw.seed({"task_id": task_id}, "http://127.0.0.1:1/")
    session = gw.get_session(seed["session_id"])
    task = TASKS[task_id]
    assert (seed["sandbox"] is not None) is (task.sandbox or task.exposure != "mcp")

    async def call(step_tool, args):
        try:
            return await gw.call(session, tool_name(step_tool), args, surface=task.exposure)
        except AppError as exc:
            raise StepFailed(str(exc)) from None

    error = None
    try:
        await run_steps(steps_for(TASKS[task_id], policy), call)
    except StepFailed as exc:
        error = str(exc)
    verdict = await gw.verify(seed["session_id"])
    template = gw._template(task)
    now = {app: snapshot_state(state) for app, state in template.states.items()}
    assert now == template.snapshot, "a write reached a record the template shares with every session"
    return verdict, error


@pytest.mark.parametrize(("task_id", "policy"), CASES, ids=[f"{t}-{p}" for t, p in CASES])
async def test_task_grader(task_id, policy, tmp_path):
    """In-process calls through the task's exposure; files go through a real workspace where the row lends one."""
    provider = LocalProvider(tmp_path / "ws", owner="test")
    verdict, error = await play(task_id, policy, provider)
    assert await provider.list_owned() == []  # verify released the sandbox
    if policy == "oracle":
        assert error is None
        assert verdict["reward"] == 1.0, verdict["checks"]
    else:
        assert error is None, "a negative control must run cleanly, or it proves nothing"
        assert verdict["reward"] == 0.0, verdict["checks"]


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


@pytest.mark.parametrize("task_id", list(TASKS))
async def test_sessions_never_write_to_the_shared_initial_world(task_id, tmp_path):
    """Copy on write: after every policy of a task ran on one gateway, its shared template is untouched."""
    from gateway.control.tasks import world_template

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
