"""Scale-out on a simulated two-node Ray cluster: placement, direct tool calls, replica loss, shutdown."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from gateway.cluster.replicas import local_auth_env, replica_app, start_cluster
from gateway.cluster.router import create_router_app
from gateway.control.rows import load_builtin_tasks
from gateway.runners.policies import mcp_caller, run_steps
from gateway.settings import Settings
from gateway.surfaces.serve import serve_in_background

try:
    import ray
except ImportError:  # pragma: no cover - depends on the extra
    ray = None

needs_ray = pytest.mark.skipif(
    ray is None and os.environ.get("CI") != "true",
    reason="needs Ray: pip install 'company-gateway[ray]' (required under CI=true)",
)

TASK = "box-restore-fixed-pricing"  # an mcp task whose oracle scores 1.0


async def _until_gone(base: str) -> None:
    """Wait (bounded) until a killed replica stops answering: ray.kill returns before the process is gone."""
    import asyncio

    import anyio

    with anyio.fail_after(30):
        async with httpx.AsyncClient(timeout=2) as http:
            while True:
                try:
                    await http.get(f"{base}/health")
                except httpx.HTTPError:
                    return
                await asyncio.sleep(0.05)


async def _api_call(base: str, token: str) -> int:
    async with httpx.AsyncClient(timeout=10) as c:
        r = await c.post(f"{base}/api/complete_task", json={}, headers={"Authorization": f"Bearer {token}"})
        return r.status_code


@pytest.mark.slow
async def test_a_restarted_replica_refuses_tokens_of_its_earlier_run(unused_tcp_port):
    """Same secret, same port, new incarnation: the old token gets 401."""
    common = {"session_secret": "shared-secret", "port": unused_tcp_port}
    first = replica_app(Settings(**common, incarnation="run1"))
    async with serve_in_background(first, port=unused_tcp_port) as base, httpx.AsyncClient(base_url=base) as c:
        seed = (await c.post("/seed_session", json={"task_id": TASK})).json()
        assert seed["token"].startswith("run1.")
        assert await _api_call(base, seed["token"]) == 200
    second = replica_app(Settings(**common, incarnation="run2"))
    async with serve_in_background(second, port=unused_tcp_port) as base2:
        assert base2 == base
        assert await _api_call(base2, seed["token"]) == 401
        forged = "run2." + seed["token"].removeprefix("run1.")  # a relabelled token is still signed for run1
        assert await _api_call(base2, forged) == 401


@pytest.fixture(scope="module")
def ray_cluster():
    if ray is None:
        pytest.fail("ray is not installed (CI=true requires it)")
    from ray.cluster_utils import Cluster

    saved = {k: os.environ.get(k) for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")}
    local_auth_env()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    ray.init(address=cluster.address, logging_level="WARNING", log_to_driver=False)
    cluster.wait_for_nodes()
    try:
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.mark.slow
@needs_ray
@pytest.mark.timeout(120)
async def test_sessions_spread_stay_on_their_replica_and_a_lost_replica_masks_only_its_own(ray_cluster):
    task = load_builtin_tasks()[TASK]
    settings = Settings()
    cluster = await start_cluster(2, settings, replica_host="127.0.0.1")
    table = ray.util.placement_group_table(cluster.placement_group)
    assert len(set(table["bundles_to_node_id"].values())) == 2  # one replica per node
    urls = [r.url for r in cluster.router.replicas]
    app = create_router_app(cluster.router, settings.trusted_networks, watch_interval_s=None)
    try:
        async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
            seeds = []
            for _ in range(8):
                r = await control.post("/seed_session", json={"task_id": TASK})
                assert r.status_code == 200, r.text
                seeds.append(r.json())
            seeds.append((await control.post("/seed_session", json={"task_id": TASK, "sandbox": True})).json())
            home = {s["session_id"]: next(u for u in urls if s["mcp"]["url"] == f"{u}/mcp") for s in seeds}
            assert sorted(list(home.values()).count(u) for u in urls) == [4, 5]

            for s in seeds[:8]:
                transport = StreamableHttpTransport(s["mcp"]["url"], headers=s["mcp"]["headers"])
                async with Client(transport) as client:
                    assert await run_steps(task.solution, mcp_caller(client)) == len(task.solution)
                other = next(u for u in urls if u != home[s["session_id"]])
                assert await _api_call(other, s["token"]) == 401  # the other replica does not know the token

            sandboxed = seeds[8]["session_id"]
            victim = next(i for i, u in enumerate(urls) if u != home[sandboxed])
            ray.kill(cluster.actors[victim])
            await _until_gone(urls[victim])
            results = {}
            for s in seeds[:8]:
                r = await control.post("/verify", json={"session_id": s["session_id"]})
                assert r.status_code == 200, r.text
                results[s["session_id"]] = r.json()
            lost = {sid for sid, u in home.items() if u == urls[victim]}
            masked = {sid for sid, v in results.items() if v["mask_sample"]}
            assert masked == lost & set(results)
            for sid, v in results.items():
                if sid in masked:
                    assert (v["reward"], v["failure_kind"], v["checks"]) == (0.0, "replica_lost", [])
                else:
                    assert (v["reward"], v["failure_kind"]) == (1.0, None)
            assert cluster.router.replicas[victim].lost
            for s in seeds[:8]:
                assert (await control.post("/close_session", json={"session_id": s["session_id"]})).status_code == 200
            metrics = (await control.get("/metrics")).text
            assert f'replica="r{1 - victim}"' in metrics and f'replica="r{victim}"' not in metrics
            survivor_root = Path(cluster.infos[1 - victim]["sandbox_root"])
            assert (survivor_root / seeds[8]["sandbox"]["id"]).is_dir()  # the session's sandbox, until shutdown
            r = await control.post("/seed_session", json={"task_id": TASK})
            assert r.json()["mcp"]["url"] == f"{urls[1 - victim]}/mcp"  # new seeds avoid the lost replica
            still_open = 2  # the sandboxed session and the last seed
    finally:
        masked_at_shutdown = await cluster.stop(drain_s=0.5)
        shutil.rmtree(cluster.infos[victim]["sandbox_root"], ignore_errors=True)  # a killed process cleans nothing
    assert masked_at_shutdown == still_open
    assert not survivor_root.exists()  # the survivor destroyed its sandbox and its folder
    alive = [a for a in ray._private.state.actors().values() if a["State"] != "DEAD"]
    assert alive == []
    assert ray.util.placement_group_table(cluster.placement_group)["state"] == "REMOVED"


@pytest.mark.slow
async def test_the_router_forwards_renewals_and_frees_a_replica_s_abandoned_sessions_from_its_cap():
    """Without Ray: one replica behind the router, a cap of 2, a lease of 1 s."""
    import asyncio

    import anyio

    from gateway.cluster.router import ReplicaRef, Router

    replica = replica_app(Settings(session_lease_s=1, incarnation="r0"))
    async with serve_in_background(replica) as replica_url:
        ref = ReplicaRef(name="r0", url=replica_url, incarnation="r0")
        router = Router([ref], max_sessions_per_replica=2)
        app = create_router_app(router, ["127.0.0.0/8"], watch_interval_s=None)
        async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
            seeds = [(await control.post("/seed_session", json={"task_id": TASK})).json() for _ in range(2)]
            renewed = await control.post("/renew_session", json={"session_id": seeds[0]["session_id"]})
            assert renewed.status_code == 200 and renewed.json()["lease_s"] == 1
            full = await control.post("/seed_session", json={"task_id": TASK})
            assert full.status_code == 503  # the cap of 2 is reached
            gateway = replica.state.gateway
            with anyio.fail_after(30):
                while len(gateway.store):  # nobody calls or renews: the replica abandons both
                    await asyncio.sleep(0.05)
            assert router.open_sessions() == 2  # before a probe, the router still holds both
            assert await router.probe(ref) and ref.live == 0
            assert router.open_sessions() == 0  # the probe found both ended by the replica
            assert (await control.get("/health")).json()["live"] == 0
            later = await control.post("/seed_session", json={"task_id": TASK})
            assert later.status_code == 200, later.text
            router.begin_shutdown()
            assert router.open_sessions() == 1 and not router._drained.is_set()  # only the live one holds a drain
            gone = await control.post("/renew_session", json={"session_id": seeds[1]["session_id"]})
            assert gone.status_code == 409
            verdict = (await control.post("/verify", json={"session_id": seeds[1]["session_id"]})).json()
            assert verdict["failure_kind"] == "abandoned"
