"""The gateway with the docker provider, for real (podman's socket, the busybox image with the host's curl).

With the default ``sandbox_network="isolated"`` and an engine on this host, every container has only
``lo`` and reaches the company API through the gateway's unix socket, bound at ``/run/company/api.sock``:
the control routes refuse it, TCP to the gateway fails, and the app commands still work end to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from gateway import Settings, create_app
from gateway.runners.demo import play
from gateway.surfaces.serve import serve_in_background
from sandbox import SandboxSpec
from sandbox.docker import DockerProvider
from tests.sandbox.conftest import HOST_BINDS
from tests.sandbox_probe import CONTROL, TASK_ID, WARNING, Served, probe_control_routes, statuses

pytestmark = [pytest.mark.podman, pytest.mark.slow]  # a gateway lending containers: seconds each


@contextlib.asynccontextmanager
async def served(docker_host: str, **settings: Any) -> AsyncIterator[Served]:
    owner = f"test-docker-gw-{secrets.token_hex(4)}"
    provider = DockerProvider(owner=owner, base_url=docker_host, host_binds=HOST_BINDS)
    app = create_app(Settings(sandbox_provider="docker", sandbox_owner=owner, **settings), provider=provider)
    try:
        async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
            yield Served(app, base, control, "docker")
    finally:
        reaper = DockerProvider(owner=owner, base_url=docker_host)
        assert await reaper.reap() == []  # the gateway removed every container it lent
        await reaper.close()
        await provider.close()


async def test_a_docker_sandbox_is_refused_every_control_route_and_has_no_network(docker_host, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="gateway.surfaces.asgi"):
        async with served(docker_host) as s:
            provider = s.app.state.gateway.provider
            assert provider.supports_socket_binds and "/run/company/api.sock" in provider.socket_binds
            seed = await s.seed()
            probed = await s.run(seed, probe_control_routes())
            assert statuses(probed) == dict.fromkeys(CONTROL, "403"), probed
            port = s.base.rsplit(":", 1)[1]
            tcp = await s.run(seed, f"curl -sS -m 5 http://127.0.0.1:{port}/tasks")
            assert tcp.exit_code == 7 and tcp.stdout == b"", tcp  # 7: could not connect
            interfaces = await s.run(seed, "cat /proc/net/dev")
            assert {ln.split(":")[0].strip() for ln in interfaces.stdout.decode().splitlines()[2:]} == {"lo"}
            env = await s.run(seed, "echo $COMPANY_API_SOCKET; test -S $COMPANY_API_SOCKET && id -u")
            assert env.stdout.decode().split() == ["/run/company/api.sock", "0"], env
            ran = await s.run(seed, "directory get-manager --person='Owen Bell'")
            assert ran.exit_code == 0, ran
            assert json.loads(ran.stdout)["manager"]["email"] == "priya.shah@northwind.example"
    assert not any(WARNING in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("exposure", ["cli", "http"])
async def test_reference_solutions_score_1_through_an_isolated_docker_sandbox(docker_host, exposure: str) -> None:
    async with served(docker_host) as s:
        gateway = s.app.state.gateway
        for task_id in (TASK_ID, "cal-move-ops-sync"):
            result = await play(s.control, gateway, gateway.tasks[task_id], "oracle", exposure)
            assert (result.error, result.reward) == (None, 1.0), result


async def test_the_host_network_setting_keeps_docker_on_the_hosts_network_with_its_warning(docker_host, caplog):
    with caplog.at_level(logging.WARNING, logger="gateway.surfaces.asgi"):
        async with served(docker_host, sandbox_network="host") as s:
            assert s.app.state.gateway.provider.socket_binds == {}
            seed = await s.seed()
            env = await s.run(seed, 'echo "socket=${COMPANY_API_SOCKET:-none}"')
            assert env.stdout == b"socket=none\n"
            ran = await s.run(seed, "directory get-manager --person='Owen Bell'")
            assert json.loads(ran.stdout)["manager"]["email"] == "priya.shah@northwind.example"
    assert any(WARNING in r.getMessage() for r in caplog.records)


async def test_a_remote_engine_gets_no_socket_and_keeps_the_warning(caplog) -> None:
    provider = DockerProvider(owner="me", base_url="tcp://engine.example:2376")
    with caplog.at_level(logging.WARNING, logger="gateway.surfaces.asgi"):
        app = create_app(Settings(sandbox_provider="docker"), provider=provider)
    assert not app.state.gateway.provider.supports_socket_binds
    assert any(WARNING in r.getMessage() for r in caplog.records)
    await provider.close()


@contextlib.asynccontextmanager
async def sharing(docker_host: str, owner: str, **settings: Any) -> AsyncIterator[Served]:
    """A gateway lending containers under ``owner``, an owner label another gateway on the engine also uses."""
    provider = DockerProvider(owner=owner, base_url=docker_host, host_binds=HOST_BINDS)
    app = create_app(Settings(sandbox_provider="docker", sandbox_owner=owner, **settings), provider=provider)
    try:
        async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as control:
            yield Served(app, base, control, "docker")
    finally:
        await provider.close()


async def test_two_gateways_share_an_engine_and_owner_and_a_restart_reaps_only_expired_sandboxes(docker_host):
    owner = f"test-shared-{secrets.token_hex(4)}"
    engine = DockerProvider(owner=owner, base_url=docker_host)
    try:
        # What a crashed run left: a container of this owner whose lifetime has passed.
        expired = await engine.create(SandboxSpec(labels={"session": "s_gone", "expires": "1000", "incarnation": "x"}))
        async with sharing(docker_host, owner) as b:
            b_seed = await b.seed()
            b_box = b_seed["sandbox"]["id"]
            assert expired.id not in {sb.id for sb in await engine.list_owned()}  # B's start reaped it
            async with sharing(docker_host, owner) as a:
                a_seed = await a.seed()
                assert {a_seed["sandbox"]["id"], b_box} <= {sb.id for sb in await engine.list_owned()}
            # A stopped (its own sandbox destroyed) and starts again: its start-up reap leaves B's live one alone.
            async with sharing(docker_host, owner) as a2:
                assert a2.app.state.gateway.incarnation != b.app.state.gateway.incarnation
                owned = {sb.id for sb in await engine.list_owned()}
                assert b_box in owned and a_seed["sandbox"]["id"] not in owned
                again = await a2.seed()
                assert again["sandbox"]["id"] != b_box
            ran = await b.run(b_seed, "directory get-manager --person='Owen Bell'")  # B's sandbox still works
            assert ran.exit_code == 0, ran
            assert json.loads(ran.stdout)["manager"]["email"] == "priya.shah@northwind.example"
            verdict = (await b.control.post("/verify", json={"session_id": b_seed["session_id"]})).json()
            assert verdict["mask_sample"] is False, verdict
    finally:
        await engine.reap()
        await engine.close()


async def test_a_killed_container_and_its_abandoned_sessions_leave_no_container(docker_host):
    import docker

    owner = f"test-kill-{secrets.token_hex(4)}"
    engine = DockerProvider(owner=owner, base_url=docker_host)
    client = docker.DockerClient(base_url=docker_host, version="1.44")
    try:
        async with sharing(docker_host, owner, session_lease_s=1) as s:
            gateway = s.app.state.gateway
            seeds = [await s.seed() for _ in range(3)]
            assert len(await engine.list_owned()) == 3
            client.api.kill(seeds[0]["sandbox"]["id"], signal="SIGKILL")  # the sandbox dies under its session
            while len(gateway.store):  # nobody calls or renews: all three are abandoned after 1 s
                await asyncio.sleep(0.05)
            left = {"sessions": len(gateway.store), "containers": len(await engine.list_owned()),
                    "slots held": gateway.admission.held}  # fmt: skip
            assert left == dict.fromkeys(left, 0), left
            for seed in seeds:
                verdict = (await s.control.post("/verify", json={"session_id": seed["session_id"]})).json()
                assert verdict["failure_kind"] == "abandoned", verdict
    finally:
        client.close()
        await engine.reap()
        await engine.close()
