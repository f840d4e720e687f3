"""Every refusal on every route is JSON, in its route family's shape (``gateway/surfaces/refusals.py``).

A table of bad requests (wrong method, no or bad token, wrong content type or Accept, Host/Origin,
bodies too large, unknown paths, bad fields, foreign peers) is sent to each route in memory; every
answer of 300 or more must parse as JSON with the shape its route's callers read.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from gateway import Settings, create_app

TASK_ID = "dir-manager-of-owen"
MCP = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
CALL = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "x", "arguments": {}}})
HUGE = 9 * 1024 * 1024


def shape_error(path: str, answer: Any) -> str | None:
    """What is wrong with a refusal's JSON for ``path``'s family, or None when it has the shape."""
    if not isinstance(answer, dict):
        return "not an object"
    if path.split("?")[0] in ("/mcp", "/mcp/"):
        if set(answer) == {"error", "error_description"}:  # FastMCP's OAuth 401 for a bad token (RFC 6750)
            return None if answer["error"] == "invalid_token" else "OAuth error without invalid_token"
        error = answer.get("error")
        if answer.get("jsonrpc") != "2.0" or "id" not in answer or not isinstance(error, dict):
            return "not a JSON-RPC error"
        ok = isinstance(error.get("code"), int) and isinstance(error.get("message"), str) and error["message"]
        return None if ok else "JSON-RPC error without code and message"
    if path.startswith(("/api/", "/cli/")):
        error = answer.get("error")
        if set(answer) != {"error"} or not isinstance(error, dict) or set(error) != {"message", "parameter"}:
            return 'not {"error": {"message", "parameter"}}'
        return None if isinstance(error["message"], str) and error["message"] else "empty message"
    if set(answer) != {"error"} or not isinstance(answer["error"], str) or not answer["error"]:
        return 'not {"error": "<text>"}'
    return None


@contextlib.asynccontextmanager
async def clients(**settings: Any) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient, str]]:
    """An insider (loopback) and an outsider client of one app, and a live session's token."""
    app = create_app(Settings(sandbox_provider="none", **settings))
    async with app.router.lifespan_context(app):

        def client(peer: str) -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=app, client=(peer, 40000))
            return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000")

        async with client("127.0.0.1") as insider, client("203.0.113.9") as outsider:
            seeded = await insider.post("/seed_session", json={"task_id": TASK_ID, "exposure": "mcp"})
            assert seeded.status_code == 200, seeded.text
            yield insider, outsider, seeded.json()["token"]


