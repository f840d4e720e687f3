"""Every surface the sandbox can read, collected from a live server and checked against one word list.

docs/exposures.md, what the sandbox sees: tool names, descriptions and schemas, docs
pages, command help and scripts, the workspace guide and files, the company
OpenAPI document, error texts, and HTTP headers never name the machinery (see
``tests.conftest.banned_words``). Everything here is read the way a model in a
sandbox would read it: over MCP, over ``/api`` and ``/cli`` on loopback, and from
inside the lent sandbox.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from starlette.applications import Starlette

from docs_tool import DOCS_TOOL_NAMES, page_names
from gateway import Settings, create_app
from gateway.control.workspace import SANDBOX_API_SOCKET
from gateway.surfaces.serve import serve_in_background
from sandbox import ProviderUnavailable
from sandbox.local import LocalProvider
from tests.conftest import banned_words, require_binary
from tools import REGISTRY

MAX_BYTES = 64 * 1024
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
FILE_ID = "file_vendor_list"  # a Drive file: reading it saves a copy into the workspace


def row(exposure: str, docs_tool: str = "api_fetch") -> dict[str, Any]:
    return {
        "id": f"every-app-{exposure}",
        "instruction": "Look around.",
        "apps": list(REGISTRY.apps),
        "exposure": exposure,
        "docs_tool": docs_tool,
        "sandbox": True,
        "checks": [{"name": "a", "kind": "answer", "match": {"contains": "x"}}],
    }


class FailingWrites(LocalProvider):
    """The local provider; with ``fail_writes`` set, saving a file fails as a broken engine would."""

    fail_writes = False

    async def write_files(self, sandbox, files, mode=0o644):
        if self.fail_writes and "README.md" not in files:
            raise ProviderUnavailable("engine timeout writing " + ",".join(files))
        return await super().write_files(sandbox, files, mode)


@dataclass
class Seen:
    """What the sandbox read, by where it came from."""

    texts: dict[str, str] = field(default_factory=dict)
    statuses: dict[str, set[int]] = field(default_factory=dict)

    def add(self, where: str, text: str) -> None:
        self.texts[where] = self.texts.get(where, "") + "\n" + text

    def answer(self, surface: str, where: str, r: httpx.Response) -> httpx.Response:
        headers = "\n".join(f"{k}: {v}" for k, v in r.headers.items())
        self.add(f"{surface} {r.status_code} {where}", f"{r.text}\n{headers}")
        self.statuses.setdefault(surface, set()).add(r.status_code)
        return r


@dataclass
class Served:
    app: Starlette
    base: str
    provider: FailingWrites
    http: httpx.AsyncClient

    async def seed(self, body: dict[str, Any]) -> dict[str, Any]:
        r = await self.http.post("/seed_session", json=body)
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
async def served(tmp_path) -> AsyncIterator[Served]:
    provider = FailingWrites(tmp_path / "sandboxes", owner="test-owner")
    settings = Settings(close_tools_on_task_end=True, max_request_bytes=MAX_BYTES)
    app = create_app(settings, provider=provider)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as http:
        yield Served(app, base, provider, http)


def bearer(seed: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {seed['token']}"}


def cli_words(*words: str) -> dict[str, Any]:
    return {"argc": str(len(words)), "argv": list(words)}


async def mcp_surfaces(s: Served, seen: Seen, seed: dict[str, Any], label: str) -> None:
    """Server info, instructions, every tool listed, every docs page, and tool error texts."""
    transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
    async with Client(transport) as client:
        info = client.server_info
        assert info is not None
        seen.add(f"mcp {label} server", f"{json.dumps(info.model_dump(mode='json'))} {client.instructions}")
        tools = await client.list_tools()
        assert [t.name for t in tools] == seed["tools"]
        for tool in tools:
            seen.add(f"mcp {label} tool {tool.name}", json.dumps(tool.model_dump(mode="json", by_alias=True)))
        for kind, listing in (("prompts", client.list_prompts), ("resources", client.list_resources)):
            seen.add(f"mcp {label} {kind}", json.dumps([x.model_dump(mode="json") for x in await listing()]))
        docs = [t.name for t in tools if t.name in DOCS_TOOL_NAMES]
        for name in docs:
            for page in ["", *page_names(list(REGISTRY.apps)), "no/such/page"]:
                r = await client.call_tool(name, {"page": page}, raise_on_error=False)
                seen.add(f"mcp {label} {name} page {page!r}", " ".join(c.text for c in r.content))
            r = await client.call_tool(name, {"page": 3, "extra": 1}, raise_on_error=False)
            seen.add(f"mcp {label} {name} bad arguments", " ".join(c.text for c in r.content))
        calls = [
            ("unknown tool", "company_nosuch_tool", {}),
            ("bad parameter", "company_directory_search_people", {"page_size": 0}),
            ("missing parameter", "company_directory_get_person", {}),
            ("unknown parameter", "company_directory_list_departments", {"nope": 1}),
            ("not found", "company_directory_get_person", {"person": "Nobody Here"}),
            ("outside the workspace", "company_drive_upload_file", {"path": "../../etc/passwd", "name": "x"}),
        ]
        for what, tool_name, arguments in calls:
            r = await client.call_tool(tool_name, arguments, raise_on_error=False)
            seen.add(f"mcp {label} tool error: {what}", " ".join(getattr(c, "text", "") for c in r.content))


async def raw_mcp_answers(s: Served, seen: Seen, seed: dict[str, Any]) -> None:
    """HTTP-level answers of /mcp: 400, 401, 404, 405, 406, 413, 421, 403, 200 and their headers."""
    url = "/mcp"
    good = {**MCP_HEADERS, **bearer(seed)}
    answers = {
        "no token": s.http.post(url, json=LIST, headers=MCP_HEADERS),
        "bad token": s.http.post(url, json=LIST, headers={**MCP_HEADERS, "Authorization": "Bearer nope"}),
        "list": s.http.post(url, json=LIST, headers=good),
        "bad json": s.http.post(url, content=b"{nope", headers=good),
        "bad method": s.http.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "nope/x"}, headers=good),
        "not json-rpc": s.http.post(url, json={"hello": 1}, headers=good),
        "wrong accept": s.http.post(url, json=LIST, headers={**good, "Accept": "text/html"}),
        "GET": s.http.get(url, headers=good),
        "DELETE": s.http.delete(url, headers=good),
        "PUT": s.http.put(url, json=LIST, headers=good),
        "unknown path": s.http.get("/nope", headers=good),
        "too large": s.http.post(url, content=b"x" * (MAX_BYTES + 1), headers=good),
        "foreign host": s.http.post(url, json=LIST, headers={**good, "Host": "evil.example"}),
        "foreign origin": s.http.post(url, json=LIST, headers={**good, "Origin": "http://evil.example"}),
        "oauth metadata": s.http.get("/.well-known/oauth-protected-resource/mcp"),
    }
    for where, pending in answers.items():
        seen.answer("mcp", where, await pending)


async def api_answers(s: Served, seen: Seen, seed: dict[str, Any]) -> None:
    """/api: the OpenAPI document, successes and every error status."""
    api = seed["company_api_url"]
    auth = bearer(seed)
    add = seen.answer
    add("api", "openapi", await s.http.get(f"{api}/openapi.json"))
    add("api", "ok", await s.http.post(f"{api}/directory/list_departments", json={}, headers=auth))
    add("api", "no token", await s.http.post(f"{api}/directory/list_departments", json={}))
    add("api", "bad token", await s.http.post(f"{api}/directory/list_departments", headers={"Authorization": "x y"}))
    add("api", "bad json", await s.http.post(f"{api}/directory/get_person", content=b"{", headers=auth))
    add("api", "not an object", await s.http.post(f"{api}/directory/get_person", json=[1], headers=auth))
    add("api", "missing param", await s.http.post(f"{api}/directory/get_person", json={}, headers=auth))
    add("api", "bad param", await s.http.post(f"{api}/directory/search_people", json={"page_size": 0}, headers=auth))
    add("api", "not found", await s.http.post(f"{api}/directory/get_person", json={"person": "Nobody"}, headers=auth))
    add("api", "no app", await s.http.post(f"{api}/payroll/run", json={}, headers=auth))
    add("api", "no action", await s.http.post(f"{api}/directory/fire", json={}, headers=auth))
    add("api", "GET", await s.http.get(f"{api}/directory/get_person", headers=auth))
    add("api", "DELETE", await s.http.delete(f"{api}/directory/get_person", headers=auth))
    big = b'{"person": "' + b"x" * MAX_BYTES + b'"}'
    add("api", "too large", await s.http.post(f"{api}/directory/get_person", content=big, headers=auth))
    add("api", "outside", await s.http.post(f"{api}/drive/upload_file", json={"path": "/etc/passwd"}, headers=auth))
    s.provider.fail_writes = True
    add("api", "provider", await s.http.post(f"{api}/drive/read_file", json={"file_id": FILE_ID}, headers=auth))
    s.provider.fail_writes = False


async def cli_answers(s: Served, seen: Seen, seed: dict[str, Any]) -> None:
    """/cli: help for every command and sub-command, and every error status."""
    base = seed["company_api_url"].removesuffix("/api") + "/cli"
    auth = bearer(seed)

    async def cli(where: str, command: str, *words: str, headers: dict[str, str] = auth) -> None:
        seen.answer("cli", where, await s.http.post(f"{base}/{command}", data=cli_words(*words), headers=headers))

    for app in REGISTRY.apps.values():
        await cli(f"help {app.name}", app.name, "--help")
        for action in app.actions.values():
            await cli(f"help {app.name} {action.command}", app.name, action.command, "--help")
    await cli("help company", "company", "--help")
    await cli("help company complete-task", "company", "complete-task", "--help")
    await cli("no words", "directory")
    await cli("ok", "directory", "list-departments")
    await cli("no token", "directory", "list-departments", headers={})
    await cli("unknown command", "payroll", "run")
    await cli("unknown sub-command", "directory", "fire")
    await cli("unknown option", "directory", "get-person", "--persn=x")
    await cli("option without value", "directory", "get-person", "--person")
    await cli("bad value", "directory", "search-people", "--page-size=zero")
    await cli("not found", "directory", "get-person", "--person=Nobody")
    await cli("pasted content", "drive", "upload-file", "--name=x.txt", "--content=aGVsbG8=")
    seen.answer("cli", "argc mismatch", await s.http.post(f"{base}/directory", content=b"argc=3", headers=auth))
    seen.answer("cli", "GET", await s.http.get(f"{base}/directory", headers=auth))
    big = {"argc": "1", "argv": "x" * MAX_BYTES}
    seen.answer("cli", "too large", await s.http.post(f"{base}/directory", data=big, headers=auth))
    s.provider.fail_writes = True
    await cli("provider", "drive", "read-file", f"--file-id={FILE_ID}")
    s.provider.fail_writes = False


async def after_completion(s: Served, seen: Seen, seed: dict[str, Any]) -> None:
    """409 on every surface once the work is marked complete (close_tools_on_task_end)."""
    api, auth = seed["company_api_url"], bearer(seed)
    done = await s.http.post(f"{api}/complete_task", json={"summary": "done"}, headers=auth)
    seen.answer("api", "complete", done)
    seen.answer("api", "after completion", await s.http.post(f"{api}/directory/list_departments", headers=auth))
    cli = seed["company_api_url"].removesuffix("/api") + "/cli/directory"
    r = await s.http.post(cli, data=cli_words("list-departments"), headers=auth)
    seen.answer("cli", "after completion", r)
    transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
    async with Client(transport) as client:
        r = await client.call_tool("company_complete_task", {"summary": "again"}, raise_on_error=False)
        seen.add("mcp tool error: after completion", " ".join(getattr(c, "text", "") for c in r.content))


async def socket_answers(s: Served, seen: Seen, seed: dict[str, Any]) -> None:
    """What the sandbox's unix socket answers: the API, /mcp, and the control routes' refusals (403)."""
    path = s.provider.socket_binds[SANDBOX_API_SOCKET]
    transport = httpx.AsyncHTTPTransport(uds=path)
    auth = bearer(seed)
    async with httpx.AsyncClient(transport=transport, base_url=seed["company_api_url"].removesuffix("/api")) as c:
        seen.answer("socket", "ok", await c.post("/api/directory/list_departments", json={}, headers=auth))
        seen.answer("socket", "no token", await c.post("/api/directory/list_departments", json={}))
        seen.answer("socket", "mcp", await c.post("/mcp", json=LIST, headers={**MCP_HEADERS, **auth}))
        for route in ("/tasks", "/metrics", "/openapi.json", "/task_state?session_id=x"):
            seen.answer("socket", route, await c.get(route, headers=auth))
        for route in ("/seed_session", "/verify", "/close_session"):
            seen.answer("socket", route, await c.post(route, json={"task_id": "x"}, headers=auth))


async def sandbox_view(s: Served, seen: Seen, seed: dict[str, Any], label: str) -> None:
    """Inside the sandbox: the guide, every file name and script, and the environment."""
    session = s.app.state.gateway.get_session(seed["session_id"])
    sandbox = session.sandbox
    assert sandbox is not None
    seen.add(f"sandbox {label} README.md", (await s.provider.read_file(sandbox, "README.md")).decode())
    # /run/company holds the API's socket, and mountinfo shows where each bound path comes from on the host.
    script = "env; pwd; ls -laR . /opt/company/bin /run/company; cat /proc/self/mountinfo"
    listing = await s.provider.exec(sandbox, ["sh", "-c", script], timeout_s=30)
    assert listing.exit_code == 0, listing
    seen.add(f"sandbox {label} env and files", listing.stdout.decode() + listing.stderr.decode())
    scripts = await s.provider.exec(sandbox, ["sh", "-c", "cat /opt/company/bin/*"], timeout_s=30)
    seen.add(f"sandbox {label} scripts", scripts.stdout.decode())
    seen.add(f"seed {label} values shown to the sandbox", f"{seed['mcp']['server_name']} {seed['company_api_url']}")


@pytest.mark.slow
async def test_no_surface_the_sandbox_reads_uses_a_banned_word(served: Served) -> None:
    require_binary("bwrap")  # the sandbox's own view (/opt/company/bin, its socket) exists only under bubblewrap
    seen = Seen()
    by_exposure = {
        "mcp": await served.seed({"task": row("mcp")}),
        "cli": await served.seed({"task": row("cli")}),
        "http api_fetch": await served.seed({"task": row("http", "api_fetch")}),
        "http api_docs": await served.seed({"task": row("http", "api_docs")}),
    }
    for label, seed in by_exposure.items():
        await mcp_surfaces(served, seen, seed, label)
        await sandbox_view(served, seen, seed, label)
    await raw_mcp_answers(served, seen, by_exposure["mcp"])
    await api_answers(served, seen, by_exposure["http api_fetch"])
    await cli_answers(served, seen, by_exposure["cli"])
    await socket_answers(served, seen, by_exposure["http api_fetch"])
    await after_completion(served, seen, by_exposure["http api_docs"])

    # Every surface was really reached, with every status the brief names.
    assert {400, 401, 404, 405, 409, 413, 502} <= seen.statuses["api"], seen.statuses["api"]
    assert {400, 401, 404, 405, 409, 413, 422, 502} <= seen.statuses["cli"], seen.statuses["cli"]
    assert {400, 401, 403, 404, 405, 406, 413, 421} <= seen.statuses["mcp"], seen.statuses["mcp"]
    assert seen.statuses["socket"] == {200, 401, 403}, seen.statuses["socket"]
    # The sandboxes have no network: they use the API's socket, and the guide and docs say how.
    assert "COMPANY_API_SOCKET=/run/company/api.sock" in seen.texts["sandbox http api_fetch env and files"]
    assert '--unix-socket "$COMPANY_API_SOCKET"' in seen.texts["sandbox http api_fetch README.md"]
    assert '--unix-socket "$COMPANY_API_SOCKET"' in seen.texts["mcp http api_fetch api_fetch page 'directory'"]
    tools = [w for w in seen.texts if " tool company_" in w]
    assert len(tools) >= len(list(REGISTRY.actions())), len(tools)
    assert sum(" page " in w for w in seen.texts) > 2 * len(REGISTRY.apps)

    hits = {where: found for where, text in seen.texts.items() if (found := banned_words(text))}
    assert hits == {}
