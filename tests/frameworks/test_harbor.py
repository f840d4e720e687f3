"""``company-gateway harbor-export``, and Harbor's own trial runner over its export with Terminus 2.

The export tests need nothing but this venv. The end-to-end test needs Harbor in its own venv
(``bash scripts/install-harbor.sh``), the ``docker`` client and a Docker Engine API (podman's socket here): it
skips without them, and fails under ``CI=true``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import tomllib
from collections import Counter
from pathlib import Path

import httpx
import pytest

from gateway import Settings, create_app
from gateway.control.rows import Task, load_builtin_tasks
from gateway.runners.cli import main
from gateway.runners.harbor_export import ADAPTER_MODULE, export_harbor, pick_tasks
from gateway.runners.model import Call, GatewayReferences, ScriptedModel, Turn, serve_model
from gateway.surfaces.serve import serve_in_background
from sandbox.docker import DockerProvider
from tests.conftest import require_binary
from tests.frameworks.venvs import free_port
from tests.harness.conftest import missing_tool, run_harness
from tests.sandbox.conftest import HOST_BINDS

REPO = Path(__file__).resolve().parents[2]
#: Where scripts/install-harbor.sh puts Harbor's venv (HARBOR_VENV overrides it, as it does for the script).
HARBOR_VENV = Path(os.environ.get("HARBOR_VENV", Path.home() / ".cache" / "company-gateway" / "harbor-0.25.0"))
TASKS = load_builtin_tasks()
SOLVED, PROBED = "hd-radiator-for-hannah", "mc-tailspin-travel-filter"
#: What the model types for PROBED: each prints one ``name:value`` line the test looks for in the terminal text.
PROBES = [
    'echo "workdir:$(pwd)"',
    'echo "api:$COMPANY_API_URL"',
    'curl -s -o /dev/null -w "control:%{http_code}\\n" --unix-socket "$COMPANY_API_SOCKET" -X POST '
    '"${COMPANY_API_URL%/api}/verify" -d "{}"',
    'curl -s -m 3 -o /dev/null -w "tcp:%{http_code}\\n" "${COMPANY_API_URL%/api}/health"',
]


class ProbingModel(ScriptedModel):
    """The package's scripted model, except that PROBED's first turn types :data:`PROBES` and claims completion."""

    async def reply(self, turn: Turn) -> Call | str:
        if TASKS[PROBED].instruction in turn.text and turn.replies == 0:
            keys = [{"keystrokes": command + "\n", "duration": 1.0} for command in PROBES]
            return json.dumps({"analysis": "Look around.", "plan": "Probe.", "commands": keys, "task_complete": False})
        return await super().reply(turn)


def _export(tmp_path: Path, ids: list[str], url: str = "http://127.0.0.1:8000") -> Path:
    out = tmp_path / "export"
    export_harbor(out, pick_tasks(TASKS, ids), url)
    return out


def test_export_writes_one_harbor_task_folder_per_task_and_a_job_config(tmp_path: Path) -> None:
    out = _export(tmp_path, [PROBED, SOLVED], "http://127.0.0.1:8123/")
    assert sorted(p.name for p in (out / "tasks").iterdir()) == sorted([SOLVED, PROBED])
    for task_id in (SOLVED, PROBED):
        folder = out / "tasks" / task_id
        config = tomllib.loads((folder / "task.toml").read_text())
        assert config["task"]["name"] == f"company/{task_id}"
        assert config["agent"]["timeout_sec"] == 600.0
        assert (folder / "instruction.md").read_text() == TASKS[task_id].instruction.rstrip() + "\n"
        test_sh = folder / "tests" / "test.sh"
        assert os.access(test_sh, os.X_OK)
        assert subprocess.run(["sh", str(test_sh)], capture_output=True, check=False).returncode == 1
    job = json.loads((out / "job.yaml").read_text())
    assert job["environment"]["import_path"] == f"{ADAPTER_MODULE}:CompanyGatewayEnvironment"
    assert job["environment"]["kwargs"] == {"gateway_url": "http://127.0.0.1:8123", "exposure": "cli"}
    assert job["verifier"]["import_path"] == f"{ADAPTER_MODULE}:CompanyGatewayVerifier"
    assert job["datasets"] == [{"path": str((out / "tasks").resolve())}]
    shipped = REPO / "gateway" / "runners" / "harbor_files" / f"{ADAPTER_MODULE}.py"
    assert (out / f"{ADAPTER_MODULE}.py").read_text() == shipped.read_text()


def test_the_adapter_imports_neither_the_gateway_nor_its_packages() -> None:
    source = (REPO / "gateway" / "runners" / "harbor_files" / f"{ADAPTER_MODULE}.py").read_text()
    imported = re.findall(r"^(?:from|import) ([a-z_]+)", source, flags=re.M)
    assert "harbor" in imported
    assert not {"gateway", "tools", "sandbox", "cli_shim", "docs_tool"} & set(imported)


def test_pick_tasks_keeps_named_ids_once_in_id_order() -> None:
    assert [t.id for t in pick_tasks(TASKS, [SOLVED, PROBED, SOLVED])] == sorted([SOLVED, PROBED])
    assert [t.id for t in pick_tasks(TASKS)] == sorted(TASKS)
    with pytest.raises(ValueError, match="no task to export"):
        pick_tasks({})


def test_split_exports_only_that_splits_rows(tmp_path: Path, capsys) -> None:
    counts = Counter(t.split for t in TASKS.values())
    split = min(counts, key=counts.__getitem__)  # the smallest split: it leaves rows out
    assert main(["harbor-export", str(tmp_path / "out"), "--split", split]) == 0
    written = sorted(p.name for p in (tmp_path / "out" / "tasks").iterdir())
    assert written == sorted(t.id for t in TASKS.values() if t.split == split)
    assert len(written) < len(TASKS)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tasks", "no-such-task"], "--tasks names task ids not among the selected tasks: no-such-task"),
        (["--agent-timeout", "0"], "--agent-timeout must be above 0 seconds"),
    ],
)
def test_bad_options_are_one_line_usage_errors(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    assert main(["harbor-export", str(tmp_path / "out"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("company-gateway harbor-export: ")
    assert message in err
    assert err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_an_exposure_without_a_shell_is_refused_by_the_parser(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["harbor-export", str(tmp_path / "out"), "--exposure", "mcp"])
    assert exited.value.code == 2
    assert "--exposure: invalid choice: 'mcp' (choose from 'cli', 'http')" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_command_writes_the_named_tasks(tmp_path: Path, capsys) -> None:
    assert main(["harbor-export", str(tmp_path / "out"), "--tasks", f"{SOLVED},{PROBED}"]) == 0
    assert "wrote 2 Harbor task folder(s)" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "out" / "tasks").iterdir()) == sorted([SOLVED, PROBED])


# ---- Harbor's trial runner, Terminus 2, a scripted model ---------------------------------------------------


def _harbor() -> str:
    harbor = HARBOR_VENV / "bin" / "harbor"
    if not (harbor.is_file() and os.access(harbor, os.X_OK)):
        missing_tool(f"Harbor is not installed at {harbor}; run `bash scripts/install-harbor.sh`")
    return str(harbor)


def _user_text(body: dict[str, object]) -> str:
    messages = body.get("messages")
    assert isinstance(messages, list)
    return "\n".join(str(m.get("content")) for m in messages if m.get("role") == "user")


@pytest.mark.slow
@pytest.mark.podman
@pytest.mark.timeout(300)
async def test_harbor_runs_terminus_2_in_the_session_sandbox_and_records_the_gateway_reward(
    docker_host: str, tmp_path: Path
) -> None:
    harbor = _harbor()
    engine = "docker" if shutil.which("docker") else "podman"  # the engine's client the adapter execs with
    require_binary(engine)
    tasks: dict[str, Task] = {i: TASKS[i] for i in (SOLVED, PROBED)}
    owner = f"test-harbor-{secrets.token_hex(4)}"
    provider = DockerProvider(owner=owner, base_url=docker_host, host_binds=HOST_BINDS)
    # A 3 s lease: the agent's shell runs in the container, not through the gateway, so only the adapter's
    # renewals keep the session (an abandoned one would be masked, not scored 1.0).
    settings = Settings(sandbox_provider="docker", sandbox_owner=owner, session_lease_s=3)
    app = create_app(settings, tasks=tasks, provider=provider)
    try:
        async with serve_in_background(app) as gateway_url:
            model = ProbingModel(GatewayReferences(gateway_url))  # Terminus 2's JSON turns, learnt from the prompt
            async with serve_model(model) as model_url:
                out = _export(tmp_path, list(tasks), gateway_url)
                home = tmp_path / "home"
                home.mkdir()
                env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8",
                       "DOCKER_HOST": docker_host, "PYTHONPATH": str(out), "OPENAI_API_KEY": "scripted",
                       "LITELLM_LOCAL_MODEL_COST_MAP": "True"}  # fmt: skip
                argv = [harbor, "run", "-c", str(out / "job.yaml"), "-o", str(tmp_path / "jobs"), "-n", "2",
                        "--ek", f"engine={engine}",
                        "-a", "terminus-2", "-m", "openai/scripted", "--ak", f"api_base={model_url}",
                        "--ak", "record_terminal_session=false"]  # fmt: skip
                run = await run_harness(argv, env=env, cwd=tmp_path, timeout_s=240)
                assert run.returncode == 0, str(run)
                async with httpx.AsyncClient(base_url=gateway_url) as control:
                    metrics = (await control.get("/metrics")).text
    finally:
        reaper = DockerProvider(owner=owner, base_url=docker_host)
        assert await reaper.reap() == []  # every sandbox the gateway lent was removed
        await reaper.close()
        await provider.close()

    assert model.errors == []
    results, folders = {}, {}
    for path in (tmp_path / "jobs").glob("*/*/result.json"):
        trial = json.loads(path.read_text())
        results[trial["task_name"]], folders[trial["task_name"]] = trial, path.parent
    assert sorted(results) == sorted(f"company/{i}" for i in tasks)
    solved, probed = results[f"company/{SOLVED}"], results[f"company/{PROBED}"]
    assert solved["exception_info"] is None and probed["exception_info"] is None
    assert solved["verifier_result"]["rewards"] == {"reward": 1.0}
    assert probed["verifier_result"]["rewards"] == {"reward": 0.0}
    verified = json.loads((folders[f"company/{SOLVED}"] / "verifier" / "verify.json").read_text())
    assert verified["mask_sample"] is False and all(c["passed"] for c in verified["checks"])
    assert re.search(r"^gateway_sessions_live 0(\.0)?$", metrics, flags=re.M), metrics

    # What the agent's shell saw, as Terminus 2 sent it to the model: the session's workspace and API, a
    # control route refused through the API socket, and no TCP route to the gateway's port.
    seen = "\n".join(_user_text(body) for _, body in model.requests if TASKS[PROBED].instruction in _user_text(body))
    assert "workdir:/workspace" in seen
    assert re.search(r"^api:http://\S+/api$", seen, flags=re.M), seen
    assert "control:403" in seen
    assert "tcp:000" in seen


@pytest.mark.slow
@pytest.mark.podman
@pytest.mark.timeout(300)
async def test_an_unreachable_model_errors_the_trial_masks_its_record_and_leaves_nothing(
    docker_host: str, tmp_path: Path
) -> None:
    harbor = _harbor()
    engine = "docker" if shutil.which("docker") else "podman"
    require_binary(engine)
    tasks: dict[str, Task] = {SOLVED: TASKS[SOLVED]}
    owner = f"test-harbor-{secrets.token_hex(4)}"
    provider = DockerProvider(owner=owner, base_url=docker_host, host_binds=HOST_BINDS)
    app = create_app(Settings(sandbox_provider="docker", sandbox_owner=owner), tasks=tasks, provider=provider)
    try:
        async with serve_in_background(app) as gateway_url:
            out = _export(tmp_path, list(tasks), gateway_url)
            home = tmp_path / "home"
            home.mkdir()
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8",
                   "DOCKER_HOST": docker_host, "PYTHONPATH": str(out), "OPENAI_API_KEY": "scripted",
                   "LITELLM_LOCAL_MODEL_COST_MAP": "True"}  # fmt: skip
            argv = [harbor, "run", "-c", str(out / "job.yaml"), "-o", str(tmp_path / "jobs"), "-n", "1",
                    "--ek", f"engine={engine}", "-a", "terminus-2", "-m", "openai/scripted",
                    "--ak", f"api_base=http://127.0.0.1:{free_port()}/v1",
                    "--ak", "record_terminal_session=false"]  # fmt: skip
            run = await run_harness(argv, env=env, cwd=tmp_path, timeout_s=240)
            async with httpx.AsyncClient(base_url=gateway_url) as control:
                metrics = (await control.get("/metrics")).text
            live = len(app.state.gateway.store)
    finally:
        reaper = DockerProvider(owner=owner, base_url=docker_host)
        assert await reaper.reap() == []  # the trial's sandbox was removed with its session
        await reaper.close()
        await provider.close()
    (path,) = (tmp_path / "jobs").glob("*/*/result.json")
    trial = json.loads(path.read_text())
    assert trial["exception_info"] is not None, str(run)  # an errored trial, never a 0.0
    assert not (trial.get("verifier_result") or {}).get("rewards"), trial["verifier_result"]
    (record_file,) = path.parent.rglob("episode.json")
    record = json.loads(record_file.read_text())
    assert (record["mask_sample"], record["task_id"]) == (True, SOLVED), record
    assert record["failure_kind"] == "agent_error" and record["reward"] == 0.0, record
    assert live == 0 and re.search(r"^gateway_sessions_live 0(\.0)?$", metrics, flags=re.M), metrics


#: Run in Harbor's venv against the exported adapter: a masked /verify answer, an unreachable gateway, a bad URL.
_ADAPTER_CHECK = """
import asyncio, json, sys
from pathlib import Path
from harbor.models.trial.paths import TrialPaths
from company_gateway_harbor import CompanyGatewayEnvironment, CompanyGatewayVerifier, GatewayError, MaskedSession

