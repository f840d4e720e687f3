"""The examples' run-batch.sh launchers, copied as a user would, against a gateway capped at their PARALLEL.

One of the tasks is a ``cli`` row: the launchers seed every row over MCP (their configs give the harness MCP tools
only), so it plays to 1.0 like the others. A reference play scores 1.0 and a wrong answer 0.0 with each harness;
a harness that cannot reach the company's tools (a wrong token) gets a masked line, never a score.
tests/examples/test_examples.py covers the time limit.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway import Settings
from gateway.control.rows import Task
from gateway.runners.model import ScriptedModel, TaskReferences, serve_model
from tests.conftest import require_binary
from tests.harness.conftest import (
    EXAMPLES,
    OPENCLAW_BIN,
    TASKS,
    Run,
    harness_binary,
    harness_env,
    run_harness,
    wrong_answer,
    wrong_token,
)
from tests.recording import recording_gateway

# Several harness runs per test, on a busy machine: the slow tier.
pytestmark = [pytest.mark.harness, pytest.mark.slow, pytest.mark.timeout(300)]

#: Example folder -> the harness binary its run-batch.sh runs.
BINARIES = {"codex": "codex", "pi": "pi", "opencode": "opencode", "claude-code": "claude", "gemini-cli": "gemini",
            "openclaw": "openclaw"}  # fmt: skip
#: OpenClaw needs ~15 s of CPU per episode here (and its probe ~6 s): longer bounds for its tests.
SLOW = pytest.mark.timeout(420)
NEW = ["claude-code", "gemini-cli", pytest.param("openclaw", marks=SLOW)]


def point_at_model(folder: Path, harness: str, model_url: str) -> dict[str, str]:
    """Point the copied example at the fake model (the only edit a user makes besides keys); extra environment."""
    if harness == "codex":
        path = folder / "config.toml"
        text, n = re.subn(r'(?m)^base_url = "[^"]*"', f'base_url = "{model_url}"', path.read_text())
        assert n == 1
        path.write_text(text)
    elif harness == "opencode":
        path = folder / "opencode.json"
        config = json.loads(path.read_text())
        for provider in config["provider"].values():
            provider["options"]["baseURL"] = model_url
        path.write_text(json.dumps(config))
    elif harness == "pi":
        path = folder / "models.json"
        config = json.loads(path.read_text())
        for provider in config["providers"].values():
            provider["baseUrl"] = model_url
        path.write_text(json.dumps(config))
    elif harness == "openclaw":
        path = folder / "openclaw.json"
        config = json.loads(path.read_text())
        for provider in config["models"]["providers"].values():
            provider["baseUrl"] = model_url
        path.write_text(json.dumps(config))
    elif harness == "claude-code":  # the Anthropic SDK appends /v1/messages
        return {"ANTHROPIC_BASE_URL": model_url.removesuffix("/v1")}
    else:  # gemini-cli: the Gemini SDK appends /v1beta/models/<model>:streamGenerateContent
        return {"GOOGLE_GEMINI_BASE_URL": model_url.removesuffix("/v1")}
    return {}


@dataclass
class Batch:
    run: Run
    verdicts: dict[str, dict[str, Any]]
    seeds: list[dict[str, Any]]
    logs: str
    #: Sessions still holding a world on the gateway once the script had ended (its gateway_sessions_live gauge).
    live_after: float

    def __str__(self) -> str:
        return f"{self.run}\n--- episode logs\n{self.logs}"


async def play_batch(
    harness: str,
    home: Path,
    tasks: list[Task],
    model: ScriptedModel,
    edit: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    *,
    model_url: str | None = None,
    env_extra: dict[str, str] | None = None,
) -> Batch:
    """Copy examples/<harness>, point it at ``model``, run its run-batch.sh over ``tasks`` against a live gateway.

    ``model_url``, when given, is where the copied example points instead of ``model`` (e.g. a port nobody
    listens on); ``env_extra`` is added to the script's environment (e.g. ``EPISODE_TIMEOUT_S``).
    """
    require_binary("curl")
    binary = harness_binary(BINARIES[harness], OPENCLAW_BIN) if harness == "openclaw" else harness_binary(
        BINARIES[harness])  # fmt: skip
    script = (EXAMPLES / harness / "run-batch.sh").read_text()
    parallel = int(re.search(r'PARALLEL="\$\{PARALLEL:-(\d+)\}"', script).group(1))  # type: ignore[union-attr]
    settings = Settings(max_concurrent_sessions=parallel)
    async with recording_gateway(settings, {t.id: TASKS.get(t.id, t) for t in tasks}, edit) as (base, seeds), \
            serve_model(model) as served_url:  # fmt: skip
        folder = home / harness
        shutil.copytree(EXAMPLES / harness, folder)
        extra = point_at_model(folder, harness, model_url or served_url)
        env = harness_env(home, GATEWAY=base, MODEL_API_KEY="unused", RUNS_DIR=str(home / "runs"), **extra,
                          **(env_extra or {}))  # fmt: skip
        env["PATH"] = f"{Path(binary).parent}:{env['PATH']}"
        run = await run_harness(["bash", str(folder / "run-batch.sh"), *(t.id for t in tasks)], env=env, cwd=home,
                                timeout_s=400 if harness == "openclaw" else 150)  # fmt: skip
        async with httpx.AsyncClient(base_url=base) as control:
            metrics = (await control.get("/metrics")).text
    live = re.search(r"(?m)^gateway_sessions_live (\S+)$", metrics)
    assert live is not None, metrics
    verdicts = {
        task_id: json.loads(text) for task_id, text in (line.split("\t", 1) for line in run.stdout.splitlines())
    }
    logs = "\n".join(f"{p}:\n{p.read_text(errors='replace')[-2000:]}" for p in sorted((home / "runs").glob("*/*"))
                     if p.suffix in (".log", ".json", ".jsonl") and p.is_file())  # fmt: skip
    return Batch(run, verdicts, seeds, logs, float(live.group(1)))


@pytest.mark.parametrize("harness", ["codex", "pi", "opencode"])
async def test_run_batch_plays_tasks_in_parallel_to_reward_1(clean_home: Path, harness: str) -> None:
    # A cli row (as 22 of the built-in rows are): seeded as written, its session would offer no app tools.
    cli_row = TASKS["dir-manager-of-owen"].model_copy(update={"id": "dir-manager-of-owen-cli", "exposure": "cli"})
    tasks = [cli_row, TASKS["drive-share-offsite-agenda"]]
    if harness == "opencode":
        tasks = tasks[:1]  # one OpenCode run costs ~15-30 s of CPU here
    model = ScriptedModel(TaskReferences(tasks))  # calls the MCP tools: a session without them fails the script
    batch = await play_batch(harness, clean_home, tasks, model)
    assert batch.run.returncode == 0, str(batch)
    assert model.errors == [], str(batch)
    assert {task_id: v.get("reward") for task_id, v in batch.verdicts.items()} == {t.id: 1.0 for t in tasks}, str(
        batch)  # fmt: skip
    assert {seed["task_id"]: seed["exposure"] for seed in batch.seeds} == {t.id: "mcp" for t in tasks}


@pytest.mark.parametrize("harness", NEW)
async def test_run_batch_scores_a_reference_play_1_and_a_wrong_answer_0(clean_home: Path, harness: str) -> None:
    right = TASKS["multi-share-talking-points-people-team"]  # four steps, values saved across apps
    wrong = wrong_answer(TASKS["dir-manager-of-owen"])  # the reference's lookups, then someone else as the answer
    model = ScriptedModel(TaskReferences([right, wrong]))
    batch = await play_batch(harness, clean_home, [right, wrong], model)
    assert batch.run.returncode == 0, str(batch)
    assert model.errors == [], str(batch)
    rewards = {task_id: (v.get("reward"), v.get("mask_sample")) for task_id, v in batch.verdicts.items()}
    assert rewards == {right.id: (1.0, False), wrong.id: (0.0, False)}, str(batch)
    # Every step of both plays reached the gateway as the MCP tool it names (each harness adds its own prefix).
    called = [name for api, body in model.requests for name in _called(api, body)]
    for task in (right, wrong):
        for step in task.solution:
            assert any(n.endswith("company_" + step.tool.replace(".", "_")) for n in called), (step.tool, called)
    # The examples leave out the harness's own shell and web tools: the company's tools are the way in.
    offered = {name for _, body in model.requests for name in _offered(body)}
    assert not offered & {"Bash", "WebFetch", "run_shell_command", "web_fetch", "google_web_search", "exec"}, offered


@pytest.mark.parametrize("harness", [*(h for h in BINARIES if h != "openclaw"), pytest.param("openclaw", marks=SLOW)])
async def test_run_batch_masks_an_episode_whose_harness_has_no_company_tools(clean_home: Path, harness: str) -> None:
    """A wrong token: the harness cannot list the tools, and its line is masked with the harness's own words."""
    task = TASKS["cal-move-ops-sync"]
    model = ScriptedModel(TaskReferences([task]))
    batch = await play_batch(harness, clean_home, [task], model, edit=lambda s: {**s, "token": wrong_token(s["token"])})
    assert batch.run.returncode == 0, str(batch)
    verdict = batch.verdicts[task.id]
    assert verdict["mask_sample"] is True and verdict["failure_kind"] == "harness_mcp_failed", str(batch)
    assert verdict["session_id"] == batch.seeds[0]["session_id"]
    assert BINARIES[harness] in verdict["failure_reason"], verdict
    offered = [name for _, body in model.requests for name in _offered(body)]
    assert not any("company_" in name for name in offered), offered  # the model never saw a company tool


