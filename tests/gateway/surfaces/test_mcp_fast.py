"""The MCP fast path against FastMCP: the same requests, the same status, headers and body, byte for byte.

Two sessions of one task start from the same world. Every request of the corpus goes
once through the fast path (session A) and once through FastMCP with the fast path
switched off (session B), in the same order, so both worlds change alike. The
requests are driven at the ASGI app itself (no sockets): what the fast path sends is
exactly what uvicorn would put on the wire.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.applications import Starlette
from starlette.types import Message

from gateway import Settings, create_app
from gateway.surfaces.mcp_fast import FastPath
from tools import REGISTRY

ALL_APPS_ROW = {
    "id": "all-apps-fast",
    "instruction": "Look around.",
    "apps": list(REGISTRY.apps),
    "checks": [{"name": "a", "kind": "answer", "match": {"contains": "done"}}],
}
HOST = "127.0.0.1:8000"
CLIENT_INFO = {"name": "t", "version": "1"}
BASE_HEADERS = [("host", HOST), ("accept", "application/json, text/event-stream"), ("content-type", "application/json")]


def fast_path_of(app: Any) -> FastPath:
    """The app's FastPath (the MCP mount's app, or the app it wraps)."""
    for route in app.routes:
        inner = getattr(route, "app", None)
        while inner is not None and not isinstance(inner, FastPath):
            inner = getattr(inner, "app", None)
        if inner is not None:
            return inner
    raise AssertionError("no FastPath mounted")


@dataclass
class Answer:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes


@dataclass
class Rig:
    app: Starlette
    fast: FastPath
    tokens: dict[str, str]
    sessions: dict[str, str]

    async def send(self, method: str, path: str, headers: list[tuple[str, str]], body: bytes) -> Answer:
        return await _asgi(self.app, method, path, headers, body)

    async def both(
        self,
        body: bytes | Any,
        *,
        headers: list[tuple[str, str]] | None = None,
        auth: str | None = "token",
        method: str = "POST",
        path: str = "/mcp",
    ) -> tuple[Answer, Answer, bool]:
        """The fast path's answer (session A), FastMCP's (session B), and whether the fast path passed it on."""
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        answers = []
        fell = False
        for enabled, who in ((True, "a"), (False, "b")):
            hs = list(BASE_HEADERS if headers is None else headers)
            if auth == "token":
                hs.append(("authorization", f"Bearer {self.tokens[who]}"))
            elif auth is not None:
                hs.append(("authorization", auth.replace("{token}", self.tokens[who])))
            self.fast.enabled = enabled
            before = self.fast.answered
            answers.append(await self.send(method, path, hs, raw))
            if enabled:
                fell = self.fast.answered == before
        return answers[0], answers[1], fell


async def _asgi(app: Any, method: str, path: str, headers: list[tuple[str, str]], body: bytes) -> Answer:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "state": {},
    }  # fmt: skip
    incoming: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]
    out: list[Message] = []

    async def receive() -> Message:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        out.append(message)

    await app(scope, receive, send)
    start = next(m for m in out if m["type"] == "http.response.start")
    return Answer(start["status"], list(start["headers"]), b"".join(m.get("body", b"") for m in out[1:]))


@contextlib.asynccontextmanager
async def running(seed: dict[str, Any] | None = None) -> AsyncIterator[Rig]:
    """The app, its lifespan entered (in this task: anyio's scopes must exit where they began), two sessions.

    Both sessions come from ``seed`` (a ``/seed_session`` body; default: a task with every app).
    """
    app = create_app(Settings())
    fast = fast_path_of(app)
    async with app.router.lifespan_context(app):
        tokens, sessions = {}, {}
        for who in ("a", "b"):
            seeded = await _asgi(
                app, "POST", "/seed_session", [("host", HOST)], json.dumps(seed or {"task": ALL_APPS_ROW}).encode()
            )
            assert seeded.status == 200, seeded.body
            tokens[who] = json.loads(seeded.body)["token"]
            sessions[who] = json.loads(seeded.body)["session_id"]
        yield Rig(app, fast, tokens, sessions)


MODERN = MODERN_PROTOCOL_VERSIONS[0]
#: What a 2026-era request carries in params._meta (the protocol has no handshake: every request says it).
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
}
MODERN_HEADERS = [*BASE_HEADERS, ("mcp-protocol-version", MODERN)]


def modern(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as a 2026-era request: the envelope in params._meta (and the method in Mcp-Method)."""
    params = dict(body.get("params") or {})
    params["_meta"] = {**ENVELOPE, **params.get("_meta", {})}
    return {**body, "params": params}


def modern_headers(body: dict[str, Any]) -> list[tuple[str, str]]:
    extra = [("mcp-method", body["method"])]
    if body["method"] == "tools/call":
        extra.append(("mcp-name", body["params"]["name"]))
    return [*MODERN_HEADERS, *extra]


def rpc(method: str, params: Any = None, rid: Any = 1, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method, **extra}
    if params is not None:
        body["params"] = params
    return body


def _sample(schema: dict[str, Any]) -> Any:
    """A plausible value of a property's schema (the first enum value, a default, or one of its type)."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), "string") if isinstance(kind, list) else kind
    return {"string": "owen.bell", "integer": 1, "number": 1.5, "boolean": True, "array": [], "object": {}}.get(
        kind, "x"
    )


def _wrong(schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    return 12345 if kind == "string" or (isinstance(kind, list) and "string" in kind) else "not-a-number"


def argument_corpus(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Arguments for one tool: none, plausible, each property wrong, extra, huge, unicode."""
    props: dict[str, Any] = schema.get("properties", {})
    plausible = {name: _sample(p) for name, p in props.items()}
    corpus: list[dict[str, Any]] = [{}, plausible, {**plausible, "zz_extra": 1}]
    corpus += [{**plausible, name: _wrong(p)} for name, p in props.items()]
    strings = [name for name, p in props.items() if p.get("type") == "string"]
    if strings:
        corpus.append({**plausible, strings[0]: 'é\u2028😀 Ünïcödé "quoted" \\ <tag>'})
        corpus.append({**plausible, strings[0]: "x" * 20_000})
    corpus.append({**plausible, "huge": 10**40, "nested": [[[[{"a": None}]]]]})
    return corpus


def assert_same(fast: Answer, slow: Answer, what: str) -> None:
    assert fast.status == slow.status, what
    assert fast.headers == slow.headers, what
    assert fast.body == slow.body, f"{what}\nfast: {fast.body[:400]!r}\nslow: {slow.body[:400]!r}"


@pytest.mark.slow
@pytest.mark.parametrize("era", ["2025", "2026"])
async def test_every_tool_and_every_kind_of_argument_answers_alike(era: str):
    async with running() as rig:

        async def both(body: dict[str, Any]) -> tuple[Answer, Answer, bool]:
            if era == "2026":
                return await rig.both(modern(body), headers=modern_headers(body))
            return await rig.both(body)

        fast, slow, fell = await both(rpc("tools/list"))
        assert_same(fast, slow, "tools/list")
        assert not fell
        listed = json.loads(fast.body)["result"]["tools"]
        schemas = {t["name"]: t["inputSchema"] for t in listed}
        complete = "company_complete_task"
        names = [n for n in schemas if n != complete] + [complete]  # completing last: the rest still runs either way
        count = 0
        for name in names:
            for rid, arguments in enumerate(argument_corpus(schemas[name])):
                fast, slow, fell = await both(rpc("tools/call", {"name": name, "arguments": arguments}, rid=rid))
                what = f"{name} {json.dumps(arguments)[:200]}"
                assert_same(fast, slow, what)
                assert fell is (name.startswith("api_")), what  # the docs tools stay with FastMCP
                count += 1
        assert count > 5 * len(schemas)


@pytest.mark.slow
async def test_2026_era_routing_rules_match():
    async with running() as rig:
        call = rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "owen.bell"}})
        good = modern_headers(call)
        cases: list[tuple[dict[str, Any], list[tuple[str, str]], bool]] = [
            (modern(call), good, True),
            (modern(rpc("tools/list")), modern_headers(rpc("tools/list")), True),
            (modern(call), MODERN_HEADERS, False),  # no Mcp-Method / Mcp-Name
            (modern(call), [*MODERN_HEADERS, ("mcp-method", "tools/list"), ("mcp-name", "x")], False),  # mismatch
            (modern(call), [*good, ("mcp-name", "company_directory_get_person")], False),  # a routing header twice
            (modern(call), [*good, ("mcp-param-person", "owen.bell")], False),
            (call, good, False),  # no envelope in _meta
            (
                modern(
                    rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "é😀"}}, rid="é")
                ),
                good,
                True,
            ),  # fmt: skip
            ({**modern(call), "params": {**modern(call)["params"], "inputResponses": {}}}, good, False),
        ]
        for body, headers, hot in cases:
            fast, slow, fell = await rig.both(body, headers=headers)
            assert_same(fast, slow, f"{json.dumps(body)[:200]} {headers}")
            assert fell is not hot, (body, headers)