async def main():
    out = {}
    env = object.__new__(CompanyGatewayEnvironment)  # no trial: only what verify, control and the record read
    env.environment_dir = Path(sys.argv[1]) / "task-x" / "environment"
    env.timings = {}
    env.gateway_session = {"session_id": "s_1"}
    env.verify_result = {"session_id": "s_1", "reward": 0.0, "checks": [], "mask_sample": True,
                         "failure_kind": "provider_unavailable", "failure_reason": "the engine went away"}
    verifier = CompanyGatewayVerifier(task=None, trial_paths=TrialPaths(trial_dir=Path(sys.argv[1])), environment=env)
    try:
        out["masked"] = await verifier.verify()
    except MaskedSession as exc:
        out["masked"] = "MaskedSession: " + str(exc)
    env.gateway_url, env.timeout_s, env.control_token_env = sys.argv[2], 5.0, "UNSET_TOKEN_VARIABLE"
    try:
        out["unreached"] = await env.control("verify", {"session_id": "s_1"})
    except GatewayError as exc:
        out["unreached"] = "GatewayError: " + str(exc)
    try:
        CompanyGatewayEnvironment(gateway_url="127.0.0.1:8000")
    except ValueError as exc:
        out["bad_url"] = str(exc)
    print(json.dumps(out, default=str))

