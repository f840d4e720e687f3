"""NeMo Gym against a live gateway: ``gym-export``, then Gym's own runner (``gym env start`` + ``gym eval run``).

The Gym tests run the pinned nemo-gym that ``scripts/install-gym.sh`` puts in a venv of its own (CPython 3.13);
they skip with the reason when it is missing, and fail under ``CI=true``. The model is the package's scripted
model (``company-gateway model``), learning each session from the gateway's control plane: it plays the
reference solution of two tasks and a negative control (a wrong answer) of a third.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import warnings
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import gateway
from gateway import Settings, create_app
from gateway.control.rows import Task, load_tasks, tools_for
from gateway.runners.cli import main
from gateway.runners.gym_export import export_gym, gym_row, select_tasks
from gateway.runners.model import GatewayReferences, ScriptedModel, serve_model
from gateway.surfaces.serve import serve_in_background

REPO = Path(__file__).resolve().parents[2]
TASKS: dict[str, Task] = load_tasks(Path(gateway.__file__).parent / "tasks" / "rows" / "core.jsonl")
#: Played right (reward 1.0), and played wrong (a negative control: reward 0.0).
RIGHT = ("cal-move-ops-sync", "multi-share-talking-points-people-team")
WRONG = "dir-manager-of-owen"
#: Where scripts/install-gym.sh puts Gym (GYM_HOME overrides, as there).
GYM_HOME = Path(os.environ.get("GYM_HOME") or Path.home() / ".cache" / "company-gateway" / "nemo-gym-0.7.0")
#: Longest a Gym command may take (s): Ray and five servers start in ~60 s on 2 busy cores.
GYM_TIMEOUT_S = 420.0
#: Longest ``gym env start`` may print nothing (s) before the start is taken as hung: while it waits for its
#: servers it prints every 30 s.
GYM_START_S = 150.0
#: Longest Gym itself waits for its servers once started (s); it then exits saying which it waited for.
GYM_SPINUP_S = 240.0

#: A start made again is reported in the run's warnings summary, not raised (warnings are errors here).
pytestmark = pytest.mark.filterwarnings("always:gym env start failed once:UserWarning")


# ---- gym-export, in this venv ---------------------------------------------------------------------


def test_gym_export_writes_the_server_folder_gym_finds(tmp_path):
    tasks = [TASKS[t] for t in (*RIGHT, WRONG)]
    server = export_gym(tmp_path, tasks)
    assert server == tmp_path / "resources_servers" / "company_gateway"
    files = sorted(str(p.relative_to(server)) for p in server.rglob("*") if p.is_file())
    configs = ["configs/company_gateway.yaml", "configs/company_gateway_single_agent_turn.yaml"]
    assert files == ["README.md", "app.py", *configs, "data/tasks.jsonl", "requirements.txt"]
    rows = [json.loads(line) for line in (server / "data" / "tasks.jsonl").read_text().splitlines()]
    assert [r["task_id"] for r in rows] == [*RIGHT, WRONG]
    for row, task in zip(rows, tasks, strict=True):
        params = row["responses_create_params"]
        assert params["input"] == [{"role": "user", "content": task.instruction}]
        assert [t["name"] for t in params["tools"]] == tools_for(task, "mcp")
        assert all(t["type"] == "function" and t["parameters"]["type"] == "object" for t in params["tools"])
    simple = (server / "configs" / "company_gateway.yaml").read_text()
    for name in ("company_gateway:", "company_gateway_simple_agent:", "legacy_agent:", "name: policy_model",
                 "${company_gateway_url}"):  # fmt: skip
        assert name in simple
    turn = (server / "configs" / "company_gateway_single_agent_turn.yaml").read_text()
    for name in ("single_agent_turn_legacy:", "company_gateway_session_agent:", "max_concurrent_episodes: 16"):
        assert name in turn
    app = (server / "app.py").read_text()
    assert "from nemo_gym" in app and "import gateway" not in app and "from gateway" not in app
    agent = tmp_path / "responses_api_agents" / "company_gateway_agent"
    assert sorted(p.name for p in agent.iterdir()) == ["app.py", "requirements.txt"]
    assert "class CompanyGatewayAgent(SimpleAgent)" in (agent / "app.py").read_text()
    assert "company_gateway_agent:" in simple and "company_gateway_agent:" in turn


def test_gym_export_writes_again_over_an_earlier_export(tmp_path):
    export_gym(tmp_path, [TASKS[t] for t in RIGHT])
    server = export_gym(tmp_path, [TASKS[WRONG]])
    rows = (server / "data" / "tasks.jsonl").read_text().splitlines()
    assert [json.loads(r)["task_id"] for r in rows] == [WRONG]


def test_a_row_lists_the_tools_of_its_apps_and_complete_task():
    row = gym_row(TASKS["multi-share-talking-points-people-team"])
    names = [t["name"] for t in row["responses_create_params"]["tools"]]
    assert names[-1] == "company_complete_task"
    assert {n.split("_")[1] for n in names[:-1]} == {"directory", "drive"}


def test_select_tasks_by_id_file_and_split(tmp_path):
    assert [t.id for t in select_tasks(["cal-move-ops-sync,dir-manager-of-owen"], None)] == [
        "cal-move-ops-sync", "dir-manager-of-owen"]  # fmt: skip
    rows = tmp_path / "rows.jsonl"
    rows.write_text(TASKS[WRONG].model_dump_json() + "\n")
    assert [t.id for t in select_tasks([str(rows)], None)] == [WRONG]
    everything = select_tasks(None, None)
    assert [t.id for t in select_tasks(None, "train")] == [
        t.id for t in everything if (getattr(t, "split", None) or "train") == "train"]  # fmt: skip


def test_the_command_line_exports_and_names_bad_options(tmp_path, capsys):
    assert main(["gym-export", str(tmp_path), "--tasks", f"{RIGHT[0]},{WRONG}"]) == 0
    assert capsys.readouterr().out.strip().endswith("company_gateway: 2 tasks")
    with pytest.raises(SystemExit) as exited:
        main(["gym-export", str(tmp_path), "--split", "dev"])
    assert exited.value.code == 2
    assert "--split: invalid choice: 'dev' (choose from 'train', 'validation', 'test')" in capsys.readouterr().err
    assert main(["gym-export", str(tmp_path), "--tasks", "no-such-task"]) == 2
    assert "--tasks: no task 'no-such-task'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["gym-export", str(tmp_path), "--tasks", WRONG, "--split", "train"])
    assert exited.value.code == 2


# ---- Gym itself, in its own venv ------------------------------------------------------------------


def gym_bin() -> Path:
    """The venv's bin folder; skips (fails under ``CI=true``) when scripts/install-gym.sh has not run."""
    bin_dir = GYM_HOME / "venv" / "bin"
    if not (bin_dir / "gym").is_file():
        reason = f"NeMo Gym is not installed in {bin_dir.parent}; run `bash scripts/install-gym.sh`"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
        pytest.skip(reason)
    return bin_dir


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def gym_env(bin_dir: Path, ray_dir: Path | None = None) -> dict[str, str]:
    """The environment of a Gym command: its venv first on PATH, Ray kept on loopback and in ``ray_dir``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "RAY_ADDRESS"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # keep Ray on 127.0.0.1 (the observation)
    if ray_dir is not None:
        # Ray joins the cluster named in <temp dir>/ray_current_cluster (another `ray start` on this machine)
        # instead of starting its own; a temp dir of this run's own has none.
        env["RAY_TMPDIR"] = str(ray_dir)
    return env


@contextlib.contextmanager
def ray_temp_dir() -> Iterator[Path]:
    """A short folder for Ray's files (its socket paths must stay under ~107 characters), removed after."""
    path = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.asynccontextmanager
