"""The session gate: 429 past a session's open bound, and no body read before the caller is known.

Driven at the ASGI app itself, with bodies that record whether anyone asked for them: a request
refused from its head must never call ``receive``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx
import pytest
from starlette.applications import Starlette
from starlette.types import Message

from gateway import Settings, create_app

TASK_ID = "dir-manager-of-owen"
HOST = "127.0.0.1:8000"
MCP = [("accept", "application/json, text/event-stream"), ("content-type", "application/json")]
LIST = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
#: A large body (7.9 MB) that the gate must refuse without reading.
LARGE = 7_900_000


class Body:
    """A request body that records each read, and can hold its first read until released."""

    def __init__(self, data: bytes = b"{}", *, held: bool = False) -> None:
        self.data = data
        self.reads = 0
        self.release = asyncio.Event()
        if not held:
            self.release.set()

    async def receive(self) -> Message:
        self.reads += 1
        if self.reads == 1:
            await self.release.wait()
            return {"type": "http.request", "body": self.data, "more_body": False}
        await asyncio.Event().wait()  # nothing more: as a client keeping the connection open
        raise AssertionError("unreachable")


class Sent:
    """What the app sent back."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.started = asyncio.Event()

    async def send(self, message: Message) -> None:
        self.messages.append(message)
        if message["type"] == "http.response.start":
            self.started.set()

    @property
    def status(self) -> int:
        return int(next(m for m in self.messages if m["type"] == "http.response.start")["status"])

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(next(m for m in self.messages if m["type"] == "http.response.start")["headers"])

    def json(self) -> Any:
        return json.loads(b"".join(m.get("body", b"") for m in self.messages if m["type"] == "http.response.body"))


def as_(token: str, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [*headers, ("authorization", f"Bearer {token}")]


def scope(path: str, headers: list[tuple[str, str]], length: int | None = None) -> dict[str, Any]:
    raw = [("host", HOST), *headers]
    if length is not None:
        raw.append(("content-length", str(length)))
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "state": {},
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in raw],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
    }  # fmt: skip


@contextlib.asynccontextmanager
async def running() -> AsyncIterator[Starlette]:
    """The app with its lifespan entered in this task (anyio's scopes must exit where they began)."""
    application = create_app(Settings(sandbox_provider="none", session_max_inflight=2))
    async with application.router.lifespan_context(application):
        yield application


async def seed(app: Starlette) -> str:
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url=f"http://{HOST}") as client:
        r = await client.post("/seed_session", json={"task_id": TASK_ID, "exposure": "mcp"})
        assert r.status_code == 200, r.text
        return str(r.json()["token"])


ROUTES = [
    ("/mcp", MCP, LIST),
    ("/api/directory/list_departments", [("content-type", "application/json")], b"{}"),
    ("/cli/directory", [("content-type", "application/x-www-form-urlencoded")], b"argc=1&argv=list-departments"),
]


@pytest.mark.parametrize(("path", "headers", "data"), ROUTES, ids=[r[0] for r in ROUTES])
async def test_past_the_bound_a_session_gets_429_and_its_body_is_never_read(path, headers, data):
    async with running() as app:
        token = await seed(app)
        auth = [*headers, ("authorization", f"Bearer {token}")]
        first, second, third = Body(data, held=True), Body(data), Body(data)
        sent = [Sent(), Sent(), Sent()]
        with anyio.fail_after(10):
            first_task = asyncio.create_task(app(scope(path, auth, len(data)), first.receive, sent[0].send))
            while first.reads == 0:
                await asyncio.sleep(0)
            waiting = asyncio.create_task(app(scope(path, auth, len(data)), second.receive, sent[1].send))
            await asyncio.sleep(0.01)  # the second is at the gate
            await app(scope(path, auth, len(data)), third.receive, sent[2].send)  # the third, with two open: refused
            refused = sent[2]
            assert refused.status == 429
            assert refused.headers[b"retry-after"] == b"1"
            assert refused.headers[b"content-type"] == b"application/json"
            assert third.reads == 0
            message = (
                "too many requests open for this token (at most 2 at once); "
                "retry after 1 s, once earlier ones are answered"
            )
            if path == "/mcp":
                assert refused.json() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}
            else:
                assert refused.json() == {"error": {"message": message, "parameter": None}}
            # one at a time: the second waits, its body unread, until the first is answered
            await asyncio.sleep(0.01)
            assert second.reads == 0 and not sent[1].messages
            first.release.set()
            await first_task
            await waiting
        assert sent[0].status == 200 and sent[1].status == 200
        assert second.reads >= 1


