"""The harness examples agree with the gateway and with themselves: names, headers, env vars, concurrency.

No real harness runs here (tests/harness does that); these read the files and compare them with what a live
gateway hands out at seed, and run the run-batch.sh launchers with a stand-in harness binary.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import stat
import time
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest

import gateway
from cli_shim import command_scripts
from gateway import Settings, create_app
from gateway.control.rows import Task, load_tasks
from gateway.surfaces.serve import serve_in_background
from tests.conftest import require_binary
from tests.recording import recording_gateway
from tests.tiers import sampled

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
HARNESSES = ["codex", "pi", "opencode", "claude-code", "gemini-cli", "openclaw", "mini-swe-agent"]
#: Where each example keeps its own concurrency: the launcher's parallel-episode count.
CONCURRENCY = {
    "codex": ("run-batch.sh", r'PARALLEL="\$\{PARALLEL:-(\d+)\}"'),
    "pi": ("run-batch.sh", r'PARALLEL="\$\{PARALLEL:-(\d+)\}"'),
    "opencode": ("run-batch.sh", r'PARALLEL="\$\{PARALLEL:-(\d+)\}"'),
    "claude-code": ("run-batch.sh", r'PARALLEL="\$\{PARALLEL:-(\d+)\}"'),
    "gemini-cli": ("run-batch.sh", r'PARALLEL="\$\{PARALLEL:-(\d+)\}"'),
    "openclaw": ("run-batch.sh", r'PARALLEL="\$\{PARALLEL:-(\d+)\}"'),
    "mini-swe-agent": ("run_batch.py", r"^WORKERS = (\d+)"),
}
TOKEN_ENV = "COMPANY_MCP_TOKEN"


@pytest.fixture(scope="module")
def seed() -> dict[str, Any]:
    """A real seed response (mcp exposure) from a gateway on loopback, with default settings."""

    async def go() -> dict[str, Any]:
        tasks = load_tasks(Path(gateway.__file__).parent / "tasks" / "rows" / "core.jsonl")
        app = create_app(Settings(sandbox_provider="none"), tasks=tasks)
        async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base) as client:
            r = await client.post("/seed_session", json={"task_id": "cal-move-ops-sync"})
            assert r.status_code == 200, r.text
            return r.json()

    return asyncio.run(go())


def codex_configs() -> list[Path]:
    return sorted((EXAMPLES / "codex").glob("config*.toml"))


def test_every_example_has_a_readme() -> None:
    for harness in HARNESSES:
        assert (EXAMPLES / harness / "README.md").is_file(), harness


@pytest.mark.parametrize("harness", HARNESSES)
def test_readme_admission_setting_matches_the_examples_concurrency(harness: str) -> None:
    name, pattern = CONCURRENCY[harness]
    found = re.search(pattern, (EXAMPLES / harness / name).read_text(), re.MULTILINE)
    assert found, f"examples/{harness}/{name}: no concurrency setting matching {pattern}"
    readme = (EXAMPLES / harness / "README.md").read_text()
    numbers = set(re.findall(r"GATEWAY_MAX_CONCURRENT_SESSIONS=(\d+)", readme))
    assert numbers == {found.group(1)}, f"examples/{harness}/README.md names {numbers}, {name} runs {found.group(1)}"
    # ...and it is the gateway's real setting, under its real name.
    assert Settings.model_config["env_prefix"] + "MAX_CONCURRENT_SESSIONS" == "GATEWAY_MAX_CONCURRENT_SESSIONS"
    assert Settings(max_concurrent_sessions=int(found.group(1))).max_concurrent_sessions == int(found.group(1))


@pytest.mark.parametrize("path", codex_configs(), ids=lambda p: p.name)
def test_codex_config_parses_with_the_keys_company_tools_need(path: Path, seed: dict[str, Any]) -> None:
    config = tomllib.loads(path.read_text())
    server = config["mcp_servers"][seed["mcp"]["server_name"]]  # the table is named as the gateway names itself
    assert server["url"].endswith("/mcp") and seed["mcp"]["url"].endswith("/mcp")
    assert server["bearer_token_env_var"] == TOKEN_ENV
    assert server["required"] is True  # else a refused token starts Codex silently with no tools
    assert server["default_tools_approval_mode"] == "approve"  # else only read-only tools run under "never"
    assert server["startup_timeout_sec"] > 0 and server["tool_timeout_sec"] > 0
    assert config["approval_policy"] == "never"
    provider = config["model_providers"][config["model_provider"]]
    assert provider["wire_api"] == "responses" and provider["base_url"] and provider["env_key"]


def test_codex_cli_config_lets_the_app_commands_run() -> None:
    config = tomllib.loads((EXAMPLES / "codex" / "config-cli.toml").read_text())
    assert config["allow_login_shell"] is False  # /etc/profile would reset PATH
    assert config["sandbox_mode"] == "danger-full-access" or config["sandbox_workspace_write"]["network_access"]
    shell_env = config["shell_environment_policy"]["include_only"]
    assert {"PATH", "COMPANY_API_URL", "COMPANY_API_TOKEN"} <= set(shell_env)
    assert "MODEL_API_KEY" not in shell_env


def test_bearer_header_shape_is_the_seeds(seed: dict[str, Any]) -> None:
    """Every harness sends ``Authorization: Bearer <token>`` built from COMPANY_MCP_TOKEN: the seed's header."""
    assert seed["mcp"]["headers"] == {"Authorization": f"Bearer {seed['token']}"}
    opencode = json.loads((EXAMPLES / "opencode" / "opencode.json").read_text())
    headers = opencode["mcp"][seed["mcp"]["server_name"]]["headers"]
    filled = {k: v.replace("{env:" + TOKEN_ENV + "}", seed["token"]) for k, v in headers.items()}
    assert filled == seed["mcp"]["headers"]
    extension = (EXAMPLES / "pi" / "company-mcp.ts").read_text()
    assert "Authorization: `Bearer ${TOKEN}`" in extension
    assert f"process.env.{TOKEN_ENV}" in extension and "process.env.COMPANY_MCP_URL" in extension


