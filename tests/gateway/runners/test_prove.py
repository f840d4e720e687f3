"""Every built-in task proves its grader on every exposure.

Reference solutions 1.0, doing nothing 0.0, each negative control 0.0, and the generated
controls as each requires (list everything 0.0, claim without acting 0.0, over-reach 0.0, fair
context 1.0, extra recipient 0.0, share what you made 0.0, negated message 0.0, context in messages 1.0,
typed file 0.0 or refused, refuses everything 0.0), played in process through the exposure's surface, files
through a real workspace.
"""

import dataclasses

import pytest

from gateway import Gateway, Settings
from gateway.control.controls import CONTROL_NAMES, generate_controls
from gateway.control.rows import Task, load_builtin_tasks
from gateway.runners.prove import _play, _shared_steps, beyond, prove_task
from sandbox.local import LocalProvider
from tests.tiers import sampled
from tools.kernel.world import snapshot_state

TASKS = load_builtin_tasks(families=False)  # the hand-written rows (families: tests/gateway/tasks)
CASES = [(t, e) for t in TASKS for e in ("mcp", "cli", "http")]


@pytest.mark.parametrize(("task_id", "exposure"), sampled(CASES, 8, seed="prove", ids=lambda c: f"{c[0]}-{c[1]}"))
async def test_task_proves_its_grader(task_id, exposure, tmp_path):
    provider = LocalProvider(tmp_path / "ws", owner="test")
    gw = Gateway(Settings(), TASKS, provider)
    task = TASKS[task_id]
    proofs = await prove_task(gw, task, exposure)
    failed = [f"{p.policy}: {p.detail}" for p in proofs if not p.passed]
    assert not failed, failed
    policies = [p.policy for p in proofs]
    assert policies[0] == "oracle" and "noop" in policies
    assert [p for p in policies if p.startswith("generated:")] == [f"generated:{n}" for n in CONTROL_NAMES]
    assert len([p for p in policies if p.startswith("control:")]) == len(task.negative_controls)
    assert await provider.list_owned() == []  # every play released its sandbox
    template = gw._template(task)
    now = {app: snapshot_state(state) for app, state in template.states.items()}
    assert now == template.snapshot, "a write reached a record the template shares with every session"


def test_answer_tasks_run_list_everything_and_write_tasks_run_over_reach():
    import asyncio

    async def policies(task_id):
        gw = Gateway(Settings(), TASKS, None)
        return {p.policy: p for p in await prove_task(gw, TASKS[task_id], "mcp")}

    answer = asyncio.run(policies("dir-manager-of-owen"))
    assert answer["generated:list_everything"].detail == "1 variant(s) scored 0.0"
    assert answer["generated:over_reach"].detail == "nothing to change: the answer is the work"
    write = asyncio.run(policies("drive-share-offsite-agenda"))
    assert write["generated:over_reach"].detail.endswith("variant(s) scored 0.0")
    assert write["generated:claim_without_acting"].detail == "1 variant(s) scored 0.0"
    assert write["generated:list_everything"].detail == "no answer check: nothing is asked"


def test_beyond_counts_another_record_an_untouched_field_or_another_list_item_only():
    initial = {"a": {"c": {"1": {"x": 1, "y": 1, "who": ["p"]}}}}
    reference = {"a": {"c": {"1": {"x": 2, "y": 1, "who": ["p", "q"]}}}}
    assert not beyond(initial, reference, reference)
    assert not beyond(initial, reference, {"a": {"c": {"1": {"x": 3, "y": 1, "who": ["p", "q"]}}}})  # x reworded
    assert beyond(initial, reference, {"a": {"c": {"1": {"x": 2, "y": 9, "who": ["p", "q"]}}}})  # y untouched
    assert beyond(initial, reference, {"a": {"c": {"1": {"x": 2, "y": 1, "who": ["p", "q", "r"]}}}})
    assert beyond(initial, reference, {"a": {"c": {"1": {"x": 2, "y": 1, "who": ["q"]}}}})
    assert beyond(initial, reference, {"a": {"c": {**reference["a"]["c"], "2": {"x": 0}}}})


