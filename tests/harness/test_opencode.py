"""OpenCode (``opencode run``) end to end: the example opencode.json, a live gateway, a scripted model on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.runners.model import FINAL_TEXT, GatewayReferences, ScriptedModel, serve_model
from tests.harness.conftest import EXAMPLES, TASKS, Live, Run, harness_binary, harness_env, run_harness, wrong_token

pytestmark = [pytest.mark.harness, pytest.mark.slow]  # OpenCode takes 7-17 s to start and play


async def run_opencode(home: Path, instruction: str, model_url: str, mcp_url: str, token: str) -> Run:
    """``opencode run`` with the example config (the fake model's URL put in), its warnings on stderr."""
    config = json.loads((EXAMPLES / "opencode" / "opencode.json").read_text())
    for provider in config["provider"].values():
        provider["options"]["baseURL"] = model_url
    (home / "opencode.json").write_text(json.dumps(config))
    work = home / "work"
    work.mkdir()
    env = harness_env(home, OPENCODE_CONFIG=str(home / "opencode.json"), OPENCODE_DISABLE_MODELS_FETCH="1",
                      OPENCODE_DISABLE_AUTOUPDATE="1", MODEL_API_KEY="unused", COMPANY_MCP_URL=mcp_url,
                      COMPANY_MCP_TOKEN=token)  # fmt: skip
    argv = [harness_binary("opencode"), "run", "--print-logs", "--log-level", "WARN", instruction]
    return await run_harness(argv, env=env, cwd=work)


async def test_opencode_plays_an_mcp_task_to_reward_1(live: Live, clean_home: Path) -> None:
    task = TASKS["cal-decline-contoso-review"]
    seed = await live.seed(task.id)
    model = ScriptedModel(GatewayReferences(live.base))
    async with serve_model(model) as model_url:
        run = await run_opencode(clean_home, seed["instruction"], model_url, seed["mcp"]["url"], seed["token"])
    verdict = await live.verify(seed["session_id"])
    assert run.returncode == 0, str(run)
    assert model.errors == [], str(run)
    assert FINAL_TEXT in run.stdout, str(run)
    server = seed["mcp"]["server_name"]
    called = [c["function"]["name"] for m in model.requests[-1][1]["messages"] for c in m.get("tool_calls") or []]
    assert called == [
        f"{server}_company_{s.tool.replace('.', '_')}" for s in task.solution
    ]  # OpenCode: <server>_<tool>
    assert verdict["reward"] == 1.0, verdict


async def test_opencode_runs_without_the_tools_on_a_bad_token_but_says_so(live: Live, clean_home: Path) -> None:
    """OpenCode has no ``required`` MCP server: it exits 0 without the tools, and only its log names the failure.

    This is why examples/opencode/run-batch.sh reads that log and does not score such an episode.
    """
    seed = await live.seed("cal-move-ops-sync")
    model = ScriptedModel(GatewayReferences(live.base))
    async with serve_model(model) as model_url:
        run = await run_opencode(clean_home, seed["instruction"], model_url, seed["mcp"]["url"],
                                 wrong_token(seed["token"]))  # fmt: skip
    assert 'message="server unavailable" key=company' in run.stderr, str(run)
    offered = {t["function"]["name"] for _, body in model.requests for t in body.get("tools") or []}
    assert not any(name.startswith("company_") for name in offered), offered
