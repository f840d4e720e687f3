"""The company API served on a unix socket for isolated sandboxes, and the control routes refusing it."""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import stat
import tempfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gateway import Settings, create_app
from gateway.control.workspace import SANDBOX_API_SOCKET
from gateway.surfaces.guards import trusted_only
from gateway.surfaces.serve import serve_in_background
from gateway.surfaces.socket import SANDBOX_PEER, remove_stale_sockets, serve_on_unix_socket
from tests.conftest import in_process, require_binary

CONTROL = [
    ("POST", "/seed_session"),
    ("GET", "/task_state?session_id=s_x"),
    ("POST", "/verify"),
    ("POST", "/close_session"),
    ("POST", "/reference_solution"),
    ("GET", "/tasks"),
    ("GET", "/metrics"),
    ("GET", "/openapi.json"),
]
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


def over(path: Any) -> httpx.AsyncClient:
    """A client whose every request goes through the unix socket at ``path`` (the URL names only path and Host)."""
    return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(uds=str(path)), base_url="http://127.0.0.1:9")


async def test_a_unix_socket_peer_has_no_address_and_is_marked_as_a_sandbox() -> None:
    scopes: list[dict[str, Any]] = []

    async def probe(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scopes.append(scope)
        await JSONResponse({"ok": True})(scope, receive, send)

    async with serve_on_unix_socket(probe) as path:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        async with over(path) as client:
            assert (await client.get("/anything")).json() == {"ok": True}
    assert not path.parent.exists()  # the private folder is removed with the socket
    (scope,) = scopes
    assert scope["client"] is None  # what uvicorn gives a unix-socket peer
    assert scope["server"] == (str(path), None)
    assert scope[SANDBOX_PEER] is True


async def test_the_socket_server_leaves_the_process_lines_to_the_main_server(caplog) -> None:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await JSONResponse({})(scope, receive, send)

    with caplog.at_level(logging.INFO, logger="uvicorn.error"):
        async with serve_on_unix_socket(app) as path, over(path) as client:
            assert (await client.get("/")).status_code == 200
        logging.getLogger("uvicorn.error").info("Started server process [%d]", 1)  # the main server's still shows
    said = [r.getMessage() for r in caplog.records if r.name == "uvicorn.error"]
    assert [m for m in said if "server process" in m] == ["Started server process [1]"]


async def test_the_socket_goes_in_the_given_folder_only_when_its_path_fits(tmp_path) -> None:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await JSONResponse({})(scope, receive, send)

    short = Path(tempfile.mkdtemp(prefix="p-"))
    too_long = tmp_path / ("x" * 80)  # a socket path must stay under 108 bytes
    too_long.mkdir()
    try:
        async with serve_on_unix_socket(app, parent=short) as inside:
            assert inside.parent.parent == short
        async with serve_on_unix_socket(app, parent=too_long) as elsewhere:
            assert too_long not in elsewhere.parents
            async with over(elsewhere) as client:
                assert (await client.get("/")).status_code == 200
        assert list(short.iterdir()) == [] and list(too_long.iterdir()) == []
    finally:
        shutil.rmtree(short)


@pytest.mark.parametrize(
    ("client", "marked", "status"),
    [
        (("127.0.0.1", 40000), False, 200),
        (None, False, 403),  # a unix-socket peer: no address to trust
        (("127.0.0.1", 40000), True, 403),  # through the sandboxes' socket, whatever the address says
    ],
)
async def test_trusted_only_refuses_a_peer_without_an_address_or_from_the_sandbox_socket(client, marked, status):
    async def handler(request: Request) -> Response:
        return JSONResponse({"ok": True})

    scope: dict[str, Any] = {"type": "http", "method": "GET", "path": "/tasks", "headers": [], "client": client}
    if marked:
        scope[SANDBOX_PEER] = True
    answer = await trusted_only(["127.0.0.0/8"])(handler)(Request(scope))
    assert answer.status_code == status


async def test_control_routes_refuse_the_socket_even_with_the_control_token(caplog) -> None:
    app = create_app(Settings(sandbox_provider="none", control_token="s3cret"))
    token = {"Authorization": "Bearer s3cret"}
    with caplog.at_level(logging.WARNING, logger="gateway.surfaces.asgi"):
        async with serve_on_unix_socket(app) as path, over(path) as client:
            for method, route in CONTROL:
                answer = await client.request(method, route, headers=token, json={} if method == "POST" else None)
                assert answer.status_code == 403, (route, answer.text)
                assert answer.json() == {"error": "this route is only for trusted networks"}
            assert (await client.get("/health")).json() == {"ok": True}  # open to everyone
    assert sum("came through a sandbox's socket" in r.getMessage() for r in caplog.records) == len(CONTROL)
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as loopback:
        assert (await loopback.get("/tasks", headers=token)).status_code == 200  # the token itself is right


@pytest.mark.slow
@pytest.mark.bwrap
async def test_an_isolated_server_serves_api_and_mcp_on_its_socket_and_removes_it_at_shutdown() -> None:
    require_binary("bwrap")
    app = create_app(Settings())
    provider = app.state.gateway.provider
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base) as control:
        seed = (await control.post("/seed_session", json={"task_id": "dir-manager-of-owen"})).json()
        path = provider.socket_binds[SANDBOX_API_SOCKET]
        assert Path(path).parent.parent == provider.root  # with the workspaces: removing them after a crash
        auth = {"Authorization": f"Bearer {seed['token']}"}
        api = seed["company_api_url"]
        assert api == f"{base}/api"  # an ordinary URL: over the socket it names the path and Host only
        async with over(path) as sandbox:
            people = await sandbox.post(f"{api}/directory/get_manager", json={"person": "Owen Bell"}, headers=auth)
            assert people.json()["manager"]["email"] == "priya.shah@northwind.example"
            assert (await sandbox.post(f"{api}/directory/list_departments", json={})).status_code == 401
            listed = await sandbox.post(f"{base}/mcp", json=LIST, headers={**MCP_HEADERS, **auth})
            assert listed.status_code == 200, listed.text
            assert "company_complete_task" in listed.text
    assert provider.socket_binds == {}
    assert not Path(path).parent.exists()  # socket and private folder removed
    assert not provider.root.exists()  # and then the server's own workspace root, empty by then