def test_a_reference_saving_a_path_its_answer_lacks_fails_that_proof_and_the_rest_still_run():
    import asyncio

    row = TASKS["dir-manager-of-owen"].model_dump(mode="json", exclude_none=True)
    row["solution"][0]["save"] = {"name": "manager.nickname"}
    task = Task.model_validate(row)
    proofs = asyncio.run(prove_task(Gateway(Settings(), {task.id: task}, None), task, "mcp"))
    oracle = proofs[0]
    assert oracle.policy == "oracle" and not oracle.passed
    assert "result has no 'manager.nickname'" in oracle.detail
    assert [p.policy for p in proofs[1:3]] == ["noop", "control:skip-level-manager"]


@pytest.mark.parametrize("task_id", ["slack-book-priya-request", "hd-printer-duplicate"])
async def test_an_over_reach_candidate_forked_after_the_reference_work_is_graded_as_its_replay(task_id):
    gw = Gateway(Settings(), TASKS, None)
    verdicts = []
    verify = gw.verify

    async def keep(session_id, response=None):
        verdict = await verify(session_id, response)
        verdicts.append({k: v for k, v in verdict.items() if k != "session_id"})  # reward, checks, changes, calls
        return verdict

    gw.verify = keep
    task = TASKS[task_id]
    template = gw._template(task)
    reference = await _play(gw, task, "mcp", task.solution)
    (over_reach,) = [g for g in generate_controls(task, template.snapshot, template.user, reference.variables)
                     if g.name == "over_reach"]  # fmt: skip
    shared = _shared_steps(over_reach.candidates)
    assert shared == len([s for s in task.solution if s.tool != "complete_task"]) and len(over_reach.candidates) > 5
    first = await _play(gw, task, "mcp", over_reach.candidates[0], final=True, keep=shared)  # forks its prefix
    first_verdict, prefix = verdicts[-1], first.prefix
    assert prefix is not None and prefix.calls == shared and prefix.world._counter > 0  # the work made records
    graded = 0
    for n, steps in enumerate(over_reach.candidates):
        replayed = await _play(gw, task, "mcp", steps, final=True)
        if n == 0:  # the play that kept a fork of its first steps went on as a replay
            assert dataclasses.replace(first, prefix=None) == replayed and first_verdict == verdicts[-1]
        forked = await _play(gw, task, "mcp", steps, final=True, start=prefix)
        assert forked == replayed and verdicts[-1] == verdicts[-2]
        graded += replayed.error is None and bool(verdicts[-1]["changes"])
    assert graded  # some candidates ran cleanly and changed the world: their checks and changes were compared


async def test_a_candidate_forked_in_a_sandbox_gets_the_prefix_s_workspace_and_is_graded_as_its_replay(tmp_path):
    from gateway.control.workspace import sandbox_tools
    from sandbox.local import WarmLocalProvider

    family = "drive-expense-totals-workbook"  # its work downloads a file, runs a script and uploads what it wrote
    tasks = load_builtin_tasks([family])
    task = next(t for t in tasks.values() if t.family == family and t.exposure == "http")
    settings = Settings(seed_slice_s=0.0)
    gw = Gateway(settings, tasks, WarmLocalProvider(tmp_path, owner="test", tools=sandbox_tools(settings)))
    verdicts = []
    verify = gw.verify

    async def keep(session_id, response=None):
        verdict = await verify(session_id, response)
        verdicts.append({k: v for k, v in verdict.items() if k != "session_id"})
        return verdict

    gw.verify = keep
    template = gw._template(task)
    reference = await _play(gw, task, "http", task.solution)
    (over_reach,) = [g for g in generate_controls(task, template.snapshot, template.user, reference.variables)
                     if g.name == "over_reach"]  # fmt: skip
    shared = _shared_steps(over_reach.candidates)
    assert any(s.is_shell for s in over_reach.candidates[0][:shared])  # the prefix runs a command in the workspace
    first = await _play(gw, task, "http", over_reach.candidates[0], final=True, keep=shared)
    prefix = first.prefix
    assert prefix is not None and prefix.files is not None
    assert any(rel.endswith(".xlsx") for rel, (_, data) in prefix.files.items() if data)  # what the script wrote
    graded = again = 0
    for steps in over_reach.candidates:
        replayed = await _play(gw, task, "http", steps, final=True)
        forked = await _play(gw, task, "http", steps, final=True, start=prefix)
        assert forked == replayed and verdicts[-1] == verdicts[-2]
        graded += replayed.error is None and bool(verdicts[-1]["changes"])
        again += replayed.error is None and "path" in steps[shared].args
    assert graded and again  # candidates upload the script's file once more: it is read from the forked workspace
