"""company-gateway rollout: a scripted model driven through real MCP sessions, verified, summarised."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
from collections.abc import AsyncIterator, Iterator

import anyio
import httpx
import openai
import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from gateway import Settings, create_app
from gateway.control.rows import load_builtin_tasks, row_hash
from gateway.grading.version import grader_version
from gateway.runners.cli import main
from gateway.runners.rollout import (
    SYSTEM_PROMPT,
    EpisodeRecord,
    RolloutConfig,
    TaskSpec,
    run_episode,
    run_rollout,
)
from gateway.runners.rollout_summary import pass_at_k, summarize, task_rows
from gateway.surfaces.serve import serve_in_background
from tests.gateway.fake_model import FakeModel, fake_in_thread, serve_in_thread

TASKS = load_builtin_tasks(families=False)  # the hand-written rows (families: tests/gateway/tasks)
FIELDS = {"format", "adapter", "task_id", "repeat", "session_id", "family", "company", "seed", "split", "tier",
          "apps", "exposure", "row_hash", "row", "grader_version", "reward", "mask_sample", "failure_kind",
          "failure_reason", "checks", "end_reason", "steps", "timings", "tools", "tool_calls", "changes", "trajectory",
          "regrade"}  # fmt: skip


def expected_steps(task_id: str) -> int:
    """Model calls of the oracle script: the solution, plus a final company_complete_task if it lacks one."""
    solution = TASKS[task_id].solution
    return len(solution) + (solution[-1].tool != "complete_task")


@pytest.fixture(scope="module")
def fake() -> FakeModel:
    return FakeModel(TASKS, hang_s=10.0)


@pytest.fixture(scope="module")
def model_url(fake: FakeModel) -> Iterator[str]:
    with fake_in_thread(fake) as url:
        yield url


@pytest.fixture(scope="module")
def gateway_url() -> Iterator[str]:
    """One gateway for the module, so each task's world is built once."""
    with serve_in_thread(create_app(Settings(), TASKS)) as url:
        yield url


@pytest.fixture(autouse=True)
def _fresh_script(fake: FakeModel) -> None:
    fake.modes.clear()
    fake.requests.clear()


@contextlib.asynccontextmanager
async def model(url: str, timeout: float = 20.0, retries: int = 2) -> AsyncIterator[openai.AsyncOpenAI]:
    async with openai.AsyncOpenAI(base_url=url, api_key="test-key", timeout=timeout, max_retries=retries) as client:
        yield client


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- whole episodes ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(300)  # grows with the built-in task list (about 0.5 s of CPU per task)
async def test_every_builtin_task_completes_with_reward_one_through_chat_completions(gateway_url, model_url, fake):
    async with model(model_url) as client:
        config = RolloutConfig(model="oracle", api="chat", concurrency=8)
        records = await run_rollout(gateway_url, [TaskSpec(t) for t in TASKS], client, config)
    got = [(r.task_id, r.end_reason, r.reward, r.mask_sample, r.steps) for r in records]
    assert got == [(t, "completed", 1.0, False, expected_steps(t)) for t in TASKS], [
        (r.task_id, r.failure_reason, r.checks) for r in records if r.mask_sample or r.reward != 1.0
    ]
    for r in records:
        assert r.trajectory[:2] == [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": TASKS[r.task_id].instruction},
        ]
        assert [m["role"] for m in r.trajectory[2:]] == ["assistant", "tool"] * r.steps
        assert r.trajectory[-2]["tool_calls"][0]["function"]["name"] == "company_complete_task"
        assert json.loads(r.trajectory[-1]["content"])["done"] is True
    # one model call per step, each with the whole conversation so far
    instruction = TASKS["cal-move-ops-sync"].instruction
    sizes = [len(b["messages"]) for api, b in fake.requests if b["messages"][1]["content"] == instruction]
    assert sizes == [2 + 2 * i for i in range(expected_steps("cal-move-ops-sync"))]
    tools = next(b["tools"] for _, b in fake.requests if b["messages"][1]["content"] == instruction)
    assert {t["function"]["name"] for t in tools} >= {"company_calendar_update_event", "company_complete_task"}
    assert all(set(t["function"]) == {"name", "description", "parameters"} for t in tools)


