"""Security properties of the served app: trusted networks, body limits, Host/Origin, token isolation, secrets.

Over real loopback HTTP where the wire matters (uvicorn's peer address, chunked
bodies, the MCP transport); in memory (``httpx.ASGITransport``) where a foreign
peer address is needed, since every socket here is a loopback one.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from openapi_spec_validator import validate
from starlette.applications import Starlette

from gateway import Settings, create_app
from gateway.control.core import SWITCH_INTERVAL_S
from gateway.control.sessions import SessionStore
from gateway.surfaces.limits import MAX_BODY_VALUES
from gateway.surfaces.protocol import MAX_HEAD_BYTES
from gateway.surfaces.serve import serve_in_background

TASK_ID = "dir-manager-of-owen"
MAX_BYTES = 16 * 1024
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
CONTROL_GETS = ["/tasks", "/metrics", "/openapi.json", "/task_state?session_id=s_0"]
SPOOFS = [
    {"X-Forwarded-For": "127.0.0.1"},
    {"X-Forwarded-For": "10.0.0.5, 127.0.0.1"},
    {"X-Real-IP": "127.0.0.1"},
    {"Forwarded": "for=127.0.0.1;proto=http"},
    {"X-Forwarded-For": "10.0.0.5", "X-Forwarded-Host": "localhost"},
]


@contextlib.asynccontextmanager
async def served(settings: Settings) -> AsyncIterator[tuple[Starlette, httpx.AsyncClient]]:
    """A live server on loopback for ``settings``: ``(app, client)``."""
    app = create_app(settings)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        yield app, client


def in_memory(app: Starlette, peer: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(peer, 40000)), base_url="http://testserver")


async def seed(client: httpx.AsyncClient, **extra: Any) -> dict[str, Any]:
    r = await client.post("/seed_session", json={"task_id": TASK_ID, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def refusal(path: str, message: str) -> dict[str, Any]:
    """A refusal's JSON in the shape of ``path``'s route family (``gateway/surfaces/refusals.py``)."""
    if path == "/mcp":
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}
    if path.startswith(("/api/", "/cli/")):
        return {"error": {"message": message, "parameter": None}}
    return {"error": message}


def cli_words(*words: str) -> dict[str, Any]:
    return {"argc": str(len(words)), "argv": list(words)}


# ---- trusted networks and forwarded headers ------------------------------------------------------


@pytest.mark.parametrize("spoof", SPOOFS, ids=lambda h: ",".join(h))
async def test_forwarded_headers_never_let_a_foreign_peer_in(spoof):
    app = create_app(Settings(sandbox_provider="none"))
    async with in_memory(app, "203.0.113.7") as outsider, in_memory(app, "127.0.0.1") as insider:
        for path in CONTROL_GETS:
            assert (await outsider.get(path, headers=spoof)).status_code == 403, path
        r = await outsider.post("/seed_session", json={"task_id": TASK_ID}, headers=spoof)
        assert r.status_code == 403
        assert r.json() == {"error": "this route is only for trusted networks"}
        assert len(app.state.gateway.store) == 0
        assert (await insider.get("/tasks", headers=spoof)).status_code == 200


@pytest.mark.slow
@pytest.mark.parametrize("spoof", [{"X-Forwarded-For": "203.0.113.7"}, {"Forwarded": "for=203.0.113.7"}])
async def test_forwarded_headers_never_shut_a_trusted_peer_out(spoof):
    async with served(Settings(sandbox_provider="none")) as (_, client):
        for path in ["/tasks", "/metrics", "/openapi.json"]:
            assert (await client.get(path, headers=spoof)).status_code == 200, path
        assert (await client.post("/seed_session", json={"task_id": TASK_ID}, headers=spoof)).status_code == 200


@pytest.mark.slow
async def test_a_live_server_judges_the_socket_peer_not_x_forwarded_for():
    # Only 10.0.0.0/8 is trusted; the socket peer is 127.0.0.1 whatever the headers claim.
    async with served(Settings(trusted_networks=["10.0.0.0/8"], sandbox_provider="none")) as (app, client):
        for spoof in SPOOFS + [{"X-Forwarded-For": "10.0.0.5"}, {}]:
            for path in CONTROL_GETS:
                assert (await client.get(path, headers=spoof)).status_code == 403, (path, spoof)
            assert (await client.post("/seed_session", json={"task_id": TASK_ID}, headers=spoof)).status_code == 403
        assert len(app.state.gateway.store) == 0
        assert (await client.get("/health")).json() == {"ok": True}  # open to every peer


async def test_metrics_and_openapi_are_trusted_only():
    app = create_app(Settings(sandbox_provider="none"))
    async with in_memory(app, "198.51.100.20") as outsider, in_memory(app, "127.0.0.1") as insider:
        for path in ["/metrics", "/openapi.json"]:
            assert (await outsider.get(path)).status_code == 403, path
        metrics = await insider.get("/metrics")
        assert metrics.status_code == 200 and "# TYPE" in metrics.text
        document = (await insider.get("/openapi.json")).json()
        routes = {"/seed_session", "/task_state", "/verify", "/close_session", "/reference_solution",
                  "/renew_session", "/tasks", "/health"}
        assert set(document["paths"]) == routes
        validate(document)
        assert document["paths"]["/seed_session"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        # The company API's own document is for sandboxes, wherever they are.
        assert (await outsider.get("/api/openapi.json")).status_code == 200


# ---- body limits ---------------------------------------------------------------------------------


async def chunks(total: int, size: int = 4096) -> AsyncIterator[bytes]:
    sent = 0
    while sent < total:
        part = min(size, total - sent)
        sent += part
        yield b" " * part


@pytest.mark.slow
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
async def test_a_body_over_the_limit_is_413_everywhere(chunked):
    async with served(Settings(max_request_bytes=MAX_BYTES, sandbox_provider="none")) as (app, client):
        info = await seed(client)
        gw = app.state.gateway
        targets = {
            "/seed_session": {"Content-Type": "application/json"},
            "/api/directory/list_departments": {"Content-Type": "application/json", **bearer(info["token"])},
            "/mcp": {**MCP_HEADERS, **bearer(info["token"])},
            "/cli/directory": {"Content-Type": "application/x-www-form-urlencoded", **bearer(info["token"])},
        }
        for path, headers in targets.items():
            body: Any = chunks(MAX_BYTES + 1) if chunked else b" " * (MAX_BYTES + 1)
            r = await client.post(path, content=body, headers=headers)
            assert r.status_code == 413, (path, r.status_code, r.text)
            assert r.json() == refusal(path, f"the request body is larger than {MAX_BYTES} bytes")
            assert ("transfer-encoding" in r.request.headers) is chunked
        assert len(gw.store) == 1  # no seed got through
        assert gw.task_state(info["session_id"])["calls"] == 0
        # Exactly at the limit is still read (and answered on its merits).
        r = await client.post("/seed_session", content=b" " * MAX_BYTES, headers=targets["/seed_session"])
        assert r.status_code == 400


async def test_a_seed_body_over_max_seed_bytes_is_refused_from_its_head_though_under_the_request_limit():
    async with served(Settings(sandbox_provider="none", max_seed_bytes=4096)) as (app, client):
        row = json.dumps({"task_id": "dir-manager-of-owen", "pad": "x" * 5000}).encode()
        r = await client.post("/seed_session", content=row, headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        assert r.json() == refusal("/seed_session", "the request body is larger than 4096 bytes")
        assert len(app.state.gateway.store) == 0
        # the same size elsewhere is read: the bound is the seed route's own
        info = await seed(client)
        over = b" " * 5000
        r = await client.post("/api/directory/list_departments", content=over, headers=bearer(info["token"]))
        assert r.status_code == 200, r.text


@pytest.mark.slow
async def test_mcp_bodies_over_its_transports_limit_are_refused_in_json_too():
    # The MCP transport refuses bodies over 4 MiB itself, in plain text; the gateway answers first, in JSON.
    async with served(Settings(sandbox_provider="none")) as (app, client):
        info = await seed(client)
        headers = {**MCP_HEADERS, **bearer(info["token"])}
        over = b" " * (DEFAULT_MAX_REQUEST_BODY_SIZE + 1)
        for body in (over, chunks(len(over))):
            r = await client.post("/mcp", content=body, headers=headers)
            assert r.status_code == 413
            assert r.json() == refusal("/mcp", f"the request body is larger than {DEFAULT_MAX_REQUEST_BODY_SIZE} bytes")
        # Other routes keep the server's own limit (8 MiB by default): the same body is read (blank: no arguments).
        r = await client.post("/api/directory/list_departments", content=over, headers=bearer(info["token"]))
        assert r.status_code == 200, r.text
        assert "departments" in r.json()


# ---- Host and Origin on /mcp ---------------------------------------------------------------------


@pytest.mark.slow
async def test_mcp_refuses_foreign_host_and_origin_on_loopback():
    async with served(Settings(sandbox_provider="none")) as (_, client):
        info = await seed(client)
        headers = {**MCP_HEADERS, **bearer(info["token"])}
        assert (await client.post("/mcp", json=LIST, headers=headers)).status_code == 200
        r = await client.post("/mcp", json=LIST, headers={**headers, "Host": "evil.example"})
        assert r.status_code == 421
        r = await client.post("/mcp", json=LIST, headers={**headers, "Origin": "http://evil.example"})
        assert r.status_code == 403
        r = await client.post("/mcp", json=LIST, headers={**headers, "Host": "company.internal"})
        assert r.status_code == 421  # not in allowed_hosts here


@pytest.mark.slow
async def test_mcp_accepts_names_from_allowed_hosts():
    settings = Settings(sandbox_provider="none", allowed_hosts=["company.internal", "host.containers.internal"])
    async with served(settings) as (_, client):
        info = await seed(client)
        headers = {**MCP_HEADERS, **bearer(info["token"])}
        for host in ["company.internal", "host.containers.internal"]:
            r = await client.post("/mcp", json=LIST, headers={**headers, "Host": host})
            assert r.status_code == 200, (host, r.text)
            r = await client.post("/mcp", json=LIST, headers={**headers, "Host": host, "Origin": f"http://{host}"})
            assert r.status_code == 200, (host, r.text)
        r = await client.post("/mcp", json=LIST, headers={**headers, "Host": "evil.example"})
        assert r.status_code == 421
        r = await client.post("/mcp", json=LIST, headers={**headers, "Origin": "http://evil.example"})
        assert r.status_code == 403


# ---- tokens --------------------------------------------------------------------------------------


async def test_a_token_opens_only_its_own_world_over_http_and_cli():
    async with served(Settings(sandbox_provider="none")) as (app, client):
        gw = app.state.gateway
        a, b = await seed(client), await seed(client)
        # Naming the other session anywhere in the request changes nothing: the token decides.
        steer = {"X-Session-Id": b["session_id"], "Cookie": f"session_id={b['session_id']}"}
        r = await client.post(
            "/api/complete_task",
            params={"session_id": b["session_id"]},
            json={"summary": "from A over HTTP"},
            headers={**bearer(a["token"]), **steer},
        )
        assert r.status_code == 200
        assert gw.get_session(a["session_id"]).world.completion == "from A over HTTP"
        assert gw.get_session(b["session_id"]).world.completion is None
        r = await client.post(
            "/cli/company",
            params={"session_id": a["session_id"]},
            data=cli_words("complete-task", "--summary=from B over the shell"),
            headers={**bearer(b["token"]), "X-Session-Id": a["session_id"]},
        )
        assert r.status_code == 200, r.text
        assert gw.get_session(b["session_id"]).world.completion == "from B over the shell"
        assert gw.get_session(a["session_id"]).world.completion == "from A over HTTP"
        assert gw.task_state(a["session_id"])["calls"] == 1 and gw.task_state(b["session_id"])["calls"] == 1


@pytest.mark.slow
async def test_a_token_naming_another_session_is_refused_over_http_and_cli():
    async with served(Settings(sandbox_provider="none")) as (app, client):
        gw = app.state.gateway
        a, b = await seed(client), await seed(client)
        payload, signature = a["token"].rsplit(".", 1)
        spliced = b["token"].rsplit(".", 1)[0] + "." + signature  # B's payload under A's signature
        forged = SessionStore("another-secret").new_token(b["session_id"])  # B's id, signed elsewhere
        remint = gw.store.new_token(b["session_id"])  # right secret, but not the token B was given
        for token in [spliced, forged, remint, payload, a["token"] + "x", b["session_id"]]:
            r = await client.post("/api/directory/list_departments", json={}, headers=bearer(token))
            assert r.status_code == 401, token
            r = await client.post("/cli/directory", data=cli_words("list-departments"), headers=bearer(token))
            assert r.status_code == 401, token
            r = await client.post("/mcp", json=LIST, headers={**MCP_HEADERS, **bearer(token)})
            assert r.status_code == 401, token
        assert gw.task_state(b["session_id"])["calls"] == 0


@pytest.mark.slow
async def test_a_closed_sessions_token_stops_while_others_keep_working():
    async with served(Settings(sandbox_provider="none")) as (_, client):
        a, b = await seed(client), await seed(client)
        await client.post("/verify", json={"session_id": a["session_id"]})
        for token, expected in [(a["token"], 401), (b["token"], 200)]:
            r = await client.post("/api/directory/list_departments", json={}, headers=bearer(token))
            assert r.status_code == expected
            r = await client.post("/cli/directory", data=cli_words("list-departments"), headers=bearer(token))
            assert r.status_code == expected


async def test_tokens_signed_with_another_secret_are_refused():
    async with served(Settings(sandbox_provider="none", session_secret="the-right-secret")) as (_, client):
        info = await seed(client)
        forged = SessionStore("a-wrong-secret").new_token(info["session_id"])
        unsigned = SessionStore(None).new_token(info["session_id"])
        for token in [forged, unsigned]:
            assert (await client.post("/api/complete_task", json={}, headers=bearer(token))).status_code == 401
            r = await client.post("/cli/company", data=cli_words("complete-task"), headers=bearer(token))
            assert r.status_code == 401
            r = await client.post("/mcp", json=LIST, headers={**MCP_HEADERS, **bearer(token)})
            assert r.status_code == 401
        assert (await client.get("/task_state", params={"session_id": info["session_id"]})).json()["calls"] == 0


@pytest.mark.parametrize(
    ("first", "second", "accepted"),
    [("shared-secret", "shared-secret", True), ("shared-secret", "other-secret", False), (None, None, False)],
    ids=["same secret", "different secret", "per-process secrets"],
)
async def test_session_secret_makes_tokens_verifiable_across_instances(first, second, accepted):
    one = create_app(Settings(sandbox_provider="none", session_secret=first))
    two = create_app(Settings(sandbox_provider="none", session_secret=second))
    async with in_memory(one, "127.0.0.1") as c1, in_memory(two, "127.0.0.1") as c2:
        info = await seed(c1)
        # The second instance is handed the session (as a replica would be); only its token differs in origin.
        two.state.gateway.store.add(one.state.gateway.get_session(info["session_id"]))
        assert (two.state.gateway.session_by_token(info["token"]) is not None) is accepted
        r = await c2.post("/api/directory/list_departments", json={}, headers=bearer(info["token"]))
        assert r.status_code == (200 if accepted else 401)
        r = await c2.post("/cli/directory", data=cli_words("list-departments"), headers=bearer(info["token"]))
        assert r.status_code == (200 if accepted else 401)
        # A token minted by the second instance for the same id is never the session's own token.
        assert one.state.gateway.session_by_token(two.state.gateway.store.new_token(info["session_id"])) is None


# ---- what a start leaves for collections to walk --------------------------------------------------


async def test_what_the_app_built_at_start_is_frozen_out_of_collections_and_threads_switch_often():
    # Tasks, tools and companies built at start are ~330,000 objects; a full collection walking them held
    # every session's calls ~0.35 s. Frozen once the app starts, collections walk only what came after.
    gc.unfreeze()
    app = create_app(Settings(sandbox_provider="none"))
    assert gc.get_freeze_count() == 0
    try:
        switch_interval = sys.getswitchinterval()
        async with app.router.lifespan_context(app):
            assert gc.get_freeze_count() > 100_000
            # Worker threads running actions hand the GIL back to the loop every millisecond (Python's default: 5).
            assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_S) and SWITCH_INTERVAL_S == 0.001
        assert gc.get_freeze_count() == 0  # a stopped app's leftovers may be collected again
        assert sys.getswitchinterval() == switch_interval
    finally:
        gc.unfreeze()


# ---- slow clients ---------------------------------------------------------------------------------


async def _raw(base: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = base.removeprefix("http://").split(":")
    return await asyncio.open_connection(host, int(port))


@pytest.mark.slow
async def test_a_connection_that_does_not_finish_its_request_head_in_time_is_closed():
    async with served(Settings(sandbox_provider="none", read_timeout_s=0.5)) as (app, client):
        base = str(client.base_url).rstrip("/")
        silent = await _raw(base)  # connects and sends nothing
        partial = await _raw(base)  # a request line and one header, then nothing (slow-loris)
        partial[1].write(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        await partial[1].drain()
        for reader, writer in (silent, partial):
            assert await asyncio.wait_for(reader.read(), 20) == b""  # closed by the server, no answer
            writer.close()
        # A keep-alive connection answers request after request: each head arrives in time.
        reader, writer = await _raw(base)
        for _ in range(2):
            writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
            assert head.startswith(b"HTTP/1.1 200")
            sizes = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.startswith(b"content-length")]
            assert b'"ok"' in await reader.readexactly(sizes[0])
        writer.close()


@pytest.mark.slow
async def test_a_body_that_does_not_arrive_in_time_is_answered_408_and_changes_nothing():
    async with served(Settings(sandbox_provider="none", read_timeout_s=0.5)) as (app, client):
        info = await seed(client)
        reader, writer = await _raw(str(client.base_url).rstrip("/"))
        writer.write(
            b"POST /api/directory/search_people HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Authorization: Bearer {info['token']}\r\nContent-Length: 1000\r\n\r\n".encode()
            + b'{"query": "Owen", '
        )
        answer = await asyncio.wait_for(reader.read(), 20)
        writer.close()
        assert answer.startswith(b"HTTP/1.1 408")
        message = b'"message":"the request body took longer than 0.5 s to arrive"'
        assert answer.endswith(b'{"error":{' + message + b',"parameter":null}}')
        assert app.state.gateway.task_state(info["session_id"])["calls"] == 0


@pytest.mark.slow
async def test_a_request_head_over_its_size_bound_is_answered_431_and_one_within_it_is_served():
    async with served(Settings(sandbox_provider="none")) as (app, client):
        base = str(client.base_url).rstrip("/")
        reader, writer = await _raw(base)
        writer.write(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (MAX_HEAD_BYTES + 100))
        answer = await asyncio.wait_for(reader.read(), 20)  # answered and closed before the head ends
        writer.close()
        assert answer.startswith(b"HTTP/1.1 431 ")
        message = f"the request head is larger than {MAX_HEAD_BYTES} bytes"
        assert answer.endswith(json.dumps(refusal("/health", message), separators=(",", ":")).encode())
        for path in ("/api/directory/search_people", "/mcp"):  # in the shape of the route asked
            reader, writer = await _raw(base)
            writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ".encode() + b"a" * (MAX_HEAD_BYTES + 100))
            answer = await asyncio.wait_for(reader.read(), 20)
            writer.close()
            assert answer.startswith(b"HTTP/1.1 431 ")
            assert json.loads(answer.split(b"\r\n\r\n", 1)[1]) == refusal(path, message)
        for size in (MAX_HEAD_BYTES + 1000, 100_000):  # a whole head in one read, just over the bound
            r = await client.get("/health", headers={"X-Big": "a" * size})
            assert (r.status_code, r.json()) == (431, refusal("/health", message)), size
        r = await client.get("/health", headers={"X-Big": "a" * (MAX_HEAD_BYTES - 1000)})
        assert r.status_code == 200


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/seed_session", "/api/directory/search_people", "/mcp"])
async def test_a_request_the_parser_cannot_read_is_refused_in_json(path):
    bad = "the request could not be read as HTTP/1.1 (its request line, headers, Content-Length or chunks); " \
          "send a well-formed request"  # fmt: skip
    async with served(Settings(sandbox_provider="none")) as (app, client):
        base = str(client.base_url).rstrip("/")
        for head in (b"Content-Length: -1\r\n", b"Content-Length: abc\r\n", b"X Y: z\r\n"):
            reader, writer = await _raw(base)
            writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode() + head + b"\r\n")
            answer = await asyncio.wait_for(reader.read(), 20)
            writer.close()
            assert answer.startswith(b"HTTP/1.1 400 "), answer[:80]
            assert b"content-type: application/json" in answer.lower()
            assert json.loads(answer.split(b"\r\n\r\n", 1)[1]) == refusal(path, bad), head


@pytest.mark.slow
async def test_a_body_of_too_many_values_is_refused_unparsed_and_a_long_text_is_not():
    too_many = f"the request body holds more than {MAX_BODY_VALUES:,} values; send fewer (a list takes 100 items)"
    async with served(Settings(sandbox_provider="none")) as (app, client):
        info = await seed(client)
        auth = bearer(info["token"])
        keys = {f"k{i}": "v" for i in range(200_000)} | {"query": "Owen"}
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "company_directory_search_people", "arguments": keys}}  # fmt: skip
        numbers = {"query": "Owen", "page": list(range(100_000))}
        form = {"argc": "30001", "argv": ["search-people", *(["x"] * 30_000)]}
        answers = [
            await client.post("/mcp", json=call, headers={**MCP_HEADERS, **auth}),
            await client.post("/api/directory/search_people", json=numbers, headers=auth),
            await client.post("/cli/directory", data=form, headers=auth),
        ]
        paths = ["/mcp", "/api/directory/search_people", "/cli/directory"]
        assert [(r.status_code, r.json()) for r in answers] == [(400, refusal(path, too_many)) for path in paths]
        assert app.state.gateway.task_state(info["session_id"])["calls"] == 0
        # A long text full of commas and quotes is one value: read and judged on its merits.
        csv = 'name,"title, role",city\n' * 20_000
        r = await client.post("/api/directory/search_people", json={"query": csv}, headers=auth)
        assert r.status_code == 400 and r.json()["error"]["parameter"] == "query"  # too long, not too many values


@pytest.mark.slow
@pytest.mark.parametrize("fast", [True, False], ids=["fast-path", "fastmcp"])
async def test_mcp_errors_repeat_a_long_name_or_method_only_in_part(fast):
    async with served(Settings(sandbox_provider="none", mcp_fast_path=fast)) as (app, client):
        info = await seed(client)
        headers = {**MCP_HEADERS, **bearer(info["token"])}
        name = "e" * 100_000
        bodies = [
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": {}}},
            {"jsonrpc": "2.0", "id": 2, "method": name, "params": {}},
            {"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": {"name": name}},
        ]
        for body in bodies:
            r = await client.post("/mcp", json=body, headers=headers)
            assert r.status_code == 200 and len(r.content) < 1000, (r.status_code, len(r.content))
            assert "e" * 80 + "..." in r.text and "e" * 101 not in r.text
        unknown = (await client.post("/mcp", json=bodies[0], headers=headers)).json()["result"]
        assert unknown["isError"] is True and unknown["content"][0]["text"].startswith("Unknown tool: 'eeee")
        # A large answer that is no error passes untouched: every app's tools listed (well over 16 KiB).
        apps = ["gmail", "calendar", "drive", "box", "onedrive", "sharepoint", "slack", "helpdesk", "directory"]
        row = {"id": "all-apps", "instruction": "Find the budget.", "apps": apps, "exposure": "mcp",
               "checks": [{"name": "says_budget", "kind": "answer", "match": {"contains": "budget"}}]}  # fmt: skip
        every = await client.post("/seed_session", json={"task": row})
        headers = {**MCP_HEADERS, **bearer(every.json()["token"])}
        listing = await client.post("/mcp", json={"jsonrpc": "2.0", "id": 4, "method": "tools/list"}, headers=headers)
        assert listing.status_code == 200 and int(listing.headers["content-length"]) == len(listing.content) > 100_000
        assert len(listing.json()["result"]["tools"]) > 150


@pytest.mark.slow
async def test_an_api_path_of_unknown_names_is_repeated_only_in_part():
    async with served(Settings(sandbox_provider="none")) as (app, client):
        info = await seed(client)
        for path in ("/api/" + "e" * 8000 + "/x", "/api/directory/" + "e" * 8000):
            r = await client.post(path, json={}, headers=bearer(info["token"]))
            assert r.status_code == 404 and len(r.content) < 1000
            assert "e" * 70 in r.json()["error"]["message"] and "e" * 81 not in r.json()["error"]["message"]


@pytest.mark.slow
async def test_a_request_whose_bytes_pass_the_wire_bound_is_answered_413_even_in_its_trailers():
    async with served(Settings(sandbox_provider="none", max_request_bytes=16 * 1024)) as (app, client):
        info = await seed(client)
        reader, writer = await _raw(str(client.base_url).rstrip("/"))
        head = (
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nAuthorization: Bearer {info['token']}\r\n\r\n"
        )
        writer.write(head.encode() + b"2\r\n{}\r\n0\r\nX-Trailer: " + b"a" * (2 * 16 * 1024 + MAX_HEAD_BYTES + 10))
        answer = await asyncio.wait_for(reader.read(), 20)
        writer.close()
        limit = 2 * 16 * 1024 + MAX_HEAD_BYTES
        assert answer.startswith(b"HTTP/1.1 413 ")
        body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert body == refusal("/mcp", f"the request is larger than {limit} bytes")  # in the shape of the route


@pytest.mark.slow
async def test_values_are_counted_by_what_the_route_parses_whatever_the_body_claims_to_be():
    too_many = f"the request body holds more than {MAX_BODY_VALUES:,} values; send fewer (a list takes 100 items)"
    async with served(Settings(sandbox_provider="none")) as (app, client):
        info = await seed(client)
        auth = bearer(info["token"])
        form = ("argc=30001&" + "&".join(["argv=e"] * 30_001)).encode()
        keys = json.dumps({f"k{i}": "v" for i in range(30_000)}).encode()
        answers = [
            await client.post("/cli/directory", content=form, headers={**auth, "Content-Type": "text/plain"}),
            await client.post("/api/directory/search_people", content=keys,
                              headers={**auth, "Content-Type": "application/x-www-form-urlencoded"}),
        ]  # fmt: skip
        paths = ["/cli/directory", "/api/directory/search_people"]
        assert [(r.status_code, r.json()) for r in answers] == [(400, refusal(path, too_many)) for path in paths]


@pytest.mark.slow
async def test_long_names_come_back_in_part_over_mcp_resources_and_the_shell_route():
    async with served(Settings(sandbox_provider="none")) as (app, client):
        info = await seed(client)
        auth = bearer(info["token"])
        read = {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "file:///" + "e" * 100_000}}
        r = await client.post("/mcp", json=read, headers={**MCP_HEADERS, **auth})
        assert len(r.content) < 2000 and "e" * 101 not in r.text
        shell = [("/cli/" + "e" * 8000, {"argc": "0"}), ("/cli/directory", {"argc": "1", "argv": "e" * 100_000})]
        for path, form in shell:
            r = await client.post(path, data=form, headers=auth)
            assert r.status_code in (400, 404) and len(r.content) < 2000 and "e" * 101 not in r.text, r.status_code


@pytest.mark.slow
@pytest.mark.parametrize("method", ["GET", "OPTIONS"])
async def test_an_asterisk_request_target_is_refused_in_json(method):
    # `OPTIONS * HTTP/1.1` names no path: no mount takes it, and Starlette's own 404 was plain text
    async with served(Settings(sandbox_provider="none")) as (_app, client):
        reader, writer = await _raw(str(client.base_url).rstrip("/"))
        writer.write(f"{method} * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        answer = await asyncio.wait_for(reader.read(), 20)
        writer.close()
        head, body = answer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 404") and b"content-type: application/json" in head.lower()
        assert json.loads(body)["error"].startswith(f"no route {method} ")
