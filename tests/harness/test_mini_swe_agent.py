"""mini-SWE-agent's shell runs inside the session's sandbox: what the agent's bash can and cannot reach.

examples/mini-swe-agent/sandbox_env.py runs each of the agent's commands through the gateway's own local provider.
From there the app commands work, and the control routes, the gateway's files and the task data are out of reach:
each is tried here from that shell, against a gateway that has a control token set. Then run_batch.py plays with
the real mini-swe-agent (in the venv scripts/install-harnesses.sh makes) against a scripted model.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shlex
import shutil
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
import yaml

import gateway
from gateway import Settings, create_app
from gateway.control.workspace import task_data_folder
from gateway.runners.model import GatewayReferences, ScriptedModel, serve_model
from gateway.surfaces.serve import serve_in_background
from tests.conftest import require_binary
from tests.harness.conftest import EXAMPLES, REPO, TASKS, harness_env, missing_tool, run_harness

pytestmark = [pytest.mark.harness, pytest.mark.slow]  # a Python venv and a gateway per test

CONTROL_TOKEN = "control-token-for-tests"
#: The Python with mini-swe-agent and this package installed (scripts/install-harnesses.sh makes it).
MINI_PYTHON = Path(os.environ.get("MINI_SWE_AGENT_PYTHON", REPO / ".harness" / "mini-swe-agent" / "bin" / "python"))


def example_module(name: str) -> ModuleType:
    """Import ``examples/mini-swe-agent/<name>.py`` (its folder name is no package name)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / "mini-swe-agent" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
async def cli_session(tmp_path: Path) -> AsyncIterator[tuple[Settings, httpx.AsyncClient, dict[str, Any]]]:
    """A gateway with a control token and local sandboxes under ``tmp_path``, and a seeded cli session."""
    require_binary("bwrap")
    require_binary("curl")
    settings = Settings(sandbox_provider="local", sandbox_root=str(tmp_path / "boxes"), control_token=CONTROL_TOKEN)
    app = create_app(settings, tasks=TASKS)
    headers = {"Authorization": f"Bearer {CONTROL_TOKEN}"}
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, headers=headers) as control:
        r = await control.post("/seed_session", json={"task_id": "cal-move-ops-sync", "exposure": "cli"})
        assert r.status_code == 200, r.text
        yield settings, control, r.json()


async def test_the_agents_shell_reaches_the_apps_but_not_the_control_routes_or_task_data(
    cli_session: tuple[Settings, httpx.AsyncClient, dict[str, Any]],
) -> None:
    settings, control, seed = cli_session
    shell = await asyncio.to_thread(example_module("sandbox_env").SandboxShell, seed["sandbox"]["id"], settings)
    host = str(control.base_url).rstrip("/")

    async def sh(command: str) -> Any:
        return await asyncio.to_thread(shell.run, command, 60)

    try:
        apps = await sh("calendar list-events --start=2026-01-01T00:00:00Z --end=2026-12-31T00:00:00Z")
        assert apps.returncode == 0 and "events" in json.loads(apps.output), apps  # the shell works
        # Over TCP, at the address the gateway serves on: the sandbox has no network (curl: 7, cannot connect).
        tcp = await sh(f"curl -sS -o /dev/null -w '%{{http_code}}' {shlex.quote(host + '/tasks')}")
        assert tcp.returncode == 7 and "200" not in tcp.output, tcp
        # Through the API's unix socket, the only way out: every control route refuses (403), token or not.
        for route, data in (("/tasks", None), ("/verify", json.dumps({"session_id": seed["session_id"]}))):
            post = f"-d {shlex.quote(data)} " if data else ""
            for auth in ("", f"-H 'Authorization: Bearer {CONTROL_TOKEN}' "):
                via_socket = await sh(f'curl -sS -o /dev/null -w "%{{http_code}}" --unix-socket "$COMPANY_API_SOCKET" '
                                      f'{auth}{post}"${{COMPANY_API_URL%/api}}{route}"')  # fmt: skip
                assert via_socket.output == "403", (route, auth, via_socket)
        state = await control.get("/task_state", params={"session_id": seed["session_id"]})
        assert state.json()["status"] == "active", state.text  # /verify did not run
        # The task rows (checks, reference solutions) and the gateway's own files are nowhere in sight.
        assert (Path(task_data_folder()) / "rows" / "core.jsonl").is_file()  # there is something to hide
        assert (Path(task_data_folder()) / "families" / "gmail_forward_invoice.py").is_file()  # families too
        found = await sh("find / -path /proc -prune -o \\( -path '*/tasks/rows/*.jsonl' -o -name core.jsonl "
                         "-o -name gmail_forward_invoice.py \\) -print 2>/dev/null; echo end")  # fmt: skip
        assert found.output.strip() == "end", found
        for path in (task_data_folder(), str(Path(gateway.__file__).parent), str(REPO)):
            listed = await sh(f"ls {shlex.quote(path)}")
            assert listed.returncode != 0, (path, listed)
        env = await sh("env")
        assert CONTROL_TOKEN not in env.output and "MODEL_API_KEY" not in env.output, env
    finally:
        shell.close()


