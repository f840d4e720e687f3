"""verifiers against a live gateway: its own runner (``vf-eval``) over the ``company-gateway-env`` taskset.

verifiers 0.4.0 runs in a venv of its own (``scripts/install-verifiers.sh``); the taskset package
(``examples/verifiers/company_gateway_env``) is imported from this checkout. The model is the package's
scripted OpenAI-compatible model (``gateway.runners.model``) behind verifiers'
tool-calling ``null`` harness: it plays the reference solution of two tasks and a negative control (a wrong
answer) of a third.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import gateway
from gateway import Settings, create_app
from gateway.control.rows import Task, load_tasks
from gateway.runners.episodes import EpisodeRecord
from gateway.runners.model import ScriptedModel, TaskReferences, serve_model
from gateway.surfaces.serve import serve_in_background
from tests.frameworks.venvs import REPO, framework_env, free_port, listing, run, venv_bin

TASKS: dict[str, Task] = load_tasks(Path(gateway.__file__).parent / "tasks" / "rows" / "core.jsonl")
RIGHT = ("cal-move-ops-sync", "multi-share-talking-points-people-team")
WRONG = "dir-manager-of-owen"
PACKAGE = REPO / "examples" / "verifiers" / "company_gateway_env"
VF_TIMEOUT_S = 600.0


def vf_bin() -> Path:
    return venv_bin("verifiers-0.4.0", "install-verifiers.sh", "vf-eval")


@contextlib.asynccontextmanager
async def live_gateway() -> AsyncIterator[tuple[str, Any]]:
    app = create_app(Settings(), dict(TASKS))
    async with serve_in_background(app) as base:
        yield base, app.state.gateway


def scripted_model() -> ScriptedModel:
    """``company-gateway model``'s scripted model: the reference solutions, the negative control for WRONG."""
    return ScriptedModel(TaskReferences([TASKS[t] for t in (*RIGHT, WRONG)]), policies={WRONG: "wrong"})


def eval_argv(bin_dir: Path, tasks_file: Path, gateway_url: str, model_url: str, out: Path, *extra: str) -> list[str]:
    return [str(bin_dir / "vf-eval"), "company-gateway-env", "--env.taskset.tasks-file", str(tasks_file),
            "--env.taskset.task.gateway-url", gateway_url,
            "--env.taskset.task.episodes-file", str(out / "episodes.jsonl"),
            "--env.agent.harness.id", "null", "--env.agent.runtime.type", "subprocess",
            "--model", "scripted", "--client.base-url", model_url,
            "--client.api-key-var", "SCRIPTED_MODEL_KEY", "--num-rollouts", "1", "--no-rich", "--no-push",
            "--output-dir", str(out / "run"), *extra]  # fmt: skip


def traces(out: Path) -> list[dict[str, Any]]:
    """Each rollout's trace from the run's ``traces.jsonl`` (one episode a line, its agent traces inside)."""
    (path,) = (out / "run").glob("*/traces.jsonl")
    episodes = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [trace for episode in episodes for trace in episode["traces"]]


# ---- the package's episode record, in this venv ---------------------------------------------------