async def live_gateway(**settings: Any) -> AsyncIterator[tuple[str, Any]]:
    app = create_app(Settings(**settings), dict(TASKS))
    async with serve_in_background(app) as base:
        yield base, app.state.gateway


def scripted_model(gateway_url: str) -> ScriptedModel:
    """Reference solutions for RIGHT, the first negative control (a wrong answer) for WRONG."""
    return ScriptedModel(GatewayReferences(gateway_url), policy="oracle", policies={WRONG: "wrong"})


@contextlib.asynccontextmanager
async def gym_servers(bin_dir: Path, cwd: Path, config: str, head: str, gateway_url: str, model_url: str,
                      ray_dir: Path, *extra: str) -> AsyncIterator[None]:  # fmt: skip
    """``gym env start`` with ``config`` and head server ``head``, until every server is ready; stopped as Ctrl-C
    would on leaving.

    A start that prints nothing for ``GYM_START_S`` (Ray's own start has hung so on a loaded CI machine) is
    stopped and made once more, in a fresh Ray folder; the first start's last lines are kept as a warning. A
    second failed start fails the test with its last lines.
    """
    argv = [str(bin_dir / "gym"), "env", "start", "--search-dir", str(cwd), "--config", config,
            "--config", "responses_api_models/openai_model/configs/openai_model.yaml",
            "--model-url", model_url, "--model-api-key", "unused", "--model", "scripted",
            f"+company_gateway_url={gateway_url}", head,
            f"+uv_venv_dir={GYM_HOME / 'server-venvs'}", "+skip_venv_if_present=true",
            f"++server_spinup_timeout_seconds={GYM_SPINUP_S:g}", *extra]  # fmt: skip
    log = (cwd / "gym-env-start.log").open("wb")
    try:
        for attempt, ray in enumerate((ray_dir, ray_dir / "again")):
            ray.mkdir(exist_ok=True)
            proc = await asyncio.create_subprocess_exec(*argv, cwd=cwd, env=gym_env(bin_dir, ray),
                                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                                        start_new_session=True)  # fmt: skip
            drainer = None
            try:
                failed = await _until_ready(proc, log)
                if failed is None:
                    drainer = asyncio.create_task(_drain(proc, log))
                    yield
                    return
            finally:
                await _stop(proc)
                if drainer is not None:
                    await drainer
            if attempt == 1:
                pytest.fail(f"gym env start failed twice; the second time:\n{failed}")
            warnings.warn(f"gym env start failed once and was made again; the first time:\n{failed}", stacklevel=1)
    finally:
        log.close()