def _left_by_a_killed_run(parent: Path) -> Path:
    """A socket folder as a ``kill -9``-ed server leaves it: the socket file is there, nothing listens on it."""
    folder = Path(tempfile.mkdtemp(prefix="company-api-", dir=parent))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(folder / "api.sock"))
    return folder


async def test_stale_socket_folders_are_removed_and_a_listening_one_is_kept() -> None:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await JSONResponse({})(scope, receive, send)

    parent = Path(tempfile.mkdtemp(prefix="p-"))
    try:
        stale = [_left_by_a_killed_run(parent) for _ in range(2)]
        unrelated = parent / "company-notes"
        unrelated.mkdir()
        async with serve_on_unix_socket(app, parent=parent) as live:
            assert all((folder / "api.sock").exists() for folder in stale)
            assert await asyncio.to_thread(remove_stale_sockets, parent) == 2
            assert sorted(parent.iterdir()) == sorted([live.parent, unrelated])
            async with over(live) as client:
                assert (await client.get("/")).status_code == 200  # the running server's socket still works
        assert remove_stale_sockets(parent / "missing") == 0
    finally:
        shutil.rmtree(parent)


@pytest.mark.slow
@pytest.mark.bwrap
async def test_a_restart_with_a_fixed_sandbox_root_removes_the_socket_folder_a_killed_run_left() -> None:
    require_binary("bwrap")
    root = Path(tempfile.mkdtemp(prefix="r-"))
    try:
        stale = _left_by_a_killed_run(root)
        app = create_app(Settings(sandbox_root=str(root)))
        provider = app.state.gateway.provider
        async with in_process(app):
            live = Path(provider.socket_binds[SANDBOX_API_SOCKET]).parent
            assert sorted(root.iterdir()) == [live]
            assert live != stale
        assert list(root.iterdir()) == []  # and its own folder is removed at shutdown
    finally:
        shutil.rmtree(root)
