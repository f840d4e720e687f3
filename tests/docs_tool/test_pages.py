from __future__ import annotations

import json
import re

import pytest
from openapi_spec_validator import validate

from docs_tool import example_arguments, openapi_document, page_names, render_page
from tools import COMPLETE_TASK, REGISTRY, InvalidArgument

ALL_APPS = list(REGISTRY.apps)
ACTIONS = [*REGISTRY.actions(), COMPLETE_TASK]


def curl_body(page: str) -> dict[str, object]:
    match = re.search(r"-d '(.*)'\n```", page, re.S)
    assert match, page
    return json.loads(match.group(1).replace("'\\''", "'"))


def test_index_lists_the_callers_apps_with_their_endpoint_counts() -> None:
    page = render_page("", ["directory"])
    assert page.startswith("# Company API\n")
    n = len(REGISTRY.apps["directory"].actions)
    assert f"| directory | {REGISTRY.apps['directory'].description} | {n} |" in page
    assert "POST $COMPANY_API_URL/complete_task" in page
    assert 'page="<app>/<action>"' in page


def test_index_leaves_out_apps_the_caller_lacks() -> None:
    others = [a for a in ALL_APPS if a != "directory"]
    page = render_page("", ["directory"])
    assert all(f"| {a} |" not in page for a in others)


@pytest.mark.parametrize("app", ALL_APPS)
def test_app_page_lists_every_endpoint(app: str) -> None:
    page = render_page(app, ALL_APPS)
    for action in REGISTRY.apps[app].actions.values():
        assert f"| POST | {action.http_path} | {action.summary} |" in page


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.tool_name)
def test_every_action_has_a_full_page(action) -> None:  # type: ignore[no-untyped-def]
    page = render_page(action.http_path.removeprefix("/api/"), ALL_APPS)
    assert page.startswith(f"# POST {action.http_path}\n\n{action.summary}\n")
    props = action.input_schema["properties"]
    required = set(action.input_schema.get("required", []))
    for name, prop in props.items():
        assert f"| {name} | " in page
        rows = page.split("|---|---|---|---|\n", 1)[1].splitlines()
        row = next(line for line in rows if line.startswith(f"| {name} | "))
        assert f"| {'yes' if name in required else 'no'} |" in row
        assert prop["type"] in row
    assert f'curl -sS -X POST "$COMPANY_API_URL{action.http_path.removeprefix("/api")}"' in page
    assert '-H "Authorization: Bearer $COMPANY_API_TOKEN"' in page
    body = curl_body(page)
    assert required <= set(body) <= set(props)
    assert "## Response" in page


@pytest.mark.parametrize(
    "spelling",
    ["directory/get_person", "/api/directory/get_person", "directory/get-person", "POST /api/directory/get_person/"],
)
def test_page_names_are_forgiving(spelling: str) -> None:
    assert render_page(spelling, ["directory"]) == render_page("directory/get_person", ["directory"])


def test_complete_task_page() -> None:
    page = render_page("complete_task", [])
    assert page == render_page("/api/complete_task", [])
    assert page.startswith("# POST /api/complete_task\n")


def test_example_request_uses_the_docstring_example() -> None:
    page = render_page("directory/get_person", ["directory"])
    assert curl_body(page) == {"person": "priya.shah@northwind.example"}
    assert example_arguments(REGISTRY.apps["directory"].actions["search_people"]) == {
        "query": "priya",
        "department": "Finance",
    }
    assert example_arguments(REGISTRY.apps["directory"].actions["list_departments"]) == {}
    assert example_arguments(COMPLETE_TASK) == {
        "summary": "Looked up the team lead in the directory.",
        "answer": "Jordan Lee, jordan.lee@example.com",
    }


def test_directory_examples_are_valid_calls() -> None:
    for action in REGISTRY.apps["directory"].actions.values():
        action.validate(example_arguments(action))


def test_unknown_pages_name_page_and_list_what_exists() -> None:
    with pytest.raises(InvalidArgument) as info:
        render_page("nope", ["directory"])
    assert info.value.parameter == "page"
    assert "'directory'" in info.value.message
    with pytest.raises(InvalidArgument) as info:
        render_page("directory/nope", ["directory"])
    assert info.value.message.startswith("no page 'directory/nope'; directory pages: 'directory/search_people'")
    with pytest.raises(InvalidArgument):
        render_page("directory", [])


def test_page_names_cover_every_action() -> None:
    names = page_names(ALL_APPS)
    assert len(names) == 1 + len(ALL_APPS) + len(ACTIONS)
    for name in names:
        assert render_page(name, ALL_APPS)


def test_openapi_document_is_valid_and_has_one_path_per_action() -> None:
    doc = openapi_document(server_url="http://127.0.0.1:8000")
    validate(doc)
    assert doc["openapi"] == "3.1.0"
    assert set(doc["paths"]) == {a.http_path for a in ACTIONS}
    op = doc["paths"]["/api/directory/get_person"]["post"]
    assert op["requestBody"]["content"]["application/json"]["schema"] == (
        REGISTRY.apps["directory"].actions["get_person"].input_schema
    )
    assert op["description"] == REGISTRY.apps["directory"].actions["get_person"].description
    assert doc["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}
    assert doc["security"] == [{"bearer": []}]


def test_openapi_for_some_apps_only() -> None:
    doc = openapi_document(["directory"])
    validate(doc)
    assert set(doc["paths"]) == {a.http_path for a in REGISTRY.actions(["directory"])} | {"/api/complete_task"}
    assert "servers" not in doc


@pytest.mark.parametrize("page", ["", "directory", "directory/get_manager", "complete_task"])
def test_pages_for_a_shell_on_the_api_socket_say_so_and_pass_it_to_curl(page: str) -> None:
    plain, over_socket = render_page(page, ["directory"]), render_page(page, ["directory"], unix_socket=True)
    assert "COMPANY_API_SOCKET" not in plain
    if "```sh" in plain:  # an endpoint's page: the same example request, through the socket
        assert over_socket == plain.replace("curl -sS -X POST", 'curl -sS --unix-socket "$COMPANY_API_SOCKET" -X POST')
        assert curl_body(over_socket) == curl_body(plain)
    else:  # the index and an app's page say how to reach the API
        assert 'give it to curl with `--unix-socket "$COMPANY_API_SOCKET"`' in over_socket