def test_pi_models_json_parses_and_extension_names_the_server(seed: dict[str, Any]) -> None:
    config = json.loads((EXAMPLES / "pi" / "models.json").read_text())
    assert config["providers"], "models.json: no provider"
    for name, provider in config["providers"].items():
        assert provider["api"] in ("openai-completions", "openai-responses"), name
        assert provider["baseUrl"].startswith("http") and provider["apiKey"], name
        assert provider["models"] and all(m["id"] for m in provider["models"]), name
    extension = (EXAMPLES / "pi" / "company-mcp.ts").read_text()
    assert f'process.env.COMPANY_MCP_SERVER ?? "{seed["mcp"]["server_name"]}"' in extension
    for method in ("initialize", "tools/list", "tools/call"):
        assert f'"{method}"' in extension


def test_opencode_config_is_a_remote_server_from_the_environment(seed: dict[str, Any]) -> None:
    config = json.loads((EXAMPLES / "opencode" / "opencode.json").read_text())
    server = config["mcp"][seed["mcp"]["server_name"]]
    assert server["type"] == "remote" and server["enabled"] is True
    assert server["url"] == "{env:COMPANY_MCP_URL}"
    provider, model = config["model"].split("/", 1)
    assert model in config["provider"][provider]["models"]


def test_new_harness_configs_send_the_seeds_header_and_leave_out_shells(seed: dict[str, Any]) -> None:
    """Claude Code, Gemini CLI, OpenClaw: the server under the seed's name, URL and token from the environment."""
    name, token = seed["mcp"]["server_name"], seed["token"]
    claude = json.loads((EXAMPLES / "claude-code" / "mcp.json").read_text())["mcpServers"][name]
    gemini_settings = json.loads((EXAMPLES / "gemini-cli" / "settings.json").read_text())
    gemini = gemini_settings["mcpServers"][name]
    openclaw_config = json.loads((EXAMPLES / "openclaw" / "openclaw.json").read_text())
    openclaw = openclaw_config["mcp"]["servers"][name]
    for server, url_key, fill in (
        (claude, "url", lambda v: v.replace("${" + TOKEN_ENV + "}", token)),
        (gemini, "httpUrl", lambda v: v.replace("$" + TOKEN_ENV, token)),
        (openclaw, "url", lambda v: v.replace("${" + TOKEN_ENV + "}", token)),
    ):
        assert "COMPANY_MCP_URL" in server[url_key]
        assert {k: fill(v) for k, v in server["headers"].items()} == seed["mcp"]["headers"]
    assert claude["type"] == "http" and gemini["trust"] is True and openclaw["transport"] == "streamable-http"
    assert gemini_settings["security"]["auth"]["selectedType"] == "gemini-api-key"  # else exit 41 with a base URL
    assert gemini_settings["security"]["folderTrust"]["enabled"] is False  # else MCP servers are disabled
    assert "run_shell_command" in gemini_settings["tools"]["exclude"]
    assert openclaw_config["tools"]["toolSearch"] is False and openclaw_config["tools"]["profile"] == "minimal"
    for provider in openclaw_config["models"]["providers"].values():
        assert provider["apiKey"] == "${MODEL_UNDER_TEST_KEY}"  # not MODEL_API_KEY: OpenClaw's Meta provider reads it
    claude_script = (EXAMPLES / "claude-code" / "run-batch.sh").read_text()
    assert "ENABLE_TOOL_SEARCH=false" in claude_script and '--tools ""' in claude_script