@pytest.mark.slow
async def test_tool_call_shapes_match_fastmcp():
    async with running() as rig:
        cases = [
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "owen.bell"}}),
            rpc("tools/call", {"name": "company_directory_get_person"}, rid="string-id"),  # no arguments
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": {}}, rid=0),
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": 5}}, rid=-7),
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "x"}}, rid="é😀"),
            rpc("tools/list", rid=2**52),
            rpc("tools/list", {}),
            rpc("tools/list", {"_meta": {"progressToken": 0}}),  # as Codex sends them
            rpc(
                "tools/call",
                {
                    "name": "company_directory_get_person",
                    "arguments": {"person": "owen.bell"},
                    "_meta": {"callId": "call_0", "x-client-turn": {"id": "t1", "n": [1, None]}},
                },
            ),
            rpc("tools/call", {"name": "company_directory_get_person", "_meta": {"progressToken": "p"}}),
        ]
        for body in cases:
            fast, slow, fell = await rig.both(body)
            assert_same(fast, slow, json.dumps(body))
            assert not fell, body
            assert fast.status == 200


@pytest.mark.slow
async def test_protocol_versions_accept_and_content_type_rules_match():
    async with running() as rig:
        call = rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "owen.bell"}})
        for version in HANDSHAKE_PROTOCOL_VERSIONS:
            for body in (call, rpc("tools/list")):
                fast, slow, fell = await rig.both(body, headers=[*BASE_HEADERS, ("mcp-protocol-version", version)])
                assert_same(fast, slow, version)
                assert not fell
        variants: list[list[tuple[str, str]]] = [
            [*BASE_HEADERS, ("mcp-protocol-version", MODERN_PROTOCOL_VERSIONS[0])],
            [*BASE_HEADERS, ("mcp-protocol-version", "1999-01-01")],
            [*BASE_HEADERS, ("mcp-protocol-version", "2025-06-18"), ("mcp-protocol-version", "2025-03-26")],
            [("host", HOST), ("content-type", "application/json")],  # no Accept
            [("host", HOST), ("accept", "text/event-stream"), ("content-type", "application/json")],
            [("host", HOST), ("accept", "*/*"), ("content-type", "application/json")],
            [("host", HOST), ("accept", "application/*;q=0.5"), ("content-type", "application/json; charset=utf-8")],
            [("host", HOST), ("accept", "application/json")],  # no Content-Type
            [("host", HOST), ("accept", "application/json"), ("content-type", "text/plain")],
            [("host", "evil.example"), *BASE_HEADERS[1:]],
            [*BASE_HEADERS, ("origin", "http://evil.example")],
            [*BASE_HEADERS, ("origin", "http://localhost:3000")],
            [*BASE_HEADERS, ("mcp-session-id", "abc")],
            # application/json among the parts, but not first: the SDK's transport security refuses it (400)
            [("host", HOST), ("accept", "application/json"), ("content-type", "text/plain, application/json")],
            [("host", HOST), ("accept", "application/json"), ("content-type", "application/jsonx")],
        ]
        hot = {
            5,
            6,
            11,
            12,
        }  # */*, application/* with charset, a loopback Origin, a session id: all fine for FastMCP too
        for i, headers in enumerate(variants):
            fast, slow, fell = await rig.both(call, headers=headers)
            assert_same(fast, slow, str(headers))
            assert fell is (i not in hot), headers


