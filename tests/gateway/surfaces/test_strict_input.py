"""Input JSON and rows leave nothing to the host or to chance: NaN, a field named twice, the host's zone, huge seeds."""

from __future__ import annotations

import pytest

from tests.gateway.surfaces.test_refusals import clients

ROW = {
    "id": "strict-row",
    "instruction": "Find the budget.",
    "apps": ["drive"],
    "checks": [{"name": "says_budget", "kind": "answer", "match": {"contains": "budget"}}],
}


async def live(insider) -> float:
    metrics = (await insider.get("/metrics")).text.splitlines()
    return float(next(line.split()[-1] for line in metrics if line.startswith("gateway_sessions_live ")))


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"task_id": "dir-manager-of-owen", "task_id": "x"}', "names the field 'task_id' twice in one object"),
        (b'{"task": {"id": "a", "id": "b"}}', "names the field 'id' twice"),
        (b'{"task_id": "dir-manager-of-owen", "exposure": NaN}', "holds NaN, which is not JSON"),
        (b'{"task_id": "dir-manager-of-owen", "x": -Infinity}', "holds -Infinity"),
    ],
)
async def test_a_control_body_with_nan_or_a_field_twice_is_refused_naming_it(body, said):
    async with clients() as (insider, _outsider, _token):
        r = await insider.post("/seed_session", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        assert said in r.json()["error"]
        assert await live(insider) == 1.0  # only the session `clients` seeded


@pytest.mark.parametrize("value", ["NaN", "Infinity"])
async def test_an_api_body_with_nan_is_400_naming_it(value):
    async with clients() as (insider, _outsider, token):
        r = await insider.post(
            "/api/directory/search_people",
            content=f'{{"query": "owen", "limit": {value}}}'.encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        assert r.status_code == 400, r.text
        assert r.json()["error"]["message"].startswith(f"the body holds {value}, which is not JSON")


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"timezone": "localtime"}, "'localtime' stands for the host's own zone"),
        ({"timezone": "posixrules"}, "stands for the host's own zone"),
        ({"timezone": "Factory"}, "'Factory' is not a place's clock"),
        ({"timezone": "right/UTC"}, "'right/UTC' is not a place's clock"),
        ({"seed": 10**30}, "seed: Input should be less than or equal to 9223372036854775807"),
        ({"user": "nobody@nowhere.example"}, "user: no one in the directory of"),
    ],
)
async def test_a_row_with_the_hosts_zone_a_huge_seed_or_a_stranger_as_user_is_refused(extra, said):
    async with clients() as (insider, _outsider, _token):
        r = await insider.post("/seed_session", json={"task": {**ROW, **extra}})
        assert r.status_code == 400, r.text
        assert said in r.json()["error"]
        ok = await insider.post("/seed_session", json={"task": {**ROW, "timezone": "Europe/Berlin", "seed": 2**63 - 1}})
        assert ok.status_code == 200, ok.text


@pytest.mark.parametrize(
    ("workspace", "said"),
    [
        ({"a" * 300 + ".txt": "x"}, "a name on the path is longer than 255 bytes"),
        ({"a": "x", "a/b": "y"}, "'a' is a file, so 'a/b' cannot be inside it"),
        ({".": "x"}, "'.' names a folder"),
        ({"dir/": "y"}, "'dir/' names a folder"),
    ],
)
async def test_a_rows_workspace_with_a_path_no_file_can_have_is_refused_at_seed(workspace, said):
    async with clients() as (insider, _outsider, _token):
        r = await insider.post("/seed_session", json={"task": {**ROW, "workspace": workspace}, "sandbox": False})
        assert r.status_code == 400, r.text
        assert said in r.json()["error"]
        assert await live(insider) == 1.0


@pytest.mark.parametrize(
    "check",
    [
        {"name": "r", "kind": "answer", "match": {"regex": "^(a+)+$"}},
        {"name": "r", "kind": "answer", "match": {"claims": {"kind": "states", "detail": [r"(\w+\s?)*done"]}}},
    ],
)
async def test_a_row_whose_regex_nests_open_repeats_is_refused_at_seed(check):
    # ^(a+)+$ against 27 letters and a "!" held the whole server 7 s at /verify; each letter more doubles it
    async with clients() as (insider, _outsider, _token):
        r = await insider.post("/seed_session", json={"task": {**ROW, "checks": [check]}})
        assert r.status_code == 400, r.text
        assert "nests a repeat inside a repeat that may run on" in r.json()["error"]