def test_readmes_name_the_versions_the_install_script_pins() -> None:
    install = (REPO / "scripts" / "install-harnesses.sh").read_text()
    readme = (REPO / "README.md").read_text()
    for example, variable in (("codex", "CODEX_VERSION"), ("pi", "PI_VERSION"), ("claude-code", "CLAUDE_CODE_VERSION"),
                              ("gemini-cli", "GEMINI_CLI_VERSION"), ("openclaw", "OPENCLAW_VERSION")):  # fmt: skip
        pinned = re.search(rf'{variable}="\$\{{{variable}:-([0-9.]+)\}}"', install)
        assert pinned, variable
        assert f"{pinned.group(1)}" in (EXAMPLES / example / "README.md").read_text(), example
        assert f"| {pinned.group(1)} (npm" in readme, f"README.md's harness table lacks {example} {pinned.group(1)}"


def test_mini_swe_agent_uses_the_env_names_the_app_commands_read(seed: dict[str, Any]) -> None:
    command = command_scripts(["calendar"])["calendar"].decode()
    for name in ("COMPANY_API_URL", "COMPANY_API_TOKEN"):
        assert name in command  # what the sandbox's app commands read
        for file in ("README.md", "mini.yaml", "run_batch.py"):
            assert name in (EXAMPLES / "mini-swe-agent" / file).read_text(), f"{file} does not set {name}"
    assert seed["company_api_url"].endswith("/api")


def test_sandbox_images_pin_the_tested_harness_versions() -> None:
    install = (REPO / "scripts" / "install-harnesses.sh").read_text()
    for image, variable in (("codex", "CODEX_VERSION"), ("pi", "PI_VERSION")):
        pinned = re.search(rf'{variable}="\$\{{{variable}:-([0-9.]+)\}}"', install)
        dockerfile = (EXAMPLES / "images" / image / "Dockerfile").read_text()
        assert pinned and f"ARG {variable}={pinned.group(1)}" in dockerfile, image
        assert dockerfile.startswith("#") and "FROM node:" in dockerfile


# ---- run-batch.sh with a stand-in harness ---------------------------------------------------------------------

#: The launcher's harness command, per example.
LAUNCHED = {"codex": "codex", "pi": "pi", "opencode": "opencode", "claude-code": "claude", "gemini-cli": "gemini",
            "openclaw": "openclaw"}  # fmt: skip
#: What a stand-in must print for the launcher to take the company's MCP server as connected (a probe or listing
#: answers and exits here; the episode's run goes on to the body).
CONNECTED = {
    "claude-code": """echo '{"type": "system", "subtype": "init", "mcp_servers": """
    """[{"name": "company", "status": "connected"}]}'""",
    "gemini-cli": 'if [ "$1" = mcp ]; then echo "company: http://127.0.0.1/mcp (http) - Connected"; exit 0; fi',
    "openclaw": 'if [ "$1" = mcp ]; then exit 0; fi',
    "opencode": 'if [ "$1" = mcp ]; then echo "company connected"; exit 0; fi',
}
CORE_TASKS = Path(gateway.__file__).parent / "tasks" / "rows" / "core.jsonl"


