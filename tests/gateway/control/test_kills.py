"""Kill tests: kill -9 of a rollout, a harness, a sandbox and the gateway itself, each with sessions running.

After the lease (1 s here), and for the gateway after its restart's reap, nothing may be left: no session, no
world, no sandbox (the provider's list by owner label), no workspace folder, no slot held. Each test builds a
``left`` dict of those counts and asserts every one is 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from gateway import Settings, create_app
from gateway.control.core import Gateway
from gateway.control.rows import load_builtin_tasks
from gateway.control.runmarks import ended_runs, runs_folder
from gateway.surfaces.serve import serve_in_background
from sandbox.local import LocalProvider
from tests.conftest import require_binary
from tests.gateway.fake_model import FakeModel, fake_in_thread
from tests.sandbox_probe import TASK_ID

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

TASKS = load_builtin_tasks(families=False)
#: Three hand-written mcp rows: a few sessions running at once.
MCP_TASKS = ["cal-move-ops-sync", "dir-manager-of-owen", "cal-decline-contoso-review"]
REPO = Path(__file__).resolve().parents[3]
LEASE = {"session_lease_s": 1.0, "max_concurrent_sessions": 3, "admission_timeout_s": 30}


async def wait_until(predicate: Any, timeout_s: float = 30) -> None:
    with anyio.fail_after(timeout_s):
        while not predicate():
            await asyncio.sleep(0.05)


async def leftovers(gateway: Gateway, provider: LocalProvider) -> dict[str, int]:
    """What is held after the sessions' users died: every count must be 0."""
    return {
        "sessions": len(gateway.store),
        "leases": len(gateway.leases),
        "sandboxes": len(await provider.list_owned()),
        "workspace folders": len(workspace_folders(provider.root)),
        "slots held": gateway.admission.held,
    }


def sandboxes_root_folders(root: Path) -> list[str]:
    """Every folder under the local provider's root (sandboxes, and a gateway's API socket folder)."""
    return sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def workspace_folders(root: Path) -> list[str]:
    """The sandbox folders under the local provider's root (16 hex digits each)."""
    return [n for n in sandboxes_root_folders(root) if re.fullmatch(r"[0-9a-f]{16}", n)]


async def test_kill_9_of_a_rollout_mid_episode_leaves_nothing_after_the_lease(tmp_path: Path) -> None:
    provider = LocalProvider(tmp_path / "sandboxes", owner="kill-rollout")
    app = create_app(Settings(**LEASE), TASKS, provider=provider)
    gateway: Gateway = app.state.gateway
    model = FakeModel(TASKS, hang_s=60)
    model.modes.update(dict.fromkeys(MCP_TASKS, "timeout"))  # every episode waits on its model turn
    with fake_in_thread(model) as model_url:
        async with serve_in_background(app) as base:
            argv = [sys.executable, "-m", "gateway.runners.cli", "rollout", "--gateway-url", base,
                    "--base-url", model_url, "--model", "oracle", "--tasks", ",".join(MCP_TASKS),
                    "--concurrency", "3", "--timeout", "120", "--max-retries", "0", "--no-progress"]  # fmt: skip
            env = {**os.environ, "OPENAI_API_KEY": "unused"}
            proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                await wait_until(lambda: len(gateway.store) == 3 and len(model.requests) >= 3)
                held = [s.id for s in gateway.store.all()]
                proc.kill()  # kill -9, mid-episode: no close, no more renewals
                proc.wait(10)
                await wait_until(lambda: len(gateway.store) == 0)
                left = await leftovers(gateway, provider)
                assert left == dict.fromkeys(left, 0), left
                kinds = {(await gateway.verify(sid))["failure_kind"] for sid in held}
                assert kinds == {"abandoned"}
                async with httpx.AsyncClient(base_url=base, timeout=30) as control:
                    later = await control.post("/seed_session", json={"task_id": MCP_TASKS[0]})
                    assert later.status_code == 200, later.text  # the three slots came free
            finally:
                if proc.poll() is None:
                    proc.kill()