async def test_an_api_body_naming_a_field_twice_is_400_naming_it():
    async with clients() as (insider, _outsider, token):
        r = await insider.post(
            "/api/directory/search_people",
            content=b'{"query": "owen", "query": "priya"}',
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        assert r.status_code == 400, r.text
        assert r.json()["error"]["message"].startswith("the body names the field 'query' twice in one object")


@pytest.mark.parametrize("route", ["/api/directory/search_people", "/cli/directory"])
async def test_a_token_after_two_spaces_opens_nothing_on_the_api_and_cli_as_on_mcp(route):
    # the MCP route takes the rest after "Bearer " as is; the other routes took it trimmed, so one header opened
    # a session on two routes and was refused on the third
    async with clients() as (insider, _outsider, token):
        r = await insider.post(route, content=b"", headers={"Authorization": f"Bearer  {token}"})
        assert r.status_code == 401, r.text
        r = await insider.post(route, content=b"", headers={"Authorization": f"bearer {token}"})
        assert r.status_code == 200, r.text


async def test_a_cli_call_with_a_json_body_is_400_saying_what_to_send():
    async with clients() as (insider, _outsider, token):
        r = await insider.post(
            "/cli/directory", json={"args": ["search-people", "--query", "owen"]},
            headers={"Authorization": f"Bearer {token}"},
        )  # fmt: skip
        assert r.status_code == 400, r.text
        assert "the body is JSON, not form fields; send argc=N, then argv=WORD" in r.json()["error"]["message"]


async def test_a_rows_document_error_names_its_blob_whole():
    blob = "sha256:" + "a" * 64
    async with clients() as (insider, _outsider, _token):
        r = await insider.post("/seed_session", json={"task": {**ROW, "documents": {"b1": {"kind": "nope"}}}})
        assert r.status_code == 400, r.text
        assert "documents['b1']: document kind 'nope'" in r.json()["error"]
        made = {blob: {"kind": "text", "text": "hi"}}
        r = await insider.post("/seed_session", json={"task": {**ROW, "documents": made}})
        assert r.status_code == 400, r.text
        said = r.json()["error"]
        assert f"the spec under '{blob}' makes 'sha256:" in said and said.endswith("'; key it by that id")


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ({"kind": "docx", "title": "x", "paragraphs": ["p"], "table": [[1], [1, 2, 3]]},
         "table: every row needs the first row's 1 cells; row 1 has 3"),
        ({"kind": "docx", "title": "x", "paragraphs": ["p"], "table": [[1] * 100] * 190},
         "table: 19,000 cells; give at most 2,000"),
        ({"kind": "xlsx", "sheets": {}}, "sheets: give at least one sheet"),
        ({"kind": "xlsx", "sheets": {"S": [["\u0001"]]}}, "cannot be made (\u0001 cannot be used in worksheets.)"),
        ({"kind": "docx", "title": "x\u0001", "paragraphs": ["p"]}, "cannot be made (All strings must be XML"),
    ],
)  # fmt: skip
async def test_a_document_spec_the_format_cannot_hold_is_400_at_once(spec, said):
    # these were plain-text 500s; the 190 x 100 table held every other seed's world build for minutes
    async with clients() as (insider, _outsider, _token):
        r = await insider.post("/seed_session", json={"task": {**ROW, "documents": {"b1": spec}}})
        assert r.status_code == 400, r.text
        assert said in r.json()["error"]
        assert await live(insider) == 1.0


@pytest.mark.parametrize("route", ["/mcp", "/api/directory/search_people", "/cli/directory", "/seed_session"])
async def test_an_encoded_body_is_415_and_an_identity_one_goes_through(route):
    # a gzip body was read as if plain: a plain body labelled gzip went through, a gzipped one was "not JSON"
    async with clients() as (insider, _outsider, token):
        headers = {"Authorization": f"Bearer {token}", "Content-Encoding": "gzip", "Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}  # fmt: skip
        r = await insider.post(route, content=b'{"query": "owen"}', headers=headers)
        assert r.status_code == 415, r.text
        said = r.json()["error"]
        said = said if isinstance(said, str) else said["message"]
        assert "Content-Encoding: gzip" in said and "send the body unencoded" in said
        r = await insider.post(route, content=b'{"query": "owen"}', headers={**headers, "Content-Encoding": "identity"})
        assert r.status_code != 415, r.text