async def test_a_few_tasks_complete_through_the_responses_api(gateway_url, model_url, fake):
    ids = ["dir-finance-team-size", "drive-archive-reading-list", "multi-book-close-checkin"]
    async with model(model_url) as client:
        records = await run_rollout(gateway_url, [TaskSpec(t) for t in ids], client,
                                    RolloutConfig(model="oracle", api="responses"))  # fmt: skip
    assert [(r.end_reason, r.reward, r.steps) for r in records] == [("completed", 1.0, expected_steps(t)) for t in ids]
    kinds = [i.get("type", i.get("role")) for i in records[0].trajectory]
    assert kinds == ["system", "user", *["function_call", "function_call_output"] * records[0].steps]
    assert all(api == "responses" and "function" not in b["tools"][0] for api, b in fake.requests)


async def test_a_reply_without_a_tool_call_ends_the_episode_with_reward_zero(gateway_url, model_url):
    async with model(model_url) as client:
        [r] = await run_rollout(gateway_url, [TaskSpec("cal-move-ops-sync")], client,
                                RolloutConfig(model="no_tool_call"))  # fmt: skip
    assert (r.end_reason, r.reward, r.mask_sample, r.steps) == ("no_tool_call", 0.0, False, 1)
    assert r.trajectory[-1] == {"role": "assistant", "content": "I would rather not use the tools."}
    assert r.last_text == "I would rather not use the tools."
    assert r.checks and not all(c["passed"] for c in r.checks)


async def test_a_call_of_a_tool_not_offered_is_recorded_with_its_outcome(gateway_url, model_url, fake):
    fake.modes["dir-manager-of-owen"] = "unoffered"
    async with model(model_url) as client:
        [r] = await run_rollout(gateway_url, [TaskSpec("dir-manager-of-owen")], client, RolloutConfig(model="oracle"))
    assert r.tool_calls[0]["tool"] == "company_payroll_raise_salary" and "company_payroll_raise_salary" not in r.tools
    assert (r.tool_calls[0]["ok"], r.tool_calls[0]["offered"]) == (False, False)
    assert all(c["offered"] for c in r.tool_calls[1:]) and r.tool_calls[-1]["ok"]
    assert (r.end_reason, r.reward, r.mask_sample) == ("completed", 1.0, False)


def test_task_rows_give_each_tasks_mean_variance_and_pass_at_k():
    def rec(task, reward, masked=False, calls=()):
        return EpisodeRecord(task, 0, reward=reward, mask_sample=masked, end_reason="completed",
                             tool_calls=[{"tool": "t", "ok": ok} for ok in calls])  # fmt: skip

    rows = task_rows([rec("a", 1.0, calls=(True, False)), rec("a", 0.0), rec("b", 1.0, masked=True),
                      rec("a", 1.0, calls=(False,))], 2)  # fmt: skip
    a, b = rows
    assert (a.task_id, a.episodes, a.masked, a.passed, a.tool_errors) == ("a", 3, 0, 2, 2)
    assert (a.mean, a.variance, a.pass_at_k) == (pytest.approx(2 / 3), pytest.approx(2 / 9), pytest.approx(1.0))
    assert (b.episodes, b.masked, b.mean, b.variance, b.pass_at_k) == (1, 1, None, None, None)


async def test_max_steps_ends_the_episode_after_that_many_model_calls(gateway_url, model_url, fake):
    async with model(model_url) as client:
        [r] = await run_rollout(gateway_url, [TaskSpec("dir-manager-of-owen")], client,
                                RolloutConfig(model="loop", max_steps=3))  # fmt: skip
    assert (r.end_reason, r.steps, r.reward, r.mask_sample) == ("max_steps", 3, 0.0, False)
    assert len(fake.requests) == 3


async def test_a_tool_error_goes_back_to_the_model_as_the_tools_output(gateway_url, model_url, fake):
    fake.modes["cal-move-ops-sync"] = "stumble"
    async with model(model_url) as client:
        [r] = await run_rollout(gateway_url, [TaskSpec("cal-move-ops-sync")], client, RolloutConfig(model="oracle"))
    assert (r.end_reason, r.reward, r.steps) == ("completed", 1.0, expected_steps("cal-move-ops-sync") + 1)
    assert r.trajectory[3]["role"] == "tool" and "no_such_parameter" in r.trajectory[3]["content"]


