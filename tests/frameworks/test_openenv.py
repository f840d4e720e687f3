"""OpenEnv against a live gateway: the ``company_gateway`` environment server, driven by OpenEnv's own client.

openenv 0.10.0 runs in a venv of its own (``scripts/install-openenv.sh``); the environment package
(``examples/openenv/company_gateway_openenv``) is imported from this checkout. ``examples/openenv/agent.py`` is a small
agent loop in that venv: ``MCPToolClient`` resets, lists tools and steps, and the package's scripted
OpenAI-compatible model (``gateway.runners.model``) chooses each call (the reference solution of
two tasks, a wrong answer for a third).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

import gateway
from gateway import Settings, create_app
from gateway.control.rows import Task, load_tasks, tools_for
from gateway.runners.episodes import EpisodeRecord
from gateway.runners.model import ScriptedModel, TaskReferences, serve_model
from gateway.surfaces.serve import serve_in_background
from tests.frameworks.venvs import REPO, framework_env, free_port, listing, run, venv_bin

TASKS: dict[str, Task] = load_tasks(Path(gateway.__file__).parent / "tasks" / "rows" / "core.jsonl")
RIGHT = ("cal-move-ops-sync", "multi-share-talking-points-people-team")
WRONG = "dir-manager-of-owen"
PACKAGE = REPO / "examples" / "openenv" / "company_gateway_openenv"
AGENT = REPO / "examples" / "openenv" / "agent.py"
TIMEOUT_S = 300.0


def openenv_bin() -> Path:
    return venv_bin("openenv-0.10.0", "install-openenv.sh")


@contextlib.asynccontextmanager
async def live_gateway() -> AsyncIterator[tuple[str, Any]]:
    app = create_app(Settings(), dict(TASKS))
    async with serve_in_background(app) as base:
        yield base, app.state.gateway


@contextlib.asynccontextmanager
async def openenv_server(bin_dir: Path, gateway_url: str, tmp_path: Path, *extra: str) -> AsyncIterator[str]:
    """``company-gateway-openenv`` from this checkout, on a free loopback port, until it answers ``/health``."""
    port = free_port()
    argv = [str(bin_dir / "python"), "-m", "company_gateway_openenv.server", "--gateway-url", gateway_url,
            "--port", str(port), "--episodes-file", str(tmp_path / "episodes.jsonl"), *extra]  # fmt: skip
    log = (tmp_path / "openenv-server.log").open("wb")
    env = framework_env({"PYTHONPATH": str(PACKAGE)})
    async with await anyio.open_process(argv, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT) as proc:
        url = f"http://127.0.0.1:{port}"
        try:
            with anyio.fail_after(120):
                async with httpx.AsyncClient() as client:
                    while True:
                        with contextlib.suppress(httpx.HTTPError):
                            if (await client.get(url + "/health")).status_code == 200:
                                break
                        assert proc.returncode is None, (tmp_path / "openenv-server.log").read_text()[-4000:]
                        await anyio.sleep(0.2)
            yield url
        finally:
            proc.terminate()
            with anyio.fail_after(30):
                await proc.wait()
            log.close()


def scripted_model() -> ScriptedModel:
    """``company-gateway model``'s scripted model: the reference solutions, the negative control for WRONG."""
    return ScriptedModel(TaskReferences([TASKS[t] for t in (*RIGHT, WRONG)]), policies={WRONG: "wrong"})


# ---- the package's episode record, in this venv ---------------------------------------------------


def test_the_episode_record_has_the_gateways_shape():
    spec = importlib.util.spec_from_file_location("oe_episode", PACKAGE / "company_gateway_openenv" / "episode.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    verdict = {"reward": 0.0, "checks": [{"name": "c", "passed": False, "detail": "x"}], "grader_version": "g2",
               "task": {"family": "f", "split": "test", "apps": ["drive"], "exposure": "mcp", "seed": 3},
               "tool_calls": [], "changes": {}}  # fmt: skip
    record = module.episode_record("openenv", "t2", verdict, session_id="s2", tools=["a"], steps=2,
                                   end_reason="end_episode", timings={"total_s": 1.23456})  # fmt: skip
    expected = EpisodeRecord(task_id="t2", adapter="openenv", session_id="s2", tools=["a"], steps=2,
                             end_reason="end_episode", trajectory=None)  # fmt: skip
    expected.take_verdict(verdict)
    expected.timings["total_s"] = 1.23456
    assert record == expected.as_dict()