#: A harness-like client in its own process: seeds sessions with sandboxes, renews and calls tools until killed.
CLIENT = """
import json, sys, time, urllib.request
base, n, task = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def post(url, body, token=None):
    headers = {"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})}
    with urllib.request.urlopen(urllib.request.Request(url, json.dumps(body).encode(), headers), timeout=60) as r:
        return json.load(r)

seeds = [post(base + "/seed_session", {"task_id": task, "exposure": "cli", "sandbox": True}) for _ in range(n)]
print(json.dumps([s["session_id"] for s in seeds]), flush=True)
while True:
    for s in seeds:
        post(base + "/renew_session", {"session_id": s["session_id"]})
        post(s["company_api_url"] + "/directory/list_departments", {}, s["token"])
    time.sleep(0.2)
"""


async def test_kill_9_of_a_harness_process_leaves_nothing_after_the_lease(tmp_path: Path) -> None:
    provider = LocalProvider(tmp_path / "sandboxes", owner="kill-harness")
    app = create_app(Settings(**LEASE), TASKS, provider=provider)
    gateway: Gateway = app.state.gateway
    async with serve_in_background(app) as base:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CLIENT, base, "3", TASK_ID, stdout=asyncio.subprocess.PIPE
        )
        try:
            assert proc.stdout is not None
            with anyio.fail_after(60):
                held = json.loads(await proc.stdout.readline())
            assert len(held) == 3 and len(await provider.list_owned()) == 3
            await wait_until(lambda: all(gateway.get_session(sid).calls >= 2 for sid in held))
            await asyncio.sleep(2)  # two leases while the client renews and calls: all three stay
            assert sorted(s.id for s in gateway.store.all()) == sorted(held)
            proc.kill()
            await proc.wait()
            await wait_until(lambda: len(gateway.store) == 0)
            left = await leftovers(gateway, provider)
            assert left == dict.fromkeys(left, 0), left
            for sid in held:
                verdict = await gateway.verify(sid)
                assert (verdict["mask_sample"], verdict["failure_kind"]) == (True, "abandoned")
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