async def test_the_bound_is_per_session_and_frees_as_answers_go():
    async with running() as app:
        first_token, other_token = await seed(app), await seed(app)
        path, headers, data = ROUTES[1]
        held = [Body(data, held=True), Body(data)]
        with anyio.fail_after(10):
            tasks = [
                asyncio.create_task(app(scope(path, as_(first_token, headers)), b.receive, Sent().send)) for b in held
            ]
            await asyncio.sleep(0.01)
            other = Sent()  # another session is not held by the first one's open requests
            await app(scope(path, as_(other_token, headers)), Body(data).receive, other.send)
            assert other.status == 200
            held[0].release.set()
            await asyncio.gather(*tasks)
            again = Sent()  # the first session's requests are answered: it may send again
            await app(scope(path, as_(first_token, headers)), Body(data).receive, again.send)
            assert again.status == 200
        gate = app.middleware_stack
        while gate is not None and type(gate).__name__ != "SessionGate":
            gate = getattr(gate, "app", None)
        assert gate is not None and gate._turns == {}  # nothing kept for sessions with nothing open


@pytest.mark.parametrize(("path", "headers", "data"), ROUTES, ids=[r[0] for r in ROUTES])
@pytest.mark.parametrize("auth", [None, "Bearer nope", "Bearer {token}\u00e9"], ids=["none", "wrong", "non-ascii"])
async def test_a_large_post_without_a_valid_token_is_refused_unread(path, headers, data, auth):
    async with running() as app:
        token = await seed(app)
        extra = [] if auth is None else [("authorization", auth.replace("{token}", token))]
        body = Body(b"x" * LARGE)
        sent = Sent()
        with anyio.fail_after(10):
            await app(scope(path, [*headers, *extra], LARGE), body.receive, sent.send)
        assert sent.status == (413 if path == "/mcp" else 401)  # /mcp takes at most 4 MiB: told by its head too
        assert body.reads == 0  # not a byte of it read
        assert sent.headers[b"connection"] == b"close"  # nor drained: the connection ends with the answer
        answer = sent.json()
        assert isinstance(answer, dict) and "error" in answer


@pytest.mark.parametrize(("path", "headers", "data"), ROUTES, ids=[r[0] for r in ROUTES])
async def test_a_valid_token_with_a_non_ascii_byte_appended_is_401_not_500(path, headers, data):
    async with running() as app:
        token = await seed(app)
        for bad in (token + "\u00e9", token + "\u00ff", "\u00e9" + token):
            sent = Sent()
            await app(scope(path, as_(bad, headers), len(data)), Body(data).receive, sent.send)
            assert sent.status == 401, bad
            assert sent.headers[b"content-type"] == b"application/json"


async def test_a_session_refused_again_before_retry_after_waits_for_its_429_while_others_go_on():
    async with running() as app:
        token, other_token = await seed(app), await seed(app)
        path, headers, data = ROUTES[1]
        gate = app.middleware_stack
        while gate is not None and type(gate).__name__ != "SessionGate":
            gate = getattr(gate, "app", None)
        assert gate is not None
        held = [Body(data, held=True), Body(data)]
        with anyio.fail_after(10):
            open_ = [asyncio.create_task(app(scope(path, as_(token, headers)), b.receive, Sent().send)) for b in held]
            await asyncio.sleep(0.01)
            loop = asyncio.get_running_loop()
            first = Sent()
            started = loop.time()
            await app(scope(path, as_(token, headers)), Body(data).receive, first.send)
            assert first.status == 429 and loop.time() - started < 0.5  # the first refusal: at once
            second, third = Sent(), Sent()
            resent = [
                asyncio.create_task(app(scope(path, as_(token, headers)), Body(data).receive, s.send))
                for s in (second, third)
            ]
            await asyncio.sleep(0.05)
            assert not second.messages and not third.messages and gate.held == 2  # resent at once: held
            other = Sent()  # another session is not held back by them
            await app(scope(path, as_(other_token, headers)), Body(data).receive, other.send)
            assert other.status == 200 and not second.messages
            await asyncio.gather(*resent)
            waited = loop.time() - started
            assert second.status == third.status == 429 and waited >= 0.95
            assert second.headers[b"retry-after"] == b"1" and gate.held == 0
            held[0].release.set()
            await asyncio.gather(*open_)


async def test_the_pacer_lets_a_burst_go_at_once_then_each_waits_its_share_and_a_given_up_one_costs_nothing():
    from gateway.surfaces.gate import BodyPacer

    loop = asyncio.get_running_loop()
    pacer = BodyPacer(bytes_per_s=1000, burst=200)
    started = loop.time()
    await pacer.take(200)  # a full bucket: at once, and empty after it
    assert loop.time() - started < 0.1 and pacer.paced == 0
    gave_up = asyncio.create_task(pacer.take(5000))  # would hold the bucket 5 s after its turn
    second = asyncio.create_task(pacer.take(100))
    await asyncio.sleep(0.02)
    assert pacer.waiting == 2 and not second.done()
    gave_up.cancel()
    with anyio.fail_after(2):
        await second
    waited = loop.time() - started
    assert 0.09 <= waited < 1.5  # the 100 bytes' own 0.1 s, not the given-up one's 5 s
    assert pacer.paced == 2 and pacer.waiting == 0
    await asyncio.sleep(0.35)  # the bucket refills up to its burst, no further
    started = loop.time()
    await pacer.take(200)
    assert loop.time() - started < 0.1
    third = asyncio.create_task(pacer.take(150))
    await asyncio.sleep(0.1)
    assert not third.done()  # 0.15 s after the burst: past what a quiet spell saved
    await third