def table(token: str) -> list[tuple[str, str, dict[str, Any], bytes | None]]:
    """(method, path, headers, body) of bad requests; ``{token}`` in a header is the live session's token."""
    auth: dict[str, Any] = {"Authorization": f"Bearer {token}"}
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    return [
        # MCP: FastMCP's transport and guard, the gate, the limits
        ("GET", "/mcp", MCP, None),
        ("GET", "/mcp", {**MCP, **auth}, None),
        ("PUT", "/mcp", {**MCP, **auth}, LIST),
        ("DELETE", "/mcp", {**MCP, **auth}, None),
        ("POST", "/mcp", MCP, LIST),
        ("POST", "/mcp/", MCP, LIST),
        ("POST", "/mcp", {**MCP, "Authorization": "Bearer nope"}, LIST),
        ("POST", "/mcp", {**MCP, "Authorization": f"Bearer {token}".encode() + b"\xe9"}, LIST),
        ("POST", "/mcp", {**auth, "Accept": "application/json", "Content-Type": "text/plain"}, LIST),
        ("POST", "/mcp", {**auth, "Accept": "application/json", "Content-Type": "text/plain, application/json"}, LIST),
        ("POST", "/mcp", {**auth, "Accept": "text/html", "Content-Type": "application/json"}, LIST),
        ("POST", "/mcp", {**MCP, **auth, "Host": "evil.example"}, LIST),
        ("POST", "/mcp", {**MCP, **auth, "Origin": "http://evil.example"}, LIST),
        ("POST", "/mcp", {**MCP, **auth, "MCP-Protocol-Version": "1999-01-01"}, LIST),
        ("POST", "/mcp", {**MCP, **auth}, b"{not json"),
        ("POST", "/mcp", {**MCP, **auth}, b"x" * (5 * 1024 * 1024)),
        # the company API
        ("GET", "/api/directory/list_departments", auth, None),
        ("POST", "/api/directory/list_departments", {}, b"{}"),
        ("POST", "/api/directory/list_departments", {"Authorization": f"Bearer {token}".encode() + b"\xe9"}, b"{}"),
        ("POST", "/api/directory/list_departments", auth, b"{not json"),
        ("POST", "/api/directory/list_departments", auth, b"[]"),
        ("POST", "/api/directory/no_such_action", auth, b"{}"),
        ("POST", "/api/gmail/send_message", auth, b"{}"),
        ("POST", "/api/directory/get_person", auth, b"{}"),
        ("POST", "/api/directory/list_departments", auth, b"x" * HUGE),
        ("POST", "/api/openapi.json", auth, b"{}"),
        # the shell API (refusals in JSON unless text is asked for)
        ("GET", "/cli/directory", auth, None),
        ("POST", "/cli/directory", form, b"argc=0"),
        ("POST", "/cli/gmail", {**auth, **form}, b"argc=0"),
        ("POST", "/cli/directory", {**auth, **form}, b"argc=1&argv=get-person"),
        ("POST", "/cli/directory", {**auth, **form}, b"argc=2&argv=get-person&argv=--person%3Dnobody"),
        ("POST", "/cli/directory", {**auth, **form}, b"argc=1&argv=%ff"),
        ("POST", "/cli/directory", {**auth, **form}, b"x" * HUGE),
        # control routes and unknown paths
        ("GET", "/seed_session", {}, None),
        ("POST", "/seed_session", {}, b"{not json"),
        ("POST", "/seed_session", {}, b'{"task_id": "no-such-task"}'),
        ("POST", "/verify", {}, b'{"session_id": "s_0"}'),
        ("POST", "/verify", {}, b'{"session_id": "s_0", "respnse": ""}'),
        ("POST", "/close_session", {}, b"[]"),
        ("GET", "/task_state", {}, None),
        ("GET", "/task_state?session_id=s_0", {}, None),
        ("POST", "/tasks", {}, b"{}"),
        ("POST", "/health", {}, b"{}"),
        ("POST", "/metrics", {}, b"{}"),
        ("POST", "/seed_session", {}, b"x" * HUGE),
        ("GET", "/no/such/path", {}, None),
        ("POST", "/.well-known/oauth-protected-resource", {}, b"{}"),
    ]


async def test_every_refusal_on_every_route_is_json_in_its_route_s_shape():
    async with clients() as (insider, outsider, token):
        seen = set()
        for method, path, headers, body in table(token):
            r = await insider.request(method, path, headers=headers, content=body)
            what = f"{method} {path} {headers} -> {r.status_code} {r.text[:200]!r}"
            assert r.status_code >= 400, what
            assert r.headers["content-type"].split(";")[0] == "application/json", what
            assert shape_error(path, r.json()) is None, (shape_error(path, r.json()), what)
            seen.add(r.status_code)
        for path in ("/seed_session", "/tasks", "/metrics", "/task_state?session_id=s_0"):  # foreign peers
            r = await outsider.request("POST" if path == "/seed_session" else "GET", path, json={})
            assert r.status_code == 403 and shape_error(path, r.json()) is None, r.text
    # the table reaches every kind of refusal named in docs/exposures.md
    assert {400, 401, 403, 404, 405, 406, 413, 421, 422} <= seen, sorted(seen)


async def test_a_missing_control_token_is_json_too():
    app = create_app(Settings(sandbox_provider="none", control_token="secret"))
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as insider:
        r = await insider.get("/tasks")
        assert r.status_code == 403 and shape_error("/tasks", r.json()) is None


@pytest.mark.parametrize("auth", [True, False], ids=["token", "no-token"])
async def test_mcp_with_a_trailing_slash_is_served_as_mcp_not_redirected(auth):
    async with clients() as (insider, _, token):
        headers = {**MCP, "Authorization": f"Bearer {token}"} if auth else MCP
        slash = await insider.post("/mcp/", headers=headers, content=LIST)
        plain = await insider.post("/mcp", headers=headers, content=LIST)
        assert (slash.status_code, slash.json()) == (plain.status_code, plain.json())
        assert slash.status_code == (200 if auth else 401)


async def test_the_app_commands_still_get_text():
    async with clients() as (insider, _, token):
        headers = {"Authorization": f"Bearer {token}", "Accept": "text/plain"}
        r = await insider.post("/cli/gmail", headers=headers, data={"argc": "0"})
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/plain")
        assert r.text == "unknown command 'gmail'; commands here: directory, company\n"