async def test_auth_failures_match():
    async with running() as rig:
        call = rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "owen.bell"}})
        for auth in (None, "Basic abc", "Bearer nope", "Bearer ", "bearer {token}", "BEARER {token}", "Bearer  {token}",
                     "Bearer {token} ", "Bearer {token}\u00e9", "Bearer \u00e9{token}"):  # fmt: skip
            fast, slow, fell = await rig.both(call, auth=auth)
            assert_same(fast, slow, str(auth))
            assert fell is not (auth in ("bearer {token}", "BEARER {token}")), auth
        doubled = [*BASE_HEADERS, ("authorization", "Bearer nope")]
        fast, slow, fell = await rig.both(call, headers=doubled)
        assert_same(fast, slow, "two authorization headers")
        assert fell


async def _closed_on_arrival(rig: Rig, who: str, body: bytes) -> Answer:
    """Send ``body`` as session ``who``; the session is closed when the app first asks for the body."""
    gateway = rig.app.state.gateway
    headers = [*BASE_HEADERS, ("authorization", f"Bearer {rig.tokens[who]}")]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": "/mcp", "raw_path": b"/mcp", "query_string": b"", "root_path": "", "state": {},
        "headers": [(k.encode(), v.encode()) for k, v in headers],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
    }  # fmt: skip
    parts: list[Message] = [{"type": "http.request", "body": body}]
    out: list[Message] = []

    async def receive() -> Message:
        if parts:
            await gateway.close(rig.sessions[who])  # closed while the body is on its way
            return parts.pop()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        out.append(message)

    await rig.app(scope, receive, send)
    start = next(m for m in out if m["type"] == "http.response.start")
    return Answer(start["status"], list(start["headers"]), b"".join(m.get("body", b"") for m in out[1:]))