async def _until_ready(proc: asyncio.subprocess.Process, log: Any) -> str | None:
    """None once ``proc`` says every server is ready; else why not (its exit or its silence, and its last lines)."""
    assert proc.stdout is not None
    lines: list[bytes] = []
    while True:
        try:
            with anyio.fail_after(GYM_START_S):
                line = await proc.stdout.readline()
        except TimeoutError:
            return f"nothing printed for {GYM_START_S:g} s after:\n{b''.join(lines[-60:]).decode(errors='replace')}"
        if not line:
            return f"exited {await proc.wait()}:\n{b''.join(lines[-60:]).decode(errors='replace')}"
        log.write(line)
        lines.append(line)
        if b"servers ready!" in line:
            return None


async def _drain(proc: asyncio.subprocess.Process, log: Any) -> None:
    assert proc.stdout is not None
    async for line in proc.stdout:
        log.write(line)


async def _stop(proc: asyncio.subprocess.Process) -> None:
    """Gym's own shutdown (its servers, then its Ray cluster), then whatever of its process group is left.

    A Ctrl-C to the whole group would take Ray's GCS down first and leave its workers waiting 60 s for it.
    """
    if proc.returncode is None:
        proc.send_signal(signal.SIGINT)
        with contextlib.suppress(TimeoutError), anyio.fail_after(120):
            await proc.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    await proc.wait()


