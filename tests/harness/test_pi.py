"""Pi (``pi -p``) end to end: the example extension and models.json, a live gateway, a scripted model on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.runners.model import FINAL_TEXT, GatewayReferences, ScriptedModel, serve_model
from tests.harness.conftest import EXAMPLES, TASKS, Live, harness_binary, harness_env, run_harness, wrong_token

pytestmark = [pytest.mark.harness, pytest.mark.slow]  # Pi alone needs ~3 s of CPU to start


def write_models(agent_dir: Path, model_url: str) -> tuple[str, str]:
    """``$PI_CODING_AGENT_DIR/models.json``: the example with the fake model's base URL; returns (provider, model)."""
    config = json.loads((EXAMPLES / "pi" / "models.json").read_text())
    (provider, entry), *_ = config["providers"].items()
    entry["baseUrl"] = model_url
    agent_dir.mkdir(parents=True, exist_ok=True)
    (agent_dir / "models.json").write_text(json.dumps(config))
    return provider, entry["models"][0]["id"]


async def run_pi(home: Path, instruction: str, model_url: str, mcp_url: str, token: str):
    provider, model_id = write_models(home / "agent", model_url)
    env = harness_env(home, PI_CODING_AGENT_DIR=str(home / "agent"), PI_OFFLINE="1", MODEL_API_KEY="unused",
                      COMPANY_MCP_URL=mcp_url, COMPANY_MCP_TOKEN=token)  # fmt: skip
    argv = [harness_binary("pi"), "--provider", provider, "--model", model_id, "--no-session", "--no-builtin-tools",
            "--no-context-files", "-e", str(EXAMPLES / "pi" / "company-mcp.ts"), "-p", instruction]  # fmt: skip
    return await run_harness(argv, env=env, cwd=home)


async def test_pi_plays_an_mcp_task_to_reward_1(live: Live, clean_home: Path) -> None:
    task = TASKS["multi-vendor-owner-title"]  # search, read, look up, then complete_task with a saved value
    seed = await live.seed(task.id)
    model = ScriptedModel(GatewayReferences(live.base))
    async with serve_model(model) as model_url:
        run = await run_pi(clean_home, seed["instruction"], model_url, seed["mcp"]["url"], seed["token"])
    verdict = await live.verify(seed["session_id"])
    assert run.returncode == 0, str(run)
    assert model.errors == [], str(run)
    assert FINAL_TEXT in run.stdout, str(run)
    api, body = model.requests[-1]
    assert api == "chat" and body["stream"] is True  # models.json says openai-completions; Pi streams
    offered = {t["function"]["name"] for t in body["tools"]}
    assert offered == set(seed["tools"])  # exactly the session's tools, nothing built in
    called = [c["function"]["name"] for m in body["messages"] for c in m.get("tool_calls") or []]
    assert called == [f"company_{s.tool.replace('.', '_')}" for s in task.solution]
    assert verdict["reward"] == 1.0, verdict


@pytest.mark.parametrize("token", ["wrong", "expired"])
async def test_pi_fails_loudly_with_a_bad_token(live: Live, clean_home: Path, token: str) -> None:
    seed = await live.seed("cal-move-ops-sync")
    if token == "expired":
        await live.close(seed["session_id"])
    value = seed["token"] if token == "expired" else wrong_token(seed["token"])
    model = ScriptedModel(GatewayReferences(live.base))
    async with serve_model(model) as model_url:
        run = await run_pi(clean_home, seed["instruction"], model_url, seed["mcp"]["url"], value)
    assert run.returncode != 0, str(run)
    assert "Failed to load extension" in run.stderr and "HTTP 401" in run.stderr, str(run)
    assert model.requests == [], "Pi started an episode without the company's tools"
