"""Codex CLI (``codex exec``) end to end: the example configs, a live gateway, and a scripted model on loopback."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from gateway.runners.model import FINAL_TEXT, GatewayReferences, ScriptedModel, serve_model
from tests.conftest import require_binary
from tests.harness.conftest import EXAMPLES, TASKS, Live, harness_binary, harness_env, run_harness, wrong_token

pytestmark = pytest.mark.harness


def write_config(home: Path, example: str, mcp_url: str, model_url: str) -> dict:
    """``$CODEX_HOME/config.toml``: the example with the gateway's MCP URL and the fake model's base URL."""
    text = (EXAMPLES / "codex" / example).read_text()
    text, n_mcp = re.subn(r'(?m)^url = "[^"]*"', f'url = "{mcp_url}"', text)
    text, n_model = re.subn(r'(?m)^base_url = "[^"]*"', f'base_url = "{model_url}"', text)
    assert (n_mcp, n_model) == (1, 1), f"examples/codex/{example}: expected one url and one base_url line"
    (home / "config.toml").write_text(text)
    config = tomllib.loads(text)
    assert config["model_providers"][config["model_provider"]]["base_url"] == model_url
    return config


def codex_argv(instruction: str) -> list[str]:
    # --strict-config: the example's keys must all be known to this Codex version.
    return [harness_binary("codex"), "exec", "--skip-git-repo-check", "--ephemeral", "--strict-config",
            "--color", "never", instruction]  # fmt: skip


def mcp_calls(model: ScriptedModel) -> list[tuple[str | None, str]]:
    """(namespace, name) of every function call the harness sent back to the model, from the last request."""
    items = model.requests[-1][1]["input"]
    return [(i.get("namespace"), i["name"]) for i in items if i.get("type") == "function_call"]


async def test_codex_plays_an_mcp_task_to_reward_1(live: Live, clean_home: Path) -> None:
    task = TASKS["multi-share-talking-points-people-team"]  # four steps, values saved across apps
    seed = await live.seed(task.id)
    model = ScriptedModel(GatewayReferences(live.base))
    async with serve_model(model) as model_url:
        config = write_config(clean_home, "config.toml", seed["mcp"]["url"], model_url)
        env = harness_env(clean_home, CODEX_HOME=str(clean_home), MODEL_API_KEY="unused",
                          COMPANY_MCP_TOKEN=seed["token"])  # fmt: skip
        run = await run_harness(codex_argv(seed["instruction"]), env=env, cwd=clean_home)
    verdict = await live.verify(seed["session_id"])
    assert run.returncode == 0, str(run)
    assert model.errors == [], str(run)
    assert FINAL_TEXT in run.stdout, str(run)
    server = seed["mcp"]["server_name"]
    assert server in config["mcp_servers"]
    assert mcp_calls(model) == [(f"mcp__{server}", f"company_{s.tool.replace('.', '_')}") for s in task.solution]
    assert verdict["reward"] == 1.0, verdict


@pytest.mark.slow
async def test_codex_plays_a_cli_task_through_its_shell_to_reward_1(live: Live, clean_home: Path) -> None:
    require_binary("bwrap")  # Codex's workspace-write sandbox runs commands under bubblewrap
    task = TASKS["cal-move-ops-sync"]
    seed = await live.seed(task.id, exposure="cli")
    gateway = live.app.state.gateway
    sandbox = gateway.get_session(seed["session_id"]).sandbox
    assert sandbox is not None and sandbox.provider == "local"
    box = gateway.provider.root / sandbox.id  # the local provider's folder: workspace/ and bin/ (the app commands)
    model = ScriptedModel(GatewayReferences(live.base))
    async with serve_model(model) as model_url:
        write_config(clean_home, "config-cli.toml", seed["mcp"]["url"], model_url)
        env = harness_env(clean_home, CODEX_HOME=str(clean_home), MODEL_API_KEY="unused",
                          COMPANY_MCP_TOKEN=seed["token"], COMPANY_API_URL=seed["company_api_url"],
                          COMPANY_API_TOKEN=seed["token"])  # fmt: skip
        env["PATH"] = f"{box / 'bin'}:{env['PATH']}"
        run = await run_harness(codex_argv(seed["instruction"]), env=env, cwd=box / "workspace")
    verdict = await live.verify(seed["session_id"])
    assert run.returncode == 0, str(run)
    assert model.errors == [], str(run)
    commands = [i["arguments"] for i in model.requests[-1][1]["input"] if i.get("type") == "function_call"]
    assert len(commands) == len(task.solution) and "calendar update-event" in commands[-1], commands
    assert verdict["reward"] == 1.0, verdict


@pytest.mark.slow
@pytest.mark.parametrize("token", ["wrong", "expired"])
async def test_codex_fails_loudly_with_a_bad_token(live: Live, clean_home: Path, token: str) -> None:
    seed = await live.seed("cal-move-ops-sync")
    if token == "expired":
        await live.close(seed["session_id"])  # its token stops working
    value = seed["token"] if token == "expired" else wrong_token(seed["token"])
    model = ScriptedModel(GatewayReferences(live.base))
    async with serve_model(model) as model_url:
        write_config(clean_home, "config.toml", seed["mcp"]["url"], model_url)
        env = harness_env(clean_home, CODEX_HOME=str(clean_home), MODEL_API_KEY="unused", COMPANY_MCP_TOKEN=value)
        run = await run_harness(codex_argv(seed["instruction"]), env=env, cwd=clean_home)
    assert run.returncode != 0, str(run)
    assert "required MCP servers failed to initialize" in run.stderr, str(run)
    assert model.requests == [], "Codex started an episode without the company's tools"