async def test_a_session_closed_while_its_body_arrives_gets_fastmcp_s_answer():
    async with running() as rig:
        answers = []
        for enabled, who in ((True, "a"), (False, "b")):
            rig.fast.enabled = enabled
            before = rig.fast.answered
            answers.append(await _closed_on_arrival(rig, who, json.dumps(rpc("tools/list")).encode()))
            if enabled:
                assert rig.fast.answered == before  # the fast path passed it on
        assert_same(answers[0], answers[1], "closed while the body arrived")
        assert b'"tools":[' not in answers[0].body  # no listing for a closed session


@pytest.mark.slow
async def test_closed_and_verified_sessions_get_fastmcp_s_answer():
    async with running() as rig:
        call = rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "owen.bell"}})
        for route in ("/verify", "/close_session"):
            for who in ("a", "b"):
                body = json.dumps({"session_id": rig.sessions[who]}).encode()
                done = await rig.send("POST", route, [("host", HOST), ("content-type", "application/json")], body)
                assert done.status == 200, done.body
            fast, slow, fell = await rig.both(call)
            assert_same(fast, slow, route)
            assert fast.status == 401 and fell


@pytest.mark.slow
async def test_malformed_json_rpc_and_other_methods_go_to_fastmcp():
    async with running() as rig:
        bodies: list[bytes | Any] = [
            b"", b"{", b"\xff\xfe", b"null", b"[]", b"42", b'"x"',
            [rpc("tools/list"), rpc("tools/list", rid=2)],  # a batch
            {"jsonrpc": "2.0", "method": "tools/list"},  # a notification
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            rpc("tools/list", jsonrpc="1.0"), {**rpc("tools/list"), "jsonrpc": "1.0"},
            rpc("tools/list", rid=True), rpc("tools/list", rid=1.5), rpc("tools/list", rid=None),
            rpc("tools/list", rid=[1]),
            rpc("tools/list", rid=2**60),
            rpc("tools/list", {"cursor": "abc"}), rpc("tools/list", {"_meta": {"progressToken": 1.5}}),
            rpc("tools/list", {"_meta": {"progressToken": True}}), rpc("tools/list", {"_meta": None}),
            rpc("tools/list", {"_meta": {"fastmcp": {"version": "1"}}}), rpc("tools/list", {"_meta": []}),
            rpc("tools/list", extra_field=1),
            {**rpc("tools/call"), "params": None},
            rpc("tools/call", {"arguments": {}}),
            rpc("tools/call", {"name": 5}),
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": None}),
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": [1]}),
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": {}, "_meta": {"fastmcp": {}}}),
            rpc("tools/call", {"name": "company_directory_get_person", "arguments": {}, "other": 1}),
            rpc("tools/call", {"name": "no_such_tool", "arguments": {}}),
            rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": CLIENT_INFO}),
            rpc("ping"), rpc("resources/list"), rpc("prompts/list"), rpc("logging/setLevel", {"level": "info"}),
            rpc("no/such/method"),
            b'{"jsonrpc":"2.0","id":1,"method":"tools/list","id":2}',  # a repeated key
            b" \n" + json.dumps(rpc("tools/list")).encode() + b" \n",
            b"x" * (4 * 1024 * 1024 + 1),  # past the MCP SDK's body limit
        ]  # fmt: skip
        # Fine for FastMCP too: a repeated key (the last wins in both parsers), surrounding whitespace, and
        # _meta of true's progress token or null (the SDK's own check takes them).
        hot = {len(bodies) - 3, len(bodies) - 2, *(bodies.index(rpc("tools/list", {"_meta": m}))
                                                   for m in ({"progressToken": True}, None))}  # fmt: skip
        for i, body in enumerate(bodies):
            fast, slow, fell = await rig.both(body)
            what = repr(body)[:120]
            assert_same(fast, slow, what)
            assert fell is (i not in hot), what