def _pids_of(sandbox_id: str) -> list[int]:
    """The sandbox's processes: those whose mounts come from its folder, and the bwrap processes above them.

    bubblewrap's options (paths included) stay off its command line, so the sandbox is found by its mounts.
    """
    inside, parents = set(), {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                mounts = (entry / "mountinfo").read_bytes()
                status = (entry / "status").read_text()
            except OSError:
                continue
            pid = int(entry.name)
            parents[pid] = (int(status.split("PPid:")[1].split()[0]), status.split()[1])
            if sandbox_id.encode() in mounts:
                inside.add(pid)
    found = set(inside)
    for pid in inside:
        ppid, _ = parents.get(pid, (0, ""))
        while ppid in parents and parents[ppid][1] == "bwrap":
            found.add(ppid)
            ppid = parents[ppid][0]
    return sorted(found)


async def test_kill_9_of_a_sandbox_leaves_nothing_after_verify_close_and_the_lease(tmp_path: Path) -> None:
    require_binary("bwrap")
    provider = LocalProvider(tmp_path / "sandboxes", owner="kill-sandbox", use_bwrap=True)
    app = create_app(Settings(**LEASE), TASKS, provider=provider)
    gateway: Gateway = app.state.gateway
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
        seeds = []
        for _ in range(3):
            r = await control.post("/seed_session", json={"task_id": TASK_ID, "exposure": "cli"})
            assert r.status_code == 200, r.text
            seeds.append(r.json())
        sandboxes = [gateway.get_session(s["session_id"]).sandbox for s in seeds]
        runs = [asyncio.create_task(provider.exec(sb, ["sleep", "60"], timeout_s=120)) for sb in sandboxes if sb]
        await wait_until(lambda: all(_pids_of(sb.id) for sb in sandboxes if sb))
        killed = [pid for sb in sandboxes if sb for pid in _pids_of(sb.id)]
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        results = await asyncio.gather(*runs)
        assert all(r.exit_code != 0 for r in results), results  # the sandboxes' commands died with them
        first = seeds[0]["session_id"]  # its user still verifies and closes; the other two are left to the lease
        verdict = (await control.post("/verify", json={"session_id": first})).json()
        assert verdict["session_id"] == first and verdict["failure_kind"] != "abandoned"
        await control.post("/close_session", json={"session_id": first})
        await wait_until(lambda: len(gateway.store) == 0)
        left = await leftovers(gateway, provider)
        assert left == dict.fromkeys(left, 0), left
        assert not any(_pids_of(sb.id) for sb in sandboxes if sb)


def _serve(port: int, root: Path, owner: str, ttl_s: float = 2, incarnation: str = "") -> subprocess.Popen[str]:
    env = {**os.environ, "GATEWAY_SANDBOX_ROOT": str(root), "GATEWAY_SANDBOX_OWNER": owner,
           "GATEWAY_SESSION_LEASE_S": "1", "GATEWAY_SANDBOX_TTL_S": str(ttl_s), "GATEWAY_LOG_LEVEL": "INFO",
           **({"GATEWAY_INCARNATION": incarnation} if incarnation else {})}  # fmt: skip
    return subprocess.Popen([sys.executable, "-m", "gateway.runners.cli", "serve", "--port", str(port)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip


async def _healthy(proc: subprocess.Popen[str], url: str) -> None:
    async with httpx.AsyncClient(timeout=2) as client:
        with anyio.fail_after(90):
            while True:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else proc.returncode
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get(f"{url}/health")).status_code == 200:
                        return
                await asyncio.sleep(0.1)


async def _kill_then_restart(tmp_path: Path, ttl_s: float, forget_the_run: bool) -> str:
    """Seed 3 sandboxes, kill -9 the gateway, restart it on the same root; returns the restart's output.

    Args:
        ttl_s: ``sandbox_ttl_s`` of the killed run; its sandboxes are past it when the restart comes only if short.
        forget_the_run: Remove the killed run's mark before the restart, as for a run on another host.
    """
    from tests.gateway.runners.test_serve import free_port

    root, owner = tmp_path / "sandboxes", "kill-gateway"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    incarnation = f"killed-{secrets.token_hex(6)}"
    mark = runs_folder() / f"{hashlib.sha256(incarnation.encode()).hexdigest()[:32]}.lock"
    first = _serve(port, root, owner, ttl_s, incarnation)
    try:
        await _healthy(first, url)
        async with httpx.AsyncClient(base_url=url, timeout=60) as control:
            for _ in range(3):
                r = await control.post("/seed_session", json={"task_id": TASK_ID, "exposure": "cli"})
                assert r.status_code == 200, r.text
        provider = LocalProvider(root, owner=owner, use_bwrap=False)
        before = await provider.list_owned()
        assert len(before) == 3
        first.kill()  # kill -9: no shutdown, nothing destroyed
        first.wait(10)
        assert len(await provider.list_owned()) == 3 and len(workspace_folders(root)) == 3
        assert incarnation in ended_runs()  # its lock went with its process
        if forget_the_run:
            mark.unlink()
            expires = max(float(sb.labels["expires"]) for sb in before)
            await asyncio.sleep(max(0.0, expires - time.time()) + 0.5)  # past their sandbox_ttl_s
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(10)
        if first.stdout is not None:
            first.stdout.close()
    second = _serve(port, root, owner)
    try:
        await _healthy(second, url)
        async with httpx.AsyncClient(base_url=url, timeout=30) as control:
            metrics = (await control.get("/metrics")).text
        left = {
            "sandboxes": len(await provider.list_owned()),
            "workspace folders": len(workspace_folders(root)),
            "sessions live": int(float(re.search(r"^gateway_sessions_live (\S+)$", metrics, re.M).group(1))),
        }
        assert left == dict.fromkeys(left, 0), (left, sandboxes_root_folders(root))
    finally:
        second.send_signal(signal.SIGTERM)
        try:
            output, _ = second.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            second.kill()
            output, _ = second.communicate()
    assert "reaped 3 sandbox(es)" in output, output[-3000:]
    assert sandboxes_root_folders(root) == []  # the killed run's socket folder went at the restart, the new one at stop
    mark.unlink(missing_ok=True)  # kept for hours otherwise (the killed run's sandbox_ttl_s): nothing to find now
    return output


async def test_kill_9_of_the_gateway_then_a_restart_reaps_its_sandboxes_at_once(tmp_path: Path) -> None:
    await _kill_then_restart(tmp_path, ttl_s=6 * 3600, forget_the_run=False)  # hours before they expire


async def test_kill_9_of_a_gateway_elsewhere_then_a_start_reaps_its_sandboxes_once_expired(tmp_path: Path) -> None:
    await _kill_then_restart(tmp_path, ttl_s=2, forget_the_run=True)  # no mark here: the expiry rule
