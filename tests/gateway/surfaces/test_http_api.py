from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from openapi_spec_validator import validate

from gateway.settings import Settings
from gateway.surfaces.asgi import create_app
from tests.cli_shim.live import TASK_ID, live_gateway, run_command, script_env, write_scripts
from tests.conftest import in_process
from tests.tiers import sampled
from tools import COMPLETE_TASK, REGISTRY


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings())
    async with in_process(app) as c:
        yield c


async def auth(client: httpx.AsyncClient, exposure: str = "http", **extra: Any) -> dict[str, str]:
    resp = await client.post("/seed_session", json={"task_id": TASK_ID, "exposure": exposure, **extra})
    return {"Authorization": f"Bearer {resp.raise_for_status().json()['token']}"}


async def test_call_returns_the_actions_json_result(client: httpx.AsyncClient) -> None:
    headers = await auth(client)
    resp = await client.post("/api/directory/get_manager", json={"person": "Owen Bell"}, headers=headers)
    assert resp.status_code == 200
    assert resp.headers["content-type"] == "application/json"
    assert resp.json()["manager"]["email"] == "priya.shah@northwind.example"


async def test_empty_body_means_no_parameters(client: httpx.AsyncClient) -> None:
    resp = await client.post("/api/directory/list_departments", headers=await auth(client))
    assert resp.status_code == 200
    assert resp.json()["departments"]


@pytest.mark.parametrize("header", sampled([None, "Bearer", "Bearer not-a-token", "Basic abc"], 1, seed="no-token"))
async def test_missing_or_invalid_token_is_401(client: httpx.AsyncClient, header: str | None) -> None:
    await auth(client)
    headers = {"Authorization": header} if header else {}
    resp = await client.post("/api/directory/list_departments", json={}, headers=headers)
    assert resp.status_code == 401
    assert resp.headers["www-authenticate"] == "Bearer"
    assert resp.json()["error"]["message"].startswith("missing, invalid or expired access token")


@pytest.mark.slow
async def test_unknown_app_or_action_is_404_listing_what_exists(client: httpx.AsyncClient) -> None:
    headers = await auth(client)
    resp = await client.post("/api/payroll/run", json={}, headers=headers)
    assert resp.status_code == 404
    assert "for the apps directory" in resp.json()["error"]["message"]
    resp = await client.post("/api/directory/fire_everyone", json={}, headers=headers)
    assert resp.status_code == 404
    error = resp.json()["error"]
    assert error["parameter"] == "action"
    assert "/api/directory/get_person" in error["message"]


@pytest.mark.slow
async def test_app_outside_the_sessions_apps_is_unknown(client: httpx.AsyncClient) -> None:
    other = next(a for a in REGISTRY.apps if a != "directory")
    action = next(iter(REGISTRY.apps[other].actions))
    resp = await client.post(f"/api/{other}/{action}", json={}, headers=await auth(client))
    assert resp.status_code == 404


async def test_invalid_json_is_400(client: httpx.AsyncClient) -> None:
    headers = await auth(client)
    resp = await client.post("/api/directory/get_person", content=b"{not json", headers=headers)
    assert resp.status_code == 400
    assert resp.json()["error"]["message"].startswith("the body is not valid JSON")
    resp = await client.post("/api/directory/get_person", json=["a"], headers=headers)
    assert resp.status_code == 400
    assert resp.json()["error"]["message"].startswith("the body must be a JSON object")


async def test_app_errors_are_400_naming_the_parameter(client: httpx.AsyncClient) -> None:
    headers = await auth(client)
    resp = await client.post("/api/directory/get_person", json={}, headers=headers)
    assert resp.status_code == 400
    assert resp.json()["error"]["parameter"] == "person"
    assert resp.json()["error"]["message"].startswith("is required")
    resp = await client.post("/api/directory/get_person", json={"person": "Nobody"}, headers=headers)
    assert resp.status_code == 400
    assert resp.json() == {
        "error": {
            "message": "no one in the directory matches 'Nobody'; "
            "use POST /api/directory/search_people to find the right email",
            "parameter": "person",
        }
    }
    resp = await client.post("/api/directory/search_people", json={"page_size": 0, "x": 1}, headers=headers)
    assert resp.status_code == 400


@pytest.mark.slow
async def test_get_is_405(client: httpx.AsyncClient) -> None:
    resp = await client.get("/api/directory/list_departments", headers=await auth(client))
    assert resp.status_code == 405
    assert resp.headers["allow"] == "POST"