async def run(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    with anyio.fail_after(GYM_TIMEOUT_S):
        done = await anyio.run_process(argv, cwd=cwd, env=env, check=False, stderr=subprocess.STDOUT)
    return done.returncode, done.stdout.decode(errors="replace")


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    ("config", "agent", "environment_server"),
    [
        ("company_gateway.yaml", "company_gateway_simple_agent", "company_gateway_environment_server"),
        (
            "company_gateway_single_agent_turn.yaml",
            "company_gateway_session_agent",
            "company_gateway_single_agent_turn",
        ),
    ],
    ids=["simple-agent", "environment-server"],
)
async def test_gym_rollouts_score_right_1_and_wrong_0_and_leave_no_session(tmp_path, config, agent,
                                                                           environment_server):  # fmt: skip
    bin_dir = gym_bin()
    server = export_gym(tmp_path, [TASKS[t] for t in (*RIGHT, WRONG)])
    head = f"+head_server={{host: 127.0.0.1, port: {free_port()}}}"  # Gym's default, 11000, may be taken
    with ray_temp_dir() as ray_dir:
        async with live_gateway() as (gateway_url, gw), serve_model(model := scripted_model(gateway_url)) as model_url:
            async with gym_servers(bin_dir, tmp_path, f"resources_servers/company_gateway/configs/{config}", head,
                                   gateway_url, model_url, ray_dir):  # fmt: skip
                rows, out_file = server / "data" / "tasks.jsonl", tmp_path / "rollouts.jsonl"
                argv = [str(bin_dir / "gym"), "eval", "run", "--no-serve", "--agent", agent, head,
                        "--input", str(rows), "--output", str(out_file)]  # fmt: skip
                code, out = await run(argv, tmp_path, gym_env(bin_dir, ray_dir))
                assert code == 0, out[-4000:]
                rollouts = [json.loads(line) for line in out_file.read_text().splitlines()]
                assert len(gw.store) == 0  # every session verified and closed
            assert len(gw.store) == 0
    assert model.errors == []
    by_task = {r["task_id"]: r for r in rollouts}
    assert sorted(by_task) == sorted((*RIGHT, WRONG)), out[-4000:]
    assert {t: by_task[t]["reward"] for t in by_task} == {RIGHT[0]: 1.0, RIGHT[1]: 1.0, WRONG: 0.0}
    assert [by_task[t]["mask_sample"] for t in by_task] == [False, False, False]
    assert [by_task[t]["failure_kind"] for t in by_task] == [None, None, None]
    assert {r["_ng_environment_server"] for r in rollouts} == {environment_server}
    assert not all(c["passed"] for c in by_task[WRONG]["checks"])
    assert all(c["passed"] for t in RIGHT for c in by_task[t]["checks"])


def chat_only_model() -> Starlette:
    """A model that speaks Chat Completions only: ``POST /v1/responses`` is 404, as on many local servers."""

    async def chat(request: Request) -> Response:
        return JSONResponse({"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": []})

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


#: Gym 0.7.0's model server retries a model it cannot connect to without end: the agent's episode limit ends it.
EPISODE_LIMIT = "++company_gateway_simple_agent.responses_api_agents.company_gateway_agent.episode_timeout_s=20"


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("model", "kind"), [("unreachable", "episode_timeout"), ("chat_only", "model_api")])
async def test_a_model_gym_cannot_use_gives_masked_rows_and_leaves_no_session(tmp_path, model, kind):
    bin_dir = gym_bin()
    played = (RIGHT[0], WRONG)
    server = export_gym(tmp_path, [TASKS[t] for t in played])
    head = f"+head_server={{host: 127.0.0.1, port: {free_port()}}}"
    with ray_temp_dir() as ray_dir:
        async with contextlib.AsyncExitStack() as stack:
            gateway_url, gw = await stack.enter_async_context(live_gateway())
            if model == "chat_only":
                model_url = await stack.enter_async_context(serve_in_background(chat_only_model())) + "/v1"
            else:
                model_url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
            config = "resources_servers/company_gateway/configs/company_gateway.yaml"
            async with gym_servers(bin_dir, tmp_path, config, head, gateway_url, model_url, ray_dir, EPISODE_LIMIT):
                rows, out_file = server / "data" / "tasks.jsonl", tmp_path / "rollouts.jsonl"
                argv = [str(bin_dir / "gym"), "eval", "run", "--no-serve", "--agent", "company_gateway_simple_agent",
                        head, "--input", str(rows), "--output", str(out_file)]  # fmt: skip
                code, out = await run(argv, tmp_path, gym_env(bin_dir, ray_dir))
                assert code == 0, out[-4000:]
                rollouts = [json.loads(line) for line in out_file.read_text().splitlines()]
                assert len(gw.store) == 0  # every session closed, none graded
            assert len(gw.ended) == len(played)
    by_task = {r["task_id"]: r for r in rollouts}
    assert sorted(by_task) == sorted(played), out[-4000:]
    for row in by_task.values():
        assert (row["reward"], row["mask_sample"], row["failure_kind"]) == (0.0, True, f"company_gateway:{kind}")
        assert row["failure_reason"]
        assert row["checks"] == []


