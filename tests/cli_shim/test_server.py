from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from gateway.settings import Settings
from gateway.surfaces.asgi import create_app
from gateway.surfaces.shell_api import read_argv
from tests.conftest import in_process


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings())
    async with in_process(app) as c:
        yield c


async def seed(client: httpx.AsyncClient, exposure: str = "cli") -> dict[str, Any]:
    resp = await client.post("/seed_session", json={"task_id": "dir-manager-of-owen", "exposure": exposure})
    return resp.raise_for_status().json()


def form(*words: str) -> dict[str, Any]:
    return {"argc": str(len(words)), "argv": list(words)}


def test_read_argv_keeps_order_blank_words_and_checks_the_count() -> None:
    assert read_argv(b"argc=3&argv=b&argv=&argv=a%3Db+c") == ["b", "", "a=b c"]
    assert read_argv(b"") == []
    with pytest.raises(ValueError, match="argc says 2 words but 1 arrived"):
        read_argv(b"argc=2&argv=x")


async def test_token_is_required(client: httpx.AsyncClient) -> None:
    resp = await client.post("/cli/directory", data=form("--help"))
    assert resp.status_code == 401
    resp = await client.post("/cli/directory", data=form("--help"), headers={"Authorization": "Bearer nope"})
    assert resp.status_code == 401


async def test_help_needs_only_a_token(client: httpx.AsyncClient) -> None:
    info = await seed(client)
    resp = await client.post("/cli/directory", data=form(), headers={"Authorization": f"Bearer {info['token']}"})
    assert resp.status_code == 200
    assert resp.text.startswith("usage: directory <command>")
    state = (await client.get("/task_state", params={"session_id": info["session_id"]})).json()
    assert state["calls"] == 0


async def test_command_of_an_app_the_session_lacks_is_unknown(client: httpx.AsyncClient) -> None:
    info = await seed(client)
    resp = await client.post("/cli/gmail", data=form("--help"), headers={"Authorization": f"Bearer {info['token']}"})
    assert resp.status_code == 404
    message = "unknown command 'gmail'; commands here: directory, company"
    assert resp.json() == {"error": {"message": message, "parameter": None}}
    # the app commands ask for text: their words are for a person to read
    headers = {"Authorization": f"Bearer {info['token']}", "Accept": "text/plain"}
    resp = await client.post("/cli/gmail", data=form("--help"), headers=headers)
    assert (resp.status_code, resp.text) == (404, message + "\n")


async def test_statuses_of_usage_error_failed_call_and_success(client: httpx.AsyncClient) -> None:
    headers = {"Authorization": f"Bearer {(await seed(client))['token']}"}
    resp = await client.post("/cli/directory", data=form("get-person"), headers=headers)
    assert resp.status_code == 400
    resp = await client.post("/cli/directory", data=form("get-person", "--person=nobody"), headers=headers)
    assert resp.status_code == 422
    assert resp.json()["error"]["parameter"] == "person"
    resp = await client.post("/cli/directory", data=form("get-person", "--person=Owen Bell"), headers=headers)
    assert resp.status_code == 200
    assert resp.json()["name"] == "Owen Bell"
    resp = await client.post("/cli/company", data=form("complete-task"), headers=headers)
    assert resp.json() == {"done": True, "summary": "", "answer": ""}


async def test_bad_body_is_a_usage_error(client: httpx.AsyncClient) -> None:
    headers = {"Authorization": f"Bearer {(await seed(client))['token']}"}
    resp = await client.post("/cli/directory", content=b"argc=1&argv=%ff", headers=headers)
    assert resp.status_code == 400
    assert resp.json()["error"]["message"].startswith("directory: the words could not be read")


async def test_mcp_session_may_use_its_apps_from_the_shell(client: httpx.AsyncClient) -> None:
    headers = {"Authorization": f"Bearer {(await seed(client, 'mcp'))['token']}"}
    resp = await client.post("/cli/directory", data=form("list-departments"), headers=headers)
    assert resp.status_code == 200
    assert resp.json()["departments"]