def unused_port() -> int:
    """A loopback port nobody listens on: bound by the OS for a moment, then released."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


# OpenClaw (~15 s of CPU) and OpenCode (no time limit: ~85 s of its own retries) are left out to keep this short.
@pytest.mark.parametrize("harness", ["codex", "claude-code", "gemini-cli", "pi"])
async def test_run_batch_masks_an_episode_whose_model_cannot_be_reached(clean_home: Path, harness: str) -> None:
    """The model's URL is a port nobody listens on: the harness retries until the time limit or gives up, and the
    line is masked as ``model_unreachable`` (an infrastructure failure), never a 0 against the model."""
    task = TASKS["cal-move-ops-sync"]
    model = ScriptedModel(TaskReferences([task]))
    dead = f"http://127.0.0.1:{unused_port()}/v1"
    batch = await play_batch(harness, clean_home, [task], model, model_url=dead, env_extra={"EPISODE_TIMEOUT_S": "8"})
    assert batch.run.returncode == 0, str(batch)
    verdict = batch.verdicts[task.id]
    assert (verdict["mask_sample"], verdict["failure_kind"], verdict["reward"]) == (True, "model_unreachable", 0.0), \
        str(batch)  # fmt: skip
    assert verdict["session_id"] == batch.seeds[0]["session_id"]
    assert BINARIES[harness] in verdict["failure_reason"] and dead.removesuffix("/v1") in verdict["failure_reason"]
    assert batch.live_after == 0.0, str(batch)  # the session was closed


def _called(api: str, body: dict[str, Any]) -> list[str]:
    """Names of the tool calls in the conversation a request carries."""
    if api == "messages":
        return [b["name"] for m in body["messages"] if isinstance(m["content"], list) for b in m["content"]
                if b.get("type") == "tool_use"]  # fmt: skip
    if api == "gemini":
        return [p["functionCall"]["name"] for c in body["contents"] for p in c["parts"] if "functionCall" in p]
    if api == "chat":
        return [c["function"]["name"] for m in body["messages"] for c in m.get("tool_calls") or []]
    return [i["name"] for i in body.get("input") or [] if isinstance(i, dict) and i.get("type") == "function_call"]


def _offered(body: dict[str, Any]) -> list[str]:
    """Names of the tools a request offers the model, in any of the wire formats."""
    names: list[str] = []
    for tool in body.get("tools") or []:
        names += [d["name"] for d in tool.get("functionDeclarations") or []]  # Gemini
        names += [t["name"] for t in tool.get("tools") or [] if "name" in t]  # a Responses namespace
        names += [tool["function"]["name"]] if "function" in tool else [tool.get("name", "")]
    return names