@pytest.mark.slow
async def test_model_endpoint_failures_mask_only_their_own_episode(gateway_url, model_url, fake):
    failing = {"dir-manager-of-owen": ("500", "HTTP 500"), "cal-move-ops-sync": ("timeout", "timed out"),
               "dir-finance-team-size": ("bad_json", "malformed JSON"),
               "cal-accept-atlas-review": ("not_json", "unexpected shape"),
               "drive-archive-reading-list": ("500@1", "HTTP 500")}  # fmt: skip
    fake.modes.update({t: mode for t, (mode, _) in failing.items()})
    ids = [*failing, "cal-decline-contoso-review"]
    async with model(model_url, timeout=3.0, retries=0) as client:
        records = await run_rollout(gateway_url, [TaskSpec(t) for t in ids], client, RolloutConfig(model="oracle"))
    by_id = {r.task_id: r for r in records}
    for task_id, (_, words) in failing.items():
        r = by_id[task_id]
        assert (r.end_reason, r.mask_sample, r.failure_kind) == ("model_error", True, "model_error"), task_id
        assert words in r.failure_reason, (task_id, r.failure_reason)
        assert r.checks, "the session was still verified"
    assert by_id["drive-archive-reading-list"].steps == 1
    ok = by_id["cal-decline-contoso-review"]
    assert (ok.end_reason, ok.reward, ok.mask_sample) == ("completed", 1.0, False)
    summary = summarize(records, 1)
    assert (summary.masked, summary.mean_reward, summary.end_reasons) == (5, 1.0, {"model_error": 5, "completed": 1})


async def test_a_refused_connection_masks_every_episode_and_the_run_still_finishes(gateway_url):
    async with model(f"http://127.0.0.1:{closed_port()}/v1", retries=0) as client:
        records = await run_rollout(gateway_url, [TaskSpec("dir-manager-of-owen"), TaskSpec("cal-move-ops-sync")],
                                    client, RolloutConfig(model="oracle"))  # fmt: skip
    assert [(r.end_reason, r.mask_sample, r.steps) for r in records] == [("model_error", True, 0)] * 2
    assert all("could not reach the model endpoint" in r.failure_reason for r in records)
    assert summarize(records, 1).mean_reward is None


async def test_an_mcp_transport_failure_ends_the_episode_masked_and_it_is_still_verified(model_url):
    verified: list[dict] = []

    async def seed(request):
        return JSONResponse({"session_id": "s_1", "instruction": TASKS["cal-move-ops-sync"].instruction,
                             "mcp": {"url": f"http://127.0.0.1:{closed_port()}/mcp", "headers": {}}})  # fmt: skip

    async def verify(request):
        verified.append(await request.json())
        return JSONResponse({"reward": 0.0, "checks": [], "mask_sample": False})

    async def close(request):
        return JSONResponse({"closed": True})

    routes = [Route("/seed_session", seed, methods=["POST"]), Route("/verify", verify, methods=["POST"]),
              Route("/close_session", close, methods=["POST"])]  # fmt: skip
    async with (
        serve_in_background(Starlette(routes=routes)) as base,
        model(model_url) as client,
        httpx.AsyncClient(base_url=base) as control,
    ):
        r = await run_episode(control, client, RolloutConfig(model="oracle"), TaskSpec("cal-move-ops-sync"))
    assert (r.end_reason, r.mask_sample, r.steps, r.failure_kind) == ("tool_error", True, 0, "tool_error")
    assert r.failure_reason.startswith("MCP transport failed")
    assert verified == [{"session_id": "s_1", "response": ""}]


# ---- figures -----------------------------------------------------------------------------------


def test_pass_at_k_is_the_unbiased_estimator():
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert pass_at_k(3, 1, 2) == pytest.approx(2 / 3)  # 1 - C(2,2)/C(3,2)
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)  # 1 - C(7,5)/C(10,5)
    assert pass_at_k(4, 0, 4) == 0.0
    assert pass_at_k(4, 1, 4) == 1.0
    with pytest.raises(ValueError, match="k <= n"):
        pass_at_k(2, 1, 3)


def test_summary_leaves_masked_episodes_out_of_the_mean_and_pass_at_k():
    def rec(task, reward, masked=False, end="completed"):
        return EpisodeRecord(task, 0, reward=reward, mask_sample=masked, end_reason=end)

    records = [rec("a", 1.0), rec("a", 0.0), rec("b", 0.0), rec("b", 0.0), rec("c", 1.0),
               rec("c", 1.0, masked=True, end="model_error")]  # fmt: skip
    s = summarize(records, 2)
    assert (s.episodes, s.masked, s.mean_reward) == (6, 1, pytest.approx(2 / 5))
    assert (s.pass_at_k, s.pass_tasks) == (0.5, 2)  # a: 1.0, b: 0.0; c has one unmasked episode, fewer than k
    assert s.end_reasons == {"completed": 5, "model_error": 1}