def episode_module() -> Any:
    """The package's ``episode`` module, loaded alone (it imports nothing of verifiers)."""
    spec = importlib.util.spec_from_file_location("vf_episode", PACKAGE / "company_gateway_env" / "episode.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_episode_record_has_the_gateways_shape():
    module = episode_module()
    verdict = {"reward": 1.0, "checks": [{"name": "c", "passed": True, "detail": ""}], "grader_version": "g1",
               "task": {"family": None, "split": "train", "apps": ["calendar"], "exposure": "mcp", "row_hash": "h"},
               "tool_calls": [{"tool": "company_calendar_list_events", "ok": True}], "changes": {"calendar": []}}
    record = module.episode_record("verifiers", "t1", verdict, session_id="s1", tools=["company_complete_task"],
                                   timings={"seed_s": 0.12345}, steps=3)  # fmt: skip
    expected = EpisodeRecord(task_id="t1", adapter="verifiers", session_id="s1", tools=["company_complete_task"],
                             steps=3, trajectory=None)  # fmt: skip
    expected.take_verdict(verdict)
    expected.timings["seed_s"] = 0.12345
    assert record == expected.as_dict()
    masked = module.episode_record("verifiers", "t1", verdict, failure_kind="transport_unreachable", failure_reason="x")
    assert (masked["reward"], masked["mask_sample"], masked["failure_kind"]) == (0.0, True, "transport_unreachable")


@pytest.mark.parametrize(("errors", "kind"), [
    ([{"type": "ProviderError", "message": "All connection attempts failed", "status_code": 503}], "model_unreachable"),
    ([{"type": "APIStatusError", "message": "Error code: 404", "status_code": 404}], "model_api"),
    ([{"type": "ValueError", "message": "the reply had no choices"}], "model_error"),
])  # fmt: skip
def test_a_rollout_that_failed_before_finalize_gets_its_failure_kind(errors, kind):
    assert episode_module().failure_of(errors)[0] == kind


# ---- verifiers itself, in its own venv ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_vf_eval_scores_right_play_1_and_wrong_play_0_and_leaves_no_session(tmp_path):
    bin_dir = vf_bin()
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text(listing([TASKS[t] for t in (*RIGHT, WRONG)]))
    model = scripted_model()
    env = framework_env({"PYTHONPATH": str(PACKAGE), "SCRIPTED_MODEL_KEY": "unused"})
    async with live_gateway() as (gateway_url, gw), serve_model(model) as model_url:
        argv = eval_argv(bin_dir, tasks_file, gateway_url, model_url, tmp_path)
        code, out = await run(argv, tmp_path, env, VF_TIMEOUT_S)
        assert code == 0, out[-6000:]
        assert len(gw.store) == 0  # every session verified and closed
        assert len(gw.ended) == 3
    assert model.errors == []
    by_task = {t["task"]["data"]["task_id"]: t for t in traces(tmp_path)}
    assert sorted(by_task) == sorted((*RIGHT, WRONG)), out[-4000:]
    rewards = {task: trace["rewards"]["gateway"]["score"] for task, trace in by_task.items()}
    assert rewards == {RIGHT[0]: 1.0, RIGHT[1]: 1.0, WRONG: 0.0}, out[-4000:]
    assert [by_task[t]["ok"] for t in sorted(by_task)] == [True, True, True]
    assert {t: by_task[t]["info"]["company_gateway"]["mask_sample"] for t in by_task} == dict.fromkeys(by_task, False)
    records = {r["task_id"]: r for r in map(json.loads, (tmp_path / "episodes.jsonl").read_text().splitlines())}
    assert {t: records[t]["reward"] for t in records} == rewards
    assert [records[t]["mask_sample"] for t in sorted(records)] == [False, False, False]
    assert all(c["passed"] for c in records[RIGHT[0]]["checks"])
    assert not all(c["passed"] for c in records[WRONG]["checks"])
    assert all(EpisodeRecord.from_json(r).adapter == "verifiers" for r in records.values())


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_an_unreachable_gateway_errors_the_rollout_instead_of_scoring_it(tmp_path):
    bin_dir = vf_bin()
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text(listing([TASKS[WRONG]]))
    model = scripted_model()
    env = framework_env({"PYTHONPATH": str(PACKAGE), "SCRIPTED_MODEL_KEY": "unused"})
    async with serve_model(model) as model_url:
        argv = eval_argv(bin_dir, tasks_file, f"http://127.0.0.1:{free_port()}", model_url, tmp_path)
        code, out = await run(argv, tmp_path, env, VF_TIMEOUT_S)
    (trace,) = traces(tmp_path)
    assert trace["ok"] is False, out[-4000:]
    assert "seed_session" in json.dumps(trace["errors"]) or "ConnectError" in json.dumps(trace["errors"])
    assert "gateway" not in trace["rewards"]  # never scored


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_an_unreachable_model_masks_the_rollout_and_leaves_no_session(tmp_path):
    bin_dir = vf_bin()
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text(listing([TASKS[WRONG]]))
    env = framework_env({"PYTHONPATH": str(PACKAGE), "SCRIPTED_MODEL_KEY": "unused"})
    async with live_gateway() as (gateway_url, gw):
        argv = eval_argv(bin_dir, tasks_file, gateway_url, f"http://127.0.0.1:{free_port()}/v1", tmp_path)
        code, out = await run(argv, tmp_path, env, VF_TIMEOUT_S)
        assert len(gw.store) == 0, out[-4000:]  # the session is closed, not left to its lease
    (trace,) = traces(tmp_path)
    assert trace["ok"] is False, out[-4000:]
    assert "gateway" not in trace["rewards"]  # never scored
    (record,) = map(json.loads, (tmp_path / "episodes.jsonl").read_text().splitlines())
    assert (record["mask_sample"], record["failure_kind"]) == (True, "model_unreachable"), record
    assert record["task_id"] == WRONG and record["session_id"]