@pytest.mark.slow
async def test_complete_task_and_refusal_after_it() -> None:
    app = create_app(Settings(close_tools_on_task_end=True))
    async with in_process(app) as client:
        headers = await auth(client)
        resp = await client.post(COMPLETE_TASK.http_path, json={"summary": "Priya Shah"}, headers=headers)
        assert resp.json() == {"done": True, "summary": "Priya Shah", "answer": ""}
        resp = await client.post("/api/directory/list_departments", json={}, headers=headers)
        assert resp.status_code == 409
        assert (
            resp.json()["error"]["message"] == "the work was already marked complete; no further changes are possible"
        )


@pytest.mark.slow
async def test_calls_count_in_task_state(client: httpx.AsyncClient) -> None:
    seed = (await client.post("/seed_session", json={"task_id": TASK_ID, "exposure": "http"})).json()
    headers = {"Authorization": f"Bearer {seed['token']}"}
    await client.post("/api/directory/get_person", json={"person": "Nobody"}, headers=headers)
    await client.post("/api/directory/list_departments", json={}, headers=headers)
    state = (await client.get("/task_state", params={"session_id": seed["session_id"]})).json()
    assert state["calls"] == 2
    assert state["last_call"]["tool"] == "company_directory_list_departments"


@pytest.mark.slow
async def test_openapi_document_is_served_and_valid(client: httpx.AsyncClient) -> None:
    resp = await client.get("/api/openapi.json")
    assert resp.status_code == 200
    doc = resp.json()
    validate(doc)
    assert doc["servers"] == [{"url": "http://testserver"}]
    assert len(doc["paths"]) == sum(len(a.actions) for a in REGISTRY.apps.values()) + 1


@pytest.mark.slow
async def test_same_call_gives_the_same_result_over_mcp_http_and_cli(tmp_path: Path) -> None:
    folder = write_scripts(tmp_path, ["directory"])
    summary = "Owen reports to Priya Shah (priya.shah@northwind.example)."
    async with live_gateway() as live:
        results: dict[str, list[Any]] = {}
        sessions: dict[str, str] = {}

        seed = await live.seed("mcp")
        sessions["mcp"] = seed["session_id"]
        transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
        async with Client(transport) as mcp:
            manager = await mcp.call_tool("company_directory_get_manager", {"person": "Owen Bell"})
            done = await mcp.call_tool("company_complete_task", {"summary": summary})
            results["mcp"] = [json.loads(manager.content[0].text), json.loads(done.content[0].text)]

        seed = await live.seed("http")
        sessions["http"] = seed["session_id"]
        headers = {"Authorization": f"Bearer {seed['token']}"}
        api = seed["company_api_url"]
        manager = await live.control.post(f"{api}/directory/get_manager", json={"person": "Owen Bell"}, headers=headers)
        done = await live.control.post(f"{api}/complete_task", json={"summary": summary}, headers=headers)
        results["http"] = [manager.json(), done.json()]

        seed = await live.seed("cli")
        sessions["cli"] = seed["session_id"]
        env = script_env(seed)
        ran = await run_command(folder / "directory", "get-manager", "--person=Owen Bell", env=env)
        finished = await run_command(folder / "company", "complete-task", f"--summary={summary}", env=env)
        results["cli"] = [json.loads(ran.stdout), json.loads(finished.stdout)]

        assert results["mcp"][0]["manager"]["email"] == "priya.shah@northwind.example"
        assert results["mcp"] == results["http"] == results["cli"]

        gateway = live.app.state.gateway
        worlds = [gateway.get_session(sid).world.snapshot() for sid in sessions.values()]
        assert worlds[0] == worlds[1] == worlds[2]
        for sid in sessions.values():
            state = (await live.control.get("/task_state", params={"session_id": sid})).json()
            assert (state["calls"], state["task_complete"]) == (2, True)
            verdict = (await live.control.post("/verify", json={"session_id": sid})).json()
            assert verdict["reward"] == 1.0


@pytest.mark.slow
async def test_a_body_that_cannot_be_read_is_refused_in_plain_words():
    from gateway import Settings, create_app

    app = create_app(Settings(sandbox_provider="none"))
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://x") as c:
        token = (await c.post("/seed_session", json={"task_id": "dir-manager-of-owen"})).json()["token"]
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        answers = {}
        for name, body in (("digits", b'{"person": ' + b"9" * 100_000 + b"}"), ("latin1", b'{"person": "\xff"}')):
            r = await c.post("/api/directory/get_person", content=body, headers=headers)
            answers[name] = (r.status_code, r.json()["error"]["message"])
    assert answers == {
        "digits": (400, "the body holds a number too long to read; send a JSON object of parameters"),
        "latin1": (400, "the body is not UTF-8 text (at byte 12); send a JSON object of parameters"),
    }