async def test_run_batch_plays_in_the_sandbox_with_a_control_token_and_prints_json_lines_only(tmp_path: Path) -> None:
    """The real mini-swe-agent: a reference play scores 1.0, a wrong answer 0.0; stdout holds only their lines."""
    require_binary("bwrap")
    if not MINI_PYTHON.is_file():
        missing_tool(f"no mini-swe-agent venv at {MINI_PYTHON}; run `bash scripts/install-harnesses.sh`")
    right, wrong = TASKS["cal-move-ops-sync"], TASKS["dir-manager-of-owen"]
    boxes = tmp_path / "boxes"
    settings = Settings(sandbox_provider="local", sandbox_root=str(boxes), control_token=CONTROL_TOKEN,
                        max_concurrent_sessions=4)  # fmt: skip
    async with serve_in_background(create_app(settings, tasks=TASKS)) as base:
        # The package's model, as `company-gateway model` runs it: it learns each session through the control plane
        # (with the control token), plays the right task's reference and the other's negative control (a wrong answer).
        model = ScriptedModel(GatewayReferences(base, CONTROL_TOKEN), policies={wrong.id: "wrong"})
        async with serve_model(model) as model_url:
            folder = tmp_path / "mini-swe-agent"
            shutil.copytree(EXAMPLES / "mini-swe-agent", folder)
            config = yaml.safe_load((folder / "mini.yaml").read_text())
            config["model"]["model_kwargs"]["api_base"] = model_url
            (folder / "mini.yaml").write_text(yaml.safe_dump(config))
            env = harness_env(tmp_path, GATEWAY=base, GATEWAY_SANDBOX_ROOT=str(boxes),
                              GATEWAY_CONTROL_TOKEN=CONTROL_TOKEN, MODEL_API_KEY="unused",
                              LITELLM_LOCAL_MODEL_COST_MAP="True", MSWEA_CONFIGURED="true",
                              MSWEA_GLOBAL_CONFIG_DIR=str(tmp_path / "mswea"), PYTHONPATH=str(REPO))  # fmt: skip
            run = await run_harness([str(MINI_PYTHON), str(folder / "run_batch.py"), right.id, wrong.id], env=env,
                                    cwd=tmp_path, timeout_s=240)  # fmt: skip
    assert run.returncode == 0, str(run)
    assert model.errors == [], str(run)
    rows = [json.loads(line) for line in run.stdout.splitlines()]  # fails on any line that is not JSON
    assert {r["task_id"]: (r["reward"], r["mask_sample"], r["exit_status"]) for r in rows} == {
        right.id: (1.0, False, "Submitted"),
        wrong.id: (0.0, False, "Submitted"),
    }, str(run)
    commands = [json.loads(c["function"]["arguments"])["command"] for _, body in model.requests
                for m in body["messages"] for c in m.get("tool_calls") or []]  # fmt: skip
    assert any(c.startswith("calendar update-event") for c in commands), commands


async def test_run_batch_masks_an_episode_whose_model_cannot_be_reached(tmp_path: Path) -> None:
    """The model's URL is a port nobody listens on: litellm's connection error masks the line, the batch goes on."""
    require_binary("bwrap")
    if not MINI_PYTHON.is_file():
        missing_tool(f"no mini-swe-agent venv at {MINI_PYTHON}; run `bash scripts/install-harnesses.sh`")
    task = TASKS["cal-move-ops-sync"]
    boxes = tmp_path / "boxes"
    settings = Settings(sandbox_provider="local", sandbox_root=str(boxes), control_token=CONTROL_TOKEN)
    with socket.socket() as probe:  # a loopback port nobody listens on: bound for a moment, then released
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    async with serve_in_background(create_app(settings, tasks=TASKS)) as base:
        folder = tmp_path / "mini-swe-agent"
        shutil.copytree(EXAMPLES / "mini-swe-agent", folder)
        config = yaml.safe_load((folder / "mini.yaml").read_text())
        config["model"]["model_kwargs"]["api_base"] = dead
        (folder / "mini.yaml").write_text(yaml.safe_dump(config))
        env = harness_env(tmp_path, GATEWAY=base, GATEWAY_SANDBOX_ROOT=str(boxes), GATEWAY_CONTROL_TOKEN=CONTROL_TOKEN,
                          MODEL_API_KEY="unused", LITELLM_LOCAL_MODEL_COST_MAP="True", MSWEA_CONFIGURED="true",
                          MSWEA_GLOBAL_CONFIG_DIR=str(tmp_path / "mswea"), PYTHONPATH=str(REPO),
                          MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT="1")  # fmt: skip
        run = await run_harness([str(MINI_PYTHON), str(folder / "run_batch.py"), task.id], env=env, cwd=tmp_path,
                                timeout_s=120)  # fmt: skip
        headers = {"Authorization": f"Bearer {CONTROL_TOKEN}"}
        async with httpx.AsyncClient(base_url=base, headers=headers) as control:
            metrics = (await control.get("/metrics")).text
    assert run.returncode == 0, str(run)
    rows = [json.loads(line) for line in run.stdout.splitlines()]  # fails on any line that is not JSON
    assert [(r["task_id"], r["reward"], r["mask_sample"], r["failure_kind"]) for r in rows] == [
        (task.id, 0.0, True, "model_unreachable")
    ], str(run)
    assert "Connection error" in rows[0]["failure_reason"], rows
    assert "gateway_sessions_live 0.0" in metrics.splitlines(), metrics  # the session was closed
