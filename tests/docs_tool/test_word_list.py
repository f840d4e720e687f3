"""No text these surfaces show a caller names the machinery behind them (docs/exposures.md, what the sandbox sees)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from cli_shim import APPLESS_COMMAND, UsageError, action_help, app_help, command_scripts, parse_argv
from docs_tool import DOCS_TOOL_NAMES, docs_tool, openapi_document, page_names, render_page
from gateway.settings import Settings
from gateway.surfaces.asgi import create_app
from tests.conftest import banned_words, in_process
from tools import COMPLETE_TASK, REGISTRY


def test_the_checker_catches_what_it_should() -> None:
    assert banned_words("The Gateway grades your TASK; agents verify rewards") == [
        "Gateway", "grades", "TASK", "agents", "verify", "rewards"
    ]  # fmt: skip
    assert banned_words("company complete-task, /api/complete_task, company_complete_task, upgrade") == []
    assert banned_words("an RL verifier; curl the URL, rl") == ["RL", "verifier"]


def static_texts() -> dict[str, str]:
    texts: dict[str, str] = {}
    apps = list(REGISTRY.apps)
    for app in REGISTRY.apps.values():
        texts[f"help {app.name}"] = app_help(app.name, app.description, app.actions)
        for action in app.actions.values():
            texts[f"help {app.name} {action.command}"] = action_help(app.name, action)
    texts["help company"] = app_help(APPLESS_COMMAND, "", {COMPLETE_TASK.name: COMPLETE_TASK})
    texts["help company complete-task"] = action_help(APPLESS_COMMAND, COMPLETE_TASK)
    for name in page_names(apps):
        texts[f"docs page {name!r}"] = render_page(name, apps)
        texts[f"docs page {name!r} over the socket"] = render_page(name, apps, unix_socket=True)
    texts["openapi"] = json.dumps(openapi_document(server_url="http://127.0.0.1:1"))
    for name, data in command_scripts(apps).items():
        texts[f"script {name}"] = data.decode()
    for name in DOCS_TOOL_NAMES:
        tool = docs_tool(name, None)  # type: ignore[arg-type]
        texts[f"tool {name}"] = f"{tool.description} {json.dumps(tool.parameters)}"
    for words in (["nope"], ["--x"], ["get-person"], ["get-person", "--x=1"], ["get-person", "--person"]):
        try:
            parse_argv("directory", REGISTRY.apps["directory"].actions, words)
        except UsageError as exc:
            texts[f"usage {words}"] = exc.message
    return texts


@pytest.mark.parametrize(("where", "text"), static_texts().items(), ids=lambda v: v if len(v) < 60 else "text")
def test_no_banned_word_in_help_docs_openapi_or_scripts(where: str, text: str) -> None:
    assert banned_words(text) == [], where


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(close_tools_on_task_end=True))
    async with in_process(app) as c:
        yield c


async def test_no_banned_word_in_error_answers(client: httpx.AsyncClient) -> None:
    seed = (await client.post("/seed_session", json={"task_id": "dir-manager-of-owen", "exposure": "cli"})).json()
    good = {"Authorization": f"Bearer {seed['token']}"}
    answers = [
        await client.post("/api/directory/get_person", json={}),
        await client.post("/api/nope/x", json={}, headers=good),
        await client.post("/api/directory/nope", json={}, headers=good),
        await client.post("/api/directory/get_person", content=b"{", headers=good),
        await client.post("/api/directory/get_person", json=[], headers=good),
        await client.post("/api/directory/get_person", json={"person": "x"}, headers=good),
        await client.get("/api/directory/get_person", headers=good),
        await client.post("/cli/directory", data={"argv": "--help"}),
        await client.post("/cli/nope", data={"argv": "--help"}, headers=good),
        await client.post("/cli/directory", data={"argv": ["get-person", "--persn"]}, headers=good),
        await client.post("/cli/directory", data={"argv": ["get-person", "--person=x"]}, headers=good),
        await client.post("/cli/directory", content=b"argc=3", headers=good),
        await client.post("/cli/company", data={"argv": ["complete-task"]}, headers=good),
        await client.post("/cli/directory", data={"argv": ["list-departments"]}, headers=good),
        await client.post("/api/directory/list_departments", json={}, headers=good),
    ]
    assert [a.status_code for a in answers[-3:]] == [200, 409, 409]
    for answer in answers:
        assert answer.status_code != 200 or answer.request.url.path == "/cli/company"
        header_text = " ".join(f"{k}: {v}" for k, v in answer.headers.items())
        assert banned_words(answer.text + header_text) == [], answer.text