def _gate_of(app: Starlette) -> Any:
    gate = app.middleware_stack
    while gate is not None and type(gate).__name__ != "SessionGate":
        gate = getattr(gate, "app", None)
    assert gate is not None
    return gate


async def test_large_bodies_are_paced_as_read_while_small_ones_and_heads_that_send_nothing_cost_nothing():
    from gateway.surfaces.gate import BodyPacer

    application = create_app(Settings(sandbox_provider="none"))
    async with application.router.lifespan_context(application):
        app = application
        tokens = [await seed(app) for _ in range(4)]
        gate = _gate_of(app)  # the middleware is built by the first request
        gate.pacer = BodyPacer(bytes_per_s=300_000, burst=100_000)
        path, headers = "/api/directory/search_people", [("content-type", "application/json")]
        large = b'{"query": "' + b"e" * (300 * 1024) + b'"}'  # 300 KiB: ~1 s of the pace
        loop = asyncio.get_running_loop()
        with anyio.fail_after(15):
            ghost = Body(large, held=True)  # a head promising 300 KiB, and no byte after it
            ghosting = asyncio.create_task(app(scope(path, as_(tokens[3], headers), len(large)), ghost.receive,
                                               Sent().send))  # fmt: skip
            await asyncio.sleep(0.05)
            first, second = Sent(), Sent()
            started = loop.time()
            await app(scope(path, as_(tokens[0], headers), len(large)), Body(large).receive, first.send)
            assert loop.time() - started < 0.5  # the bucket was full: the ghost took nothing from it
            waiting = asyncio.create_task(
                app(scope(path, as_(tokens[1], headers), len(large)), Body(large).receive, second.send)
            )
            await asyncio.sleep(0.05)
            assert gate.pacer.waiting == 1 and not second.messages  # read, waiting for its share before the parse
            small = Sent()
            await app(scope(path, as_(tokens[2], headers), 2), Body(b"{}").receive, small.send)
            assert small.status == 200 and not second.messages  # a small call is not held behind it
            too_large, unread = Sent(), Body(b"{}")  # past /mcp/'s bound (as /mcp's): refused from its head
            await app(scope("/mcp/", as_(tokens[2], MCP), LARGE), unread.receive, too_large.send)
            assert too_large.status == 413 and unread.reads == 0 and not second.messages
            await waiting
            assert loop.time() - started >= 0.8
            ghosting.cancel()
        assert first.status == second.status == 400  # read and answered: the query is past its bound
        assert "query" in json.dumps(second.json())


async def test_a_body_trickled_beside_a_paced_flood_is_still_cut_off_at_twice_the_read_timeout():
    from gateway.surfaces.gate import PACER, BodyPacer
    from gateway.surfaces.limits import BodyLimit

    pacer = BodyPacer(bytes_per_s=1000, burst=1)  # a bucket a flood has drained: 70 KB pays for ~70 s
    chunks = iter([b"x" * 70_000])

    async def trickle() -> Message:
        await asyncio.sleep(0.01)
        return {"type": "http.request", "body": next(chunks, b"y"), "more_body": True}  # a byte at a time, forever

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while True:
            await receive()

    limited = BodyLimit(app, max_bytes=1_000_000, timeout_s=0.3)
    sent = Sent()
    loop = asyncio.get_running_loop()
    started = loop.time()
    with anyio.fail_after(10):
        await limited({**scope("/api/drive/create_file", []), PACER: pacer}, trickle, sent.send)
    assert sent.status == 408 and "being paced" in sent.json()["error"]["message"]
    assert loop.time() - started < 1.5  # its own 0.3 s and at most 0.3 s of the pacer's: not the pacer's 70 s


@pytest.mark.parametrize(("path", "headers", "data"), ROUTES, ids=[r[0] for r in ROUTES])
async def test_two_authorization_headers_are_refused_unread_not_let_past_the_bound(path, headers, data):
    async with running() as app:
        token = await seed(app)
        body = Body(data)
        sent = Sent()
        twice = [*as_(token, headers), ("authorization", f"Bearer {token}")]
        await app(scope(path, twice, len(data)), body.receive, sent.send)
        assert sent.status == 401 and body.reads == 0  # the routes read the first: the gate never saw a session
        assert "one Authorization header" in sent.json()["error"]["message"]