def cli_task() -> Task:
    """A core task as a ``cli`` row, like the 22 built-in cli rows (the core file holds only mcp rows)."""
    task = load_tasks(CORE_TASKS)["cal-move-ops-sync"]
    return task.model_copy(update={"id": "cal-move-ops-sync-cli", "exposure": "cli"})


def fake_harness(folder: Path, name: str, body: str) -> Path:
    """An executable ``folder/name`` running the sh ``body``; returns ``folder``, to put first on PATH."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return folder


#: The gateway the run-batch tests seed from: no sandboxes, and room for the scripts' parallel episodes.
NO_SANDBOXES = Settings(sandbox_provider="none", max_concurrent_sessions=4)


async def run_batch(harness: str, home: Path, bin_dir: Path, task_ids: list[str], **env: str) -> tuple[int, str, str]:
    """Run examples/<harness>/run-batch.sh with ``bin_dir`` first on PATH; ``(exit status, stdout, stderr)``."""
    full_env = {"PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(home),
                "LANG": "C.UTF-8", "RUNS_DIR": str(home / "runs"), "MODEL_API_KEY": "unused", **env}  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        "bash", str(EXAMPLES / harness / "run-batch.sh"), *task_ids, cwd=home, env=full_env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def verdicts(stdout: str) -> dict[str, dict[str, Any]]:
    return {task_id: json.loads(text) for task_id, text in (line.split("\t", 1) for line in stdout.splitlines())}


@pytest.mark.parametrize("harness", sampled(list(LAUNCHED), 1, seed="seeds-a-cli-row"))
async def test_run_batch_seeds_a_cli_row_over_mcp(harness: str, tmp_path: Path) -> None:
    """The launchers' configs give the harness MCP tools only, so every row, cli too, is seeded with exposure mcp."""
    require_binary("curl")
    require_binary("node")
    task = cli_task()
    body = CONNECTED.get(harness, "") + "\nexit 0"  # plays nothing: the seed is the point
    bin_dir = fake_harness(tmp_path / "bin", LAUNCHED[harness], body)
    async with recording_gateway(NO_SANDBOXES, {task.id: task}) as (base, seeds):
        code, out, err = await run_batch(harness, tmp_path, bin_dir, [task.id], GATEWAY=base)
    assert code == 0, err
    assert [s["task_id"] for s in seeds] == [task.id]
    assert seeds[0]["exposure"] == "mcp", seeds[0]  # not the row's "cli"
    assert {"company_calendar_update_event", "company_complete_task"} <= set(seeds[0]["tools"])
    verdict = verdicts(out)[task.id]
    assert verdict["reward"] == 0.0 and verdict["mask_sample"] is False, verdict  # verified: nothing was played
    assert "timed_out" not in verdict


@pytest.mark.slow
@pytest.mark.parametrize("harness", ["codex", "pi", "claude-code", "gemini-cli", "openclaw"])
async def test_run_batch_verifies_an_episode_cut_off_by_its_timeout(harness: str, tmp_path: Path) -> None:
    """A harness still running after EPISODE_TIMEOUT_S is stopped (with its children) and the episode verified."""
    require_binary("curl")
    require_binary("node")
    require_binary("timeout")
    task = cli_task()
    child = tmp_path / "child.pid"
    body = CONNECTED.get(harness, "") + f'\nsleep 60 & echo $! > "{child}"; wait'
    bin_dir = fake_harness(tmp_path / "bin", LAUNCHED[harness], body)
    async with recording_gateway(NO_SANDBOXES, {task.id: task}) as (base, seeds):
        started = time.perf_counter()
        # The model's URL must answer (any HTTP status will do), or the cut-off episode is masked: the gateway's.
        code, out, err = await run_batch(harness, tmp_path, bin_dir, [task.id], GATEWAY=base, EPISODE_TIMEOUT_S="1",
                                         MODEL_URL=base)  # fmt: skip
        seconds = time.perf_counter() - started
    assert code == 0, err
    assert seconds < 15, f"run-batch.sh took {seconds:.1f} s with EPISODE_TIMEOUT_S=1"
    verdict = verdicts(out)[task.id]
    assert verdict["timed_out"] is True and verdict["timeout_s"] == 1, verdict
    assert verdict["session_id"] == seeds[0]["session_id"]
    assert verdict["reward"] == 0.0 and verdict["mask_sample"] is False and verdict["checks"], verdict
    pid = int(child.read_text())
    status = Path(f"/proc/{pid}/status")
    assert not status.exists() or "\tZ" in status.read_text(), "the harness's child outlived the timeout"