CONFORMANCE = """
import json, sys
from unittest.mock import MagicMock
sys.path.insert(0, sys.argv[1])
from app import CompanyGatewayConfig, CompanyGatewayResourcesServer
from nemo_gym.base_resources_server import ResourcesSeedSessionRequest
from nemo_gym.server_utils import ServerClient
from nemo_gym.testing.session_conformance import check_resources_session_contract

config = CompanyGatewayConfig(host="127.0.0.1", port=0, entrypoint="app.py", name="company_gateway",
                              company_gateway_url=sys.argv[2])
server = CompanyGatewayResourcesServer(config=config, server_client=MagicMock(spec=ServerClient))
seed = ResourcesSeedSessionRequest(resources_session_id="rs-1", episode_id={"rollout_id": "r1"},
                                   task_id={"taskset": "company_gateway", "task_id": sys.argv[3]}, task_data={})
check_resources_session_contract(server.setup_webserver(), seed, keeps_state=True)
print(json.dumps({"conformant": True}))
"""


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_the_resources_server_keeps_gyms_session_contract(tmp_path):
    bin_dir = gym_bin()
    server = export_gym(tmp_path, [TASKS[WRONG]])
    async with live_gateway() as (gateway_url, gw):
        code, out = await run([str(bin_dir / "python"), "-c", CONFORMANCE, str(server), gateway_url, WRONG],
                              tmp_path, gym_env(bin_dir))  # fmt: skip
        assert code == 0, out[-4000:]
        assert json.loads(out.strip().splitlines()[-1]) == {"conformant": True}
        assert len(gw.store) == 0  # the seeded session was closed, and the late seeds made none
        assert len(gw.ended) == 1


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_an_unreachable_gateway_masks_the_rollout(tmp_path):
    bin_dir = gym_bin()
    server = export_gym(tmp_path, [TASKS[WRONG]])
    script = UNREACHABLE.replace("URL", f"http://127.0.0.1:{free_port()}")
    code, out = await run([str(bin_dir / "python"), "-c", script, str(server), WRONG], tmp_path, gym_env(bin_dir))
    assert code == 0, out[-4000:]
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer["tool_output"] == "Error: the service is unavailable right now."
    assert (answer["reward"], answer["mask_sample"], answer["failure_kind"]) == (0.0, True, "transport_unreachable")