asyncio.run(main())
"""


def test_the_adapter_turns_a_masked_session_into_a_trial_error_and_names_an_unreachable_gateway(
    tmp_path: Path,
) -> None:
    harbor = Path(_harbor())
    out = _export(tmp_path, [SOLVED])
    with socket.socket() as s:  # a port nothing listens on: connections to it are refused
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    trial = tmp_path / "trial"
    run = subprocess.run(
        [str(harbor.parent / "python"), "-c", _ADAPTER_CHECK, str(trial), closed], capture_output=True, text=True,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(out), "HOME": str(tmp_path)},
        timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["masked"] == "MaskedSession: masked by the gateway: provider_unavailable: the engine went away"
    (record_file,) = trial.rglob("episode.json")  # the masked trial still leaves its episode record
    record = json.loads(record_file.read_text())
    seen_record = (record["task_id"], record["mask_sample"], record["failure_kind"])
    assert seen_record == ("task-x", True, "provider_unavailable")
    assert json.loads((trial / "verifier" / "verify.json").read_text())["mask_sample"] is True
    assert not (trial / "verifier" / "reward.txt").exists()
    assert seen["unreached"].startswith(f"GatewayError: verify: the gateway at {closed} could not be reached")
    assert seen["bad_url"].startswith("gateway_url must be the gateway's http(s) base URL")