# ---- OpenEnv itself, in its own venv --------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_openenv_client_episodes_score_right_1_and_wrong_0_and_leave_no_session(tmp_path):
    bin_dir = openenv_bin()
    model = scripted_model()
    async with live_gateway() as (gateway_url, gw), serve_model(model) as model_url:
        async with openenv_server(bin_dir, gateway_url, tmp_path) as env_url:
            argv = [str(bin_dir / "python"), str(AGENT), env_url, model_url, *RIGHT, WRONG]
            code, out = await run(argv, tmp_path, framework_env(), TIMEOUT_S)
            assert code == 0, out[-6000:]
            assert len(gw.store) == 0  # every episode verified and closed its session
        assert len(gw.ended) == 3
    assert model.errors == []
    episodes = {e["task_id"]: e for e in map(json.loads, out.strip().splitlines()[-3:])}
    assert {t: e["reward"] for t, e in episodes.items()} == {RIGHT[0]: 1.0, RIGHT[1]: 1.0, WRONG: 0.0}
    assert all(e["done"] for e in episodes.values())
    assert {t: e["metadata"]["mask_sample"] for t, e in episodes.items()} == dict.fromkeys(episodes, False)
    assert all(c["passed"] for c in episodes[RIGHT[0]]["metadata"]["checks"])
    assert not all(c["passed"] for c in episodes[WRONG]["metadata"]["checks"])
    assert episodes[WRONG]["tools"] == tools_for(TASKS[WRONG], "mcp")
    assert "episode has ended" in episodes[WRONG]["after_end"]
    records = {r["task_id"]: r for r in map(json.loads, (tmp_path / "episodes.jsonl").read_text().splitlines())}
    assert {t: records[t]["reward"] for t in records} == {RIGHT[0]: 1.0, RIGHT[1]: 1.0, WRONG: 0.0}
    assert all(EpisodeRecord.from_json(r).adapter == "openenv" for r in records.values())


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_a_client_that_goes_away_leaves_no_session(tmp_path):
    bin_dir = openenv_bin()
    async with live_gateway() as (gateway_url, gw), openenv_server(bin_dir, gateway_url, tmp_path) as env_url:
        argv = [str(bin_dir / "python"), str(AGENT), "--leave", env_url, WRONG]
        code, out = await run(argv, tmp_path, framework_env(), TIMEOUT_S)
        assert code == 0, out[-6000:]
        left = json.loads(out.strip().splitlines()[-1])
        assert left["done"] is False
        with anyio.fail_after(30):
            while len(gw.store):  # the server closes the session once the client's connection is gone
                await anyio.sleep(0.1)
        assert len(gw.ended) == 1


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_an_unreachable_model_leaves_a_masked_record_and_no_session(tmp_path):
    bin_dir = openenv_bin()
    async with live_gateway() as (gateway_url, gw), openenv_server(bin_dir, gateway_url, tmp_path) as env_url:
        argv = [str(bin_dir / "python"), str(AGENT), env_url, f"http://127.0.0.1:{free_port()}/v1", WRONG]
        code, out = await run(argv, tmp_path, framework_env(), TIMEOUT_S)
        assert code != 0 and "ConnectError" in out, out[-4000:]  # the agent's model call failed
        with anyio.fail_after(30):
            while len(gw.store):  # the server closes the session once the client's connection is gone
                await anyio.sleep(0.1)
        assert len(gw.ended) == 1
    (record,) = map(json.loads, (tmp_path / "episodes.jsonl").read_text().splitlines())
    assert (record["task_id"], record["mask_sample"], record["failure_kind"]) == (WRONG, True, "client_gone"), record
    assert record["reward"] == 0.0 and record["checks"] == []


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_reset_by_split_draws_a_task_of_that_split(tmp_path):
    bin_dir = openenv_bin()
    tasks_file = tmp_path / "tasks.jsonl"
    tasks = [TASKS[WRONG], TASKS[RIGHT[0]].model_copy(update={"split": "validation"})]
    tasks_file.write_text(listing(tasks))
    script = (
        "import asyncio, json, sys\n"
        "from openenv.core.mcp_client import MCPToolClient\n"
        "async def main():\n"
        "    async with MCPToolClient(base_url=sys.argv[1]) as env:\n"
        "        r = await env.reset(split='validation', seed=7)\n"
        "        print(json.dumps(r.observation.metadata))\n"
        "asyncio.run(main())\n"
    )
    async with live_gateway() as (gateway_url, gw):
        async with openenv_server(bin_dir, gateway_url, tmp_path, "--tasks-file", str(tasks_file)) as env_url:
            argv = [str(bin_dir / "python"), "-c", script, env_url]
            code, out = await run(argv, tmp_path, framework_env(), TIMEOUT_S)
            assert code == 0, out[-6000:]
        assert json.loads(out.strip().splitlines()[-1])["task_id"] == RIGHT[0]
        with anyio.fail_after(30):
            while len(gw.store):
                await anyio.sleep(0.1)


async def read_line(stream: Any) -> bytes:
    """One line from a process's stdout (bytes up to and with the newline; what follows it is dropped)."""
    line = b""
    async for chunk in stream:
        line += chunk
        if b"\n" in line:
            break
    return line.split(b"\n", 1)[0]


@pytest.mark.slow
@pytest.mark.timeout(600)
async def test_a_gateway_lost_mid_episode_masks_it_instead_of_scoring_0(tmp_path):
    bin_dir = openenv_bin()
    gateway_stack = contextlib.AsyncExitStack()
    gateway_url, _ = await gateway_stack.enter_async_context(live_gateway())
    try:
        async with openenv_server(bin_dir, gateway_url, tmp_path) as env_url:
            argv = [str(bin_dir / "python"), str(AGENT), "--masked", env_url, WRONG]
            with anyio.fail_after(TIMEOUT_S):
                async with await anyio.open_process(argv, cwd=tmp_path, env=framework_env()) as proc:
                    assert proc.stdout is not None and proc.stdin is not None
                    assert json.loads(await read_line(proc.stdout))["session_id"]
                    await gateway_stack.aclose()  # the gateway is gone mid-episode
                    await proc.stdin.send(b"\n")
                    answer = json.loads(await read_line(proc.stdout))
                    assert await proc.wait() == 0
    finally:
        await gateway_stack.aclose()
    assert (answer["reward"], answer["done"]) == (None, True)
    assert (answer["metadata"]["mask_sample"], answer["metadata"]["failure_kind"]) == (True, "transport_unreachable")
    (record,) = map(json.loads, (tmp_path / "episodes.jsonl").read_text().splitlines())
    assert (record["mask_sample"], record["reward"], record["failure_kind"]) == (True, 0.0, "transport_unreachable")