@pytest.mark.slow
@pytest.mark.parametrize("harness", list(LAUNCHED))
@pytest.mark.parametrize("model", ["unreachable", "answering"])
async def test_run_batch_masks_a_failed_episode_only_when_the_model_gives_no_answer(
    harness: str, model: str, tmp_path: Path
) -> None:
    """A harness that exits non-zero: masked as model_unreachable when the model's URL takes no connection (the
    launcher's own probe, not the harness's words), else reported as an error; neither is verified, both closed."""
    require_binary("curl")
    require_binary("node")
    task = cli_task()
    bin_dir = fake_harness(tmp_path / "bin", LAUNCHED[harness], CONNECTED.get(harness, "") + "\nexit 3")
    with socket.socket() as probe:  # a loopback port nobody listens on: bound for a moment, then released
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    async with recording_gateway(NO_SANDBOXES, {task.id: task}) as (base, seeds):
        code, out, err = await run_batch(harness, tmp_path, bin_dir, [task.id], GATEWAY=base,
                                         MODEL_URL=dead if model == "unreachable" else base)  # fmt: skip
        async with httpx.AsyncClient(base_url=base) as control:
            state = (await control.get("/task_state", params={"session_id": seeds[0]["session_id"]})).json()
    assert code == 0, err
    verdict = verdicts(out)[task.id]
    if model == "unreachable":
        masked = {"session_id": seeds[0]["session_id"], "reward": 0.0, "checks": [], "mask_sample": True,
                  "failure_kind": "model_unreachable", "failure_reason": verdict["failure_reason"]}  # fmt: skip
        assert verdict == masked, verdict
        assert dead in verdict["failure_reason"] and LAUNCHED[harness] in verdict["failure_reason"], verdict
    else:
        assert list(verdict) == ["error"] and LAUNCHED[harness] in verdict["error"], verdict
    assert state["status"] == "closed", state


@pytest.mark.slow
@pytest.mark.parametrize("harness", list(LAUNCHED))
async def test_run_batch_reports_a_refused_seed_and_runs_no_harness(harness: str, tmp_path: Path) -> None:
    require_binary("curl")
    require_binary("node")
    task = cli_task()
    ran = tmp_path / "ran"
    bin_dir = fake_harness(tmp_path / "bin", LAUNCHED[harness], CONNECTED.get(harness, "") + f'\necho run >> "{ran}"')
    async with recording_gateway(NO_SANDBOXES, {task.id: task}) as (base, seeds):
        code, out, err = await run_batch(harness, tmp_path, bin_dir, ["no-such-task", task.id], GATEWAY=base)
    assert code == 0, err
    found = verdicts(out)
    assert "no task 'no-such-task'" in found["no-such-task"]["error"], found  # the gateway's own error line
    assert "reward" in found[task.id]  # the next task still ran
    assert [s["task_id"] for s in seeds] == [task.id]
    assert ran.read_text() == "run\n"  # once, for the second task: none for the refused seed


@pytest.mark.slow
@pytest.mark.parametrize("harness", list(LAUNCHED))
async def test_run_batch_renews_the_lease_while_a_slow_harness_runs(harness: str, tmp_path: Path) -> None:
    """A harness quiet for three leases keeps its session: the launcher renews it in the background."""
    require_binary("curl")
    require_binary("node")
    task = cli_task()
    bin_dir = fake_harness(tmp_path / "bin", LAUNCHED[harness], CONNECTED.get(harness, "") + "\nsleep 3; exit 0")
    settings = NO_SANDBOXES.model_copy(update={"session_lease_s": 1.0})
    async with recording_gateway(settings, {task.id: task}) as (base, seeds):
        code, out, err = await run_batch(harness, tmp_path, bin_dir, [task.id], GATEWAY=base)
    assert code == 0, err
    verdict = verdicts(out)[task.id]
    assert verdict["session_id"] == seeds[0]["session_id"]
    assert verdict["mask_sample"] is False and verdict["failure_kind"] is None and verdict["checks"], verdict
