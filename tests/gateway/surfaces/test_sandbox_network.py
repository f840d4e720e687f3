"""What a command in a local sandbox can reach, by ``sandbox_network``; played for real under bubblewrap.

``isolated`` (the default): the sandbox has only ``lo``, reaches the company API through the unix
socket ``$COMPANY_API_SOCKET``, and every control route refuses it. ``host``: the old behaviour,
the host's network, where loopback is a trusted peer (hence the warning about the control token).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from gateway import Settings, create_app
from gateway.runners.demo import play
from gateway.surfaces.serve import serve_in_background
from tests.conftest import require_binary
from tests.sandbox_probe import CONTROL, TASK_ID, WARNING, Served, probe_control_routes, statuses
from tests.tiers import sampled

pytestmark = pytest.mark.bwrap


@contextlib.asynccontextmanager
async def served(settings: Settings) -> AsyncIterator[Served]:
    require_binary("bwrap")
    require_binary("curl")
    app = create_app(settings)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        yield Served(app, base, control, "local")


@pytest.mark.slow
async def test_an_isolated_sandbox_is_refused_every_control_route_and_has_no_network(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="gateway.surfaces.asgi"):
        async with served(Settings()) as s:
            seed = await s.seed()
            probed = await s.run(seed, probe_control_routes())
            assert statuses(probed) == dict.fromkeys(CONTROL, "403"), probed
            port = s.base.rsplit(":", 1)[1]
            tcp = await s.run(seed, f"curl -sS -m 5 http://127.0.0.1:{port}/health")
            assert tcp.exit_code == 7 and tcp.stdout == b"", tcp  # 7: could not connect
            interfaces = await s.run(seed, "cat /proc/net/dev")
            assert {ln.split(":")[0].strip() for ln in interfaces.stdout.decode().splitlines()[2:]} == {"lo"}
            env = await s.run(seed, "echo $COMPANY_API_SOCKET $COMPANY_API_URL; test -S $COMPANY_API_SOCKET")
            assert env.stdout.decode().split() == ["/run/company/api.sock", seed["company_api_url"]]
            assert env.exit_code == 0

            # The app commands work through the socket, with curl and with the python3 fallback.
            command = "directory get-manager --person='Owen Bell'"
            with_curl = await s.run(seed, command)
            assert with_curl.exit_code == 0, with_curl
            nocurl = "mkdir -p /tmp/py && ln -sf /usr/bin/python3 /tmp/py/python3 && PATH=/opt/company/bin:/tmp/py "
            with_python = await s.run(seed, nocurl + command)
            assert with_python.exit_code == 0, with_python
            for ran in (with_curl, with_python):
                assert json.loads(ran.stdout)["manager"]["email"] == "priya.shah@northwind.example"
    assert not any(WARNING in r.getMessage() for r in caplog.records)


@pytest.mark.slow
async def test_the_docs_tool_and_the_guide_of_an_isolated_sandbox_give_curl_the_socket() -> None:
    async with served(Settings()) as s:
        seed = await s.seed("http")
        guide = await s.run(seed, "cat README.md")
        assert 'curl -sS --unix-socket "$COMPANY_API_SOCKET" -X POST "$COMPANY_API_URL/directory/..."' in (
            guide.stdout.decode()
        )
        transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
        async with Client(transport) as client:
            page = await client.call_tool("api_fetch", {"page": "directory/get_manager"})
        text = page.content[0].text  # type: ignore[union-attr]
        example = text.split("```sh\n", 1)[1].split("\n```", 1)[0]
        assert example.startswith('curl -sS --unix-socket "$COMPANY_API_SOCKET" -X POST')
        ran = await s.run(seed, example)  # the example, pasted into the sandbox's shell, works as written
        assert ran.exit_code == 0, ran
        assert json.loads(ran.stdout)["manager"]["email"].endswith("@northwind.example")


@pytest.mark.parametrize(
    ("network", "exposure"),
    sampled([(n, e) for n in ("isolated", "host") for e in ("cli", "http")], 1, seed="sandbox-network", ids="-".join),
)
async def test_reference_solutions_score_1_through_the_sandbox(exposure: str, network: str) -> None:
    async with served(Settings(sandbox_network=network)) as s:
        gateway = s.app.state.gateway
        for task_id in (TASK_ID, "cal-move-ops-sync"):
            result = await play(s.control, gateway, gateway.tasks[task_id], "oracle", exposure)
            assert (result.error, result.reward) == (None, 1.0), result


@pytest.mark.slow
async def test_the_host_network_setting_keeps_the_old_behaviour_and_its_warning(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="gateway.surfaces.asgi"):
        async with served(Settings(sandbox_network="host")) as s:
            assert s.app.state.gateway.provider.socket_binds == {}
            seed = await s.seed()
            env = await s.run(seed, 'echo "socket=${COMPANY_API_SOCKET:-none}"')
            assert env.stdout == b"socket=none\n"
            probed = await s.run(seed, probe_control_routes())
            assert statuses(probed)["/tasks"] == "200"  # loopback is a trusted peer: what the token is for
            ran = await s.run(seed, "directory get-manager --person='Owen Bell'")
            assert json.loads(ran.stdout)["manager"]["email"] == "priya.shah@northwind.example"
    assert any(WARNING in r.getMessage() for r in caplog.records)