@pytest.mark.parametrize(
    ("rid", "kind"),
    [(None, "null"), (True, "a boolean"), (1.5, "a number with a fraction"), ([1], "a list"), ({"a": 1}, "an object")],
)
async def test_a_request_whose_id_is_not_a_string_or_integer_gets_a_json_rpc_error(rid, kind):
    """The SDK took such a request for a notification: 202 with no body, and a client waiting for ever."""
    async with running() as rig:
        for method in ("tools/list", "initialize", "ping"):
            fast, slow, _ = await rig.both(rpc(method, rid=rid))
            assert_same(fast, slow, method)
            assert fast.status == 400, (method, fast)
            assert dict(fast.headers)[b"content-type"] == b"application/json"
            error = json.loads(fast.body)
            assert error["jsonrpc"] == "2.0" and error["id"] is None and error["error"]["code"] == -32600
            assert f"not {kind};" in error["error"]["message"]
        note, _, _ = await rig.both({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert note.status == 202 and note.body == b""  # a notification (no id at all) is still the SDK's
        listing, _, fell = await rig.both(rpc("tools/list", rid="req-1"))
        assert listing.status == 200 and json.loads(listing.body)["id"] == "req-1" and not fell


@pytest.mark.slow
async def test_other_methods_and_paths_go_to_fastmcp():
    async with running() as rig:
        for method, path in (
            ("GET", "/mcp"),
            ("DELETE", "/mcp"),
            ("PUT", "/mcp"),
            ("POST", "/other"),
        ):
            fast, slow, fell = await rig.both(rpc("tools/list"), method=method, path=path)
            assert_same(fast, slow, f"{method} {path}")
            assert fell, f"{method} {path}"
        # /mcp/ is served as /mcp (FastMCP redirected it with an empty 307), on the fast path too
        fast, slow, fell = await rig.both(rpc("tools/list"), path="/mcp/")
        assert_same(fast, slow, "POST /mcp/")
        assert fast.status == 200 and not fell


async def test_the_switch_sends_everything_to_fastmcp():
    app = create_app(Settings(mcp_fast_path=False))
    fast = fast_path_of(app)
    assert fast.enabled is False
    assert fast_path_of(create_app(Settings())).enabled is True


@pytest.mark.slow
async def test_a_tool_s_own_failure_is_masked_alike(monkeypatch):
    from gateway.surfaces.mcp import ActionTool

    async def boom(self, session, arguments):
        raise RuntimeError("/secret/path exploded")

    monkeypatch.setattr(ActionTool, "run_for", boom)
    async with running() as rig:
        call = rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "owen.bell"}})
        fast, slow, fell = await rig.both(call)
        assert_same(fast, slow, "a failing tool")
        assert not fell
        assert b"Error calling tool 'company_directory_get_person'" in fast.body and b"secret" not in fast.body


@pytest.mark.slow
async def test_a_session_s_own_tool_list_and_a_tool_it_is_not_offered_match():
    async with running({"task_id": "dir-manager-of-owen"}) as rig:
        listing, slow, fell = await rig.both(rpc("tools/list"))
        assert_same(listing, slow, "tools/list")
        assert not fell
        names = [t["name"] for t in json.loads(listing.body)["result"]["tools"]]
        assert "company_gmail_send_message" not in names and "company_directory_get_manager" in names
        for body in (rpc("tools/call", {"name": "company_gmail_send_message", "arguments": {}}),
                     modern(rpc("tools/call", {"name": "company_gmail_send_message", "arguments": {}}))):  # fmt: skip
            headers = modern_headers(body) if "_meta" in body["params"] else None
            fast, slow, fell = await rig.both(body, headers=headers)
            assert_same(fast, slow, "a tool the session is not offered")
            assert not fell
            assert b"Unknown tool: 'company_gmail_send_message'" in fast.body


async def test_a_model_s_bad_arguments_are_no_server_error_in_the_log_on_either_path(caplog):
    async with running() as rig:
        call = rpc("tools/call", {"name": "company_directory_get_person", "arguments": {"person": "nobody.here"}})
        with caplog.at_level(logging.DEBUG):
            fast, slow, fell = await rig.both(call)
        assert_same(fast, slow, "a refused call")
        assert b'"isError":true' in fast.body.replace(b" ", b"")
        said = [r for r in caplog.records if "Error calling tool" in r.getMessage()]
        assert said and all(r.levelno == logging.DEBUG for r in said)  # both paths said it, neither as an error