UNREACHABLE = """
import json, sys
from unittest.mock import MagicMock
sys.path.insert(0, sys.argv[1])
from fastapi.testclient import TestClient
from app import CompanyGatewayConfig, CompanyGatewayResourcesServer
from nemo_gym.server_utils import ServerClient

config = CompanyGatewayConfig(host="127.0.0.1", port=0, entrypoint="app.py", name="company_gateway",
                              company_gateway_url="URL", request_timeout_s=5)
server = CompanyGatewayResourcesServer(config=config, server_client=MagicMock(spec=ServerClient))
params = {"input": [{"role": "user", "content": "x"}]}
with TestClient(server.setup_webserver()) as client:
    row = {"task_id": sys.argv[2], "responses_create_params": params}
    assert client.post("/seed_session", json=row).status_code == 200
    tool = client.post("/company_directory_get_person", json={"person_id": "p"}).text
    response = {"id": "r", "created_at": 0, "model": "m", "object": "response", "output": [],
                "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    verify = client.post("/verify", json={"responses_create_params": params, "response": response}).json()
print(json.dumps({"tool_output": tool, **{k: verify[k] for k in ("reward", "mask_sample", "failure_kind")}}))
"""


STOPS = """
import json, sys
from unittest.mock import MagicMock
sys.path.insert(0, sys.argv[1])
from fastapi.testclient import TestClient
from app import CompanyGatewayConfig, CompanyGatewayResourcesServer
from nemo_gym.server_utils import ServerClient

config = CompanyGatewayConfig(host="127.0.0.1", port=0, entrypoint="app.py", name="company_gateway",
                              company_gateway_url=sys.argv[2])
server = CompanyGatewayResourcesServer(config=config, server_client=MagicMock(spec=ServerClient))
row = {"task_id": sys.argv[3], "responses_create_params": {"input": [{"role": "user", "content": "x"}]}}
with TestClient(server.setup_webserver()) as client:  # leaving it runs the app's shutdown
    assert client.post("/seed_session", json=row).status_code == 200
    tool = client.post("/company_directory_list_departments", json={}).text
    print(json.dumps({"tool_output": tool}), flush=True)
    input()  # the test reads the gateway's sessions, then lets the server stop
"""


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_a_session_never_verified_is_closed_when_the_server_stops(tmp_path):
    bin_dir = gym_bin()
    server = export_gym(tmp_path, [TASKS[WRONG]])
    async with live_gateway() as (gateway_url, gw):
        argv = [str(bin_dir / "python"), "-c", STOPS, str(server), gateway_url, WRONG]
        with anyio.fail_after(GYM_TIMEOUT_S):
            async with await anyio.open_process(argv, cwd=tmp_path, env=gym_env(bin_dir)) as proc:
                assert proc.stdout is not None and proc.stdin is not None
                first = b""
                async for chunk in proc.stdout:
                    first += chunk
                    if first.endswith(b"\n"):
                        break
                assert len(gw.store) == 1  # seeded, and live while the server runs
                tool_output = json.loads(first)["tool_output"]
                await proc.stdin.send(b"\n")
                assert await proc.wait() == 0
        assert json.loads(tool_output)["departments"]  # the call reached the session's directory
        assert len(gw.store) == 0
        assert len(gw.ended) == 1


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_a_running_rollout_is_renewed_and_a_killed_servers_session_ends_with_its_lease(tmp_path):
    bin_dir = gym_bin()
    server = export_gym(tmp_path, [TASKS[WRONG]])
    async with live_gateway(session_lease_s=1) as (gateway_url, gw):
        argv = [str(bin_dir / "python"), "-c", STOPS, str(server), gateway_url, WRONG]
        with anyio.fail_after(GYM_TIMEOUT_S):
            async with await anyio.open_process(argv, cwd=tmp_path, env=gym_env(bin_dir)) as proc:
                assert proc.stdout is not None
                first = b""
                async for chunk in proc.stdout:
                    first += chunk
                    if first.endswith(b"\n"):
                        break
                (session,) = gw.store.all()
                await asyncio.sleep(3)  # three leases with no call: the server's renewals keep it
                assert gw.store.all() == [session] and session.status == "active"
                proc.kill()  # kill -9 mid-episode: nothing renews or closes it now
                await proc.wait()
            while len(gw.store):
                await asyncio.sleep(0.05)
        verdict = await gw.verify(session.id)
        assert (verdict["mask_sample"], verdict["failure_kind"]) == (True, "abandoned")
        assert gw.admission.held == 0
