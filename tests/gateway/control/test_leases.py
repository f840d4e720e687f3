"""Leases: a session nobody touches for ``session_lease_s`` is closed as abandoned: masked, slot and sandbox freed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import anyio
import httpx
import pytest

from gateway import Settings, create_app
from gateway.control.core import Gateway
from gateway.control.leases import Leases
from gateway.surfaces.serve import serve_in_background
from sandbox.local import LocalProvider
from tools import COMPLETE_TASK

ROW = {
    "id": "lease-row",
    "instruction": "Look at the vendor list.",
    "apps": ["drive", "gmail"],
    "exposure": "cli",
    "workspace": {"notes/todo.txt": "call Maya\n"},
    "checks": [{"name": "a", "kind": "answer", "match": {"contains": "x"}}],
}
MCP_ROW = {**ROW, "id": "lease-mcp-row", "exposure": "mcp", "workspace": {}}


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def on_clock(gateway: Gateway, clock: Clock, lease_s: float) -> None:
    """Give ``gateway`` leases on ``clock`` (its reaper then sleeps long; the test sweeps by hand)."""
    gateway.leases = Leases(lease_s, gateway.abandon, tick_s=0, clock=clock)


async def sweep(gateway: Gateway) -> int:
    """Sweep the leases now and wait for the sessions it ends; returns how many sessions were ended."""
    live = len(gateway.store)
    gateway.leases.sweep()
    await gateway.leases.settle()
    return live - len(gateway.store)


async def wait_until(predicate, timeout_s: float = 15) -> None:
    with anyio.fail_after(timeout_s):
        while not predicate():
            await asyncio.sleep(0.02)


async def test_a_session_with_a_1s_lease_is_abandoned_masked_and_its_slot_and_sandbox_freed(tmp_path: Path):
    provider = LocalProvider(tmp_path / "sandboxes", owner="lease-test")
    settings = Settings(session_lease_s=1, max_concurrent_sessions=1, admission_timeout_s=10)
    app = create_app(settings, {}, provider=provider)
    gateway: Gateway = app.state.gateway
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        first = (await control.post("/seed_session", json={"task": ROW})).json()
        sid = first["session_id"]
        assert len(await provider.list_owned()) == 1
        await wait_until(lambda: sid not in {s.id for s in gateway.store.all()})  # the reaper, on its own

        answers = [(await control.post("/verify", json={"session_id": sid})).json() for _ in range(3)]
        assert answers[0] == answers[1] == answers[2]
        verdict = answers[0]
        assert (verdict["mask_sample"], verdict["failure_kind"], verdict["reward"]) == (True, "abandoned", 0.0)
        assert "session_lease_s" in verdict["failure_reason"] and verdict["task"]["id"] == "lease-row"
        state = (await control.get("/task_state", params={"session_id": sid})).json()
        assert (state["status"], state["verify_result"]) == ("closed", verdict)
        renew = await control.post("/renew_session", json={"session_id": sid})
        assert renew.status_code == 409 and "closed" in renew.json()["error"]
        close = await control.post("/close_session", json={"session_id": sid})
        assert close.json() == {"session_id": sid, "closed": True}

        assert await provider.list_owned() == []
        assert gateway.admission.held == 0
        second = await control.post("/seed_session", json={"task": ROW})  # max_concurrent_sessions=1: admitted
        assert second.status_code == 200, second.text
        metrics = (await control.get("/metrics")).text
        assert "gateway_abandoned_sessions_total 1.0" in metrics
        assert 'gateway_masked_sessions_total{kind="abandoned"} 1.0' in metrics
        await control.post("/close_session", json={"session_id": second.json()["session_id"]})


async def test_renew_task_state_calls_and_token_use_each_extend_the_lease() -> None:
    app = create_app(Settings(sandbox_provider="none"), {})
    gateway: Gateway = app.state.gateway
    clock = Clock()
    on_clock(gateway, clock, lease_s=10)
    seeded = await gateway.seed({"task": MCP_ROW}, "http://127.0.0.1:1/")
    sid, t0 = seeded["session_id"], clock.t
    session = gateway.get_session(sid)

    clock.t = t0 + 8
    renewed = gateway.renew(sid)
    assert renewed["session_id"] == sid and renewed["lease_s"] == 10
    assert renewed["expires_at"] == pytest.approx(gateway.leases.expires_at(sid), abs=0.5)
    clock.t = t0 + 12  # past the first deadline, within the renewed one
    assert await sweep(gateway) == 0 and session.status == "active"

    clock.t = t0 + 17
    gateway.task_state(sid)  # due t0 + 27
    clock.t = t0 + 26
    assert await sweep(gateway) == 0 and session.status == "active"
    await gateway.call(session, "company_drive_list_folder", {})  # due t0 + 36
    clock.t = t0 + 35
    assert await sweep(gateway) == 0 and session.status == "active"
    assert gateway.session_by_token(seeded["token"]) is session  # due t0 + 45 (MCP, HTTP API, shell: a token)
    clock.t = t0 + 44
    assert await sweep(gateway) == 0 and session.status == "active"

    clock.t = t0 + 45.5
    gateway.task_state(sid, renew=False)  # a watcher's look keeps the deadline: due t0 + 45 still
    clock.t = t0 + 46
    assert await sweep(gateway) == 1
    assert session.status == "closed" and gateway.store.all() == []
    verdict = await gateway.verify(sid)
    assert (verdict["mask_sample"], verdict["failure_kind"]) == (True, "abandoned")
    assert [c["tool"] for c in verdict["tool_calls"]] == ["company_drive_list_folder"]
    await gateway.shutdown()


async def test_a_verified_session_left_open_is_closed_with_its_own_result_not_masked() -> None:
    app = create_app(Settings(sandbox_provider="none", max_concurrent_sessions=1), {})
    gateway: Gateway = app.state.gateway
    clock = Clock()
    on_clock(gateway, clock, lease_s=10)
    sid = (await gateway.seed({"task": MCP_ROW}, "http://127.0.0.1:1/"))["session_id"]
    await gateway.call(gateway.get_session(sid), COMPLETE_TASK.tool_name, {"summary": "done", "answer": "x"})
    graded = await gateway.verify(sid)
    assert graded["mask_sample"] is False
    clock.t += 11
    assert await sweep(gateway) == 1
    assert gateway.admission.held == 0 and gateway.store.all() == []
    assert await gateway.verify(sid) == graded
    await gateway.shutdown()


async def test_with_no_lease_a_session_is_never_abandoned() -> None:
    app = create_app(Settings(sandbox_provider="none", session_lease_s=0), {})
    gateway: Gateway = app.state.gateway
    sid = (await gateway.seed({"task": MCP_ROW}, "http://127.0.0.1:1/"))["session_id"]
    assert gateway.leases.sweep(now=float("inf")) == 0
    assert gateway.renew(sid) == {"session_id": sid, "expires_at": None, "lease_s": 0}
    assert gateway.get_session(sid).status == "active"


def test_the_sandbox_lifetime_must_cover_the_lease() -> None:
    with pytest.raises(ValueError, match="sandbox_ttl_s .* must be at least session_lease_s"):
        Settings(session_lease_s=900, sandbox_ttl_s=600)
    assert Settings(session_lease_s=0, sandbox_ttl_s=60).sandbox_ttl_s == 60


async def test_renew_session_refuses_bad_input_by_name(tmp_path: Path) -> None:
    app = create_app(Settings(sandbox_provider="none"), {})
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        unknown = await control.post("/renew_session", json={"session_id": "s_nope"})
        assert unknown.status_code == 404 and "s_nope" in unknown.json()["error"]
        extra = await control.post("/renew_session", json={"session_id": "s_x", "lease": 5})
        assert extra.status_code == 400 and "lease" in extra.json()["error"]
        missing = await control.post("/renew_session", json={})
        assert missing.status_code == 400 and "session_id" in missing.json()["error"]
        doc = (await control.get("/openapi.json")).json()
        assert doc["paths"]["/renew_session"]["post"]["operationId"] == "renew_session"
        bad = await control.get("/task_state", params={"session_id": "s_x", "renew": "no"})
        assert bad.status_code == 400 and bad.json()["error"] == "renew: must be true or false, not 'no'"


async def test_500_abandoned_sessions_leave_no_world_sandbox_or_slot(tmp_path: Path) -> None:
    root = tmp_path / "sandboxes"
    provider = LocalProvider(root, owner="lease-500")
    app = create_app(Settings(max_concurrent_sessions=500, admission_timeout_s=5), {}, provider=provider)
    gateway: Gateway = app.state.gateway
    clock = Clock()
    on_clock(gateway, clock, lease_s=60)
    seeded = [await gateway.seed({"task": ROW}, "http://127.0.0.1:1/") for _ in range(500)]
    assert gateway.admission.held == 500 and len(await provider.list_owned()) == 500
    worlds = [weakref.ref(s.world) for s in gateway.store.all()]

    clock.t += 61
    assert await sweep(gateway) == 500

    gc.collect()
    left = {
        "sessions": len(gateway.store),
        "worlds": sum(w() is not None for w in worlds),
        "sandboxes": len(await provider.list_owned()),
        "workspace folders": len([p for p in root.iterdir() if p.is_dir()]),
        "slots held": gateway.admission.held,
        "leases": len(gateway.leases),
    }
    assert left == dict.fromkeys(left, 0)
    kinds = {(await gateway.verify(s["session_id"]))["failure_kind"] for s in seeded}
    assert kinds == {"abandoned"}
    later = await gateway.seed({"task": ROW}, "http://127.0.0.1:1/")  # a full cap would make this wait, then 503
    assert gateway.admission.held == 1
    await gateway.close(later["session_id"])
    await gateway.shutdown()


def test_a_gateway_driven_from_one_event_loop_after_another_reaps_in_each() -> None:
    """``tasks prove`` drives one gateway from a loop per job: each loop gets a working reaper."""
    app = create_app(Settings(sandbox_provider="none", session_lease_s=0.2), {})
    gateway: Gateway = app.state.gateway

    async def seed_and_wait() -> object:
        sid = (await gateway.seed({"task": MCP_ROW}, "http://127.0.0.1:1/"))["session_id"]
        await wait_until(lambda: sid in gateway.ended, timeout_s=10)
        return (await gateway.verify(sid))["failure_kind"]

    first = asyncio.run(seed_and_wait())
    second = asyncio.run(seed_and_wait())  # a reaper (and its event) bound to the first loop would fail here
    assert (first, second) == ("abandoned", "abandoned")