def test_the_system_prompt_uses_plain_company_words():
    banned = ["gateway", "episode", "reward", "grade", "training", "rollout", "benchmark", "verify", "mask"]
    assert not [w for w in banned if re.search(w, SYSTEM_PROMPT, re.IGNORECASE)]


# ---- the command -------------------------------------------------------------------------------


def test_rollout_command_writes_one_full_line_per_episode(tmp_path, capsys, monkeypatch, gateway_url, model_url):
    monkeypatch.setenv("FAKE_KEY", "k")
    out = tmp_path / "episodes.jsonl"
    argv = ["rollout", "--tasks", "dir-manager-of-owen,cal-move-ops-sync", "--tasks", "dir-finance-team-size",
            "--repeats", "2", "--base-url", model_url, "--model", "oracle", "--api-key-env", "FAKE_KEY",
            "--gateway-url", gateway_url, "--output", str(out), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted((x["task_id"], x["repeat"]) for x in lines) == sorted(
        (t, r) for t in ("dir-manager-of-owen", "cal-move-ops-sync", "dir-finance-team-size") for r in (0, 1)
    )
    for x in lines:
        assert set(x) == FIELDS
        assert set(x["timings"]) == {"seed_s", "model_s", "tools_s", "verify_s", "total_s"}
        assert x["timings"]["total_s"] >= x["timings"]["model_s"] + x["timings"]["seed_s"] > 0
        assert (x["reward"], x["mask_sample"], x["end_reason"], x["failure_reason"]) == (1.0, False, "completed", None)
        assert x["trajectory"][1]["content"] == TASKS[x["task_id"]].instruction
        task = TASKS[x["task_id"]]
        assert (x["row_hash"], x["grader_version"]) == (row_hash(task), grader_version(task.checks,
                                                                                      task.allowed_changes))
        assert x["row"] == task.model_dump(mode="json", exclude_defaults=True) and x["apps"] == task.apps
        assert "company_complete_task" in x["tools"] and len(x["tool_calls"]) == x["steps"]
        last = x["tool_calls"][-1]
        assert (last["tool"], last["ok"], last["offered"]) == ("company_complete_task", True, True) and last["s"] >= 0
        assert x["changes"]["complete"] is True and x["changes"]["said"]["summary"]
        record = EpisodeRecord.from_json(x)
        assert record.as_dict() == x
    printed = capsys.readouterr().out
    assert re.search(r"episodes\s*│\s*6", printed) and re.search(r"pass@2\s*│\s*1\.000 over 3 tasks", printed)
    # one row per task: episodes, masked, mean, variance, pass@2, tool errors, end reasons
    assert re.search(r"dir-finance-team-size\s*│\s*2\s*│\s*0\s*│\s*1\.000\s*│\s*0\.000\s*│\s*1\.000\s*│\s*0\s*│"
                     r"\s*completed 2", printed)  # fmt: skip
    wall = float(re.search(r"wall clock, s \(whole command\)\s*│\s*([\d.]+)", printed).group(1))
    busy = float(re.search(r"episodes, s \(first seed to last end\)\s*│\s*([\d.]+)", printed).group(1))
    summed = float(re.search(r"episode time summed, s\s*│\s*([\d.]+)", printed).group(1))
    assert wall >= busy > 0
    assert summed == pytest.approx(sum(x["timings"]["total_s"] for x in lines), abs=0.06)


def test_rollout_command_serves_a_task_file_itself_when_no_gateway_is_given(tmp_path, monkeypatch, model_url):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    row = TASKS["dir-manager-of-owen"].model_dump(mode="json", exclude_none=True)
    tasks_file = tmp_path / "mine.jsonl"
    tasks_file.write_text(json.dumps({**row, "id": "my-copy"}) + "\n")
    out = tmp_path / "out.jsonl"
    argv = ["rollout", "--tasks", str(tasks_file), "--base-url", model_url, "--model", "oracle",
            "--output", str(out), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    [line] = [json.loads(x) for x in out.read_text().splitlines()]
    assert (line["task_id"], line["end_reason"], line["reward"]) == ("my-copy", "completed", 1.0)


def test_rollout_usage_errors_exit_2_with_a_clear_message(capsys, monkeypatch):
    base = ["rollout", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--no-progress"]
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    assert main([*base, "--api-key-env", "NO_SUCH_KEY_VAR"]) == 2
    assert "NO_SUCH_KEY_VAR" in capsys.readouterr().err
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert main([*base, "--tasks", "no-such-task"]) == 2
    assert "no-such-task" in capsys.readouterr().err
    assert main([*base, "--concurrency", "0"]) == 2
    assert "--concurrency" in capsys.readouterr().err
    assert main(["rollout", "--base-url", "notaurl", "--model", "m", "--no-progress"]) == 2
    assert "--base-url must be an http(s) URL" in capsys.readouterr().err
    assert main([*base, "--tasks", "missing-file.jsonl"]) == 2
    for bad in (["--api", "grpc"], ["--repeats", "x"]):
        with pytest.raises(SystemExit) as exc:
            main([*base, *bad])
        assert exc.value.code == 2
    with pytest.raises(SystemExit):
        main(["rollout", "--base-url", "http://127.0.0.1:9/v1"])  # --model is required
    assert main([*base, "--gateway-url", f"http://127.0.0.1:{closed_port()}"]) == 1
    assert "cannot reach the gateway" in capsys.readouterr().err


def test_rollout_command_exits_1_when_no_episode_could_be_scored(tmp_path, capsys, monkeypatch, gateway_url):
    monkeypatch.setenv("FAKE_KEY", "k")
    out = tmp_path / "episodes.jsonl"
    argv = ["rollout", "--tasks", "dir-manager-of-owen,cal-move-ops-sync", "--model", "oracle",
            "--base-url", f"http://127.0.0.1:{closed_port()}/v1", "--max-retries", "0", "--api-key-env", "FAKE_KEY",
            "--gateway-url", gateway_url, "--output", str(out), "--no-progress"]  # fmt: skip
    assert main(argv) == 1
    assert [json.loads(x)["mask_sample"] for x in out.read_text().splitlines()] == [True, True]
    err = capsys.readouterr().err
    assert "no episode could be scored (all 2 masked)" in err and "could not reach the model endpoint" in err


@pytest.fixture(scope="module")
def short_lease():
    """A gateway whose sessions live 1 s without a call or renewal."""
    app = create_app(Settings(session_lease_s=1), TASKS)
    with serve_in_thread(app) as url:
        yield app, url


async def test_a_model_turn_longer_than_the_lease_keeps_its_session(short_lease):
    app, url = short_lease
    slow = FakeModel(TASKS, hang_s=2.5)  # one turn of 2.5 s: past the 1 s lease, renewed every 1/3 s meanwhile
    slow.modes["cal-move-ops-sync"] = "timeout"
    with fake_in_thread(slow) as slow_url:
        async with model(slow_url, timeout=10, retries=0) as client, httpx.AsyncClient(base_url=url) as control:
            record = await run_episode(control, client, RolloutConfig(model="oracle"), TaskSpec("cal-move-ops-sync"))
    assert record.end_reason == "model_error"
    assert record.checks and record.failure_kind != "abandoned"  # graded: an abandoned session has no checks
    assert len(app.state.gateway.store) == 0  # closed after verify


async def test_a_cancelled_episode_closes_its_session(short_lease):
    app, url = short_lease
    hanging = FakeModel(TASKS, hang_s=30)
    hanging.modes["cal-move-ops-sync"] = "timeout"
    gateway = app.state.gateway
    closed_before = len(gateway.ended)
    with fake_in_thread(hanging) as hang_url:
        async with model(hang_url, timeout=60, retries=0) as client, httpx.AsyncClient(base_url=url) as control:
            spec, config = TaskSpec("cal-move-ops-sync"), RolloutConfig(model="oracle")
            episode = asyncio.create_task(run_episode(control, client, config, spec))
            with anyio.fail_after(20):
                while not hanging.requests:  # the model turn has begun: the session is live
                    await asyncio.sleep(0.02)
            assert len(gateway.store) == 1
            episode.cancel()  # what Ctrl-C does to asyncio.run's tasks
            with pytest.raises(asyncio.CancelledError):
                await episode
    assert len(gateway.store) == 0 and len(gateway.ended) == closed_before + 1
