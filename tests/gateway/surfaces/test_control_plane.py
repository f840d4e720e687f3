import httpx
import jsonschema
import pytest

from gateway import Settings, create_app
from gateway.control.rows import load_builtin_tasks, row_hash
from gateway.grading.version import grader_version
from gateway.runners.cli.common import tier
from gateway.surfaces.serve import serve_in_background

ROW = {
    "id": "inline-answer",
    "instruction": "Which department is Grace Kim in?",
    "apps": ["directory"],
    "checks": [{"name": "says_finance", "kind": "answer", "match": {"contains": "finance"}}],
}


@pytest.mark.slow
async def test_seed_by_id_returns_the_contract_fields(live):
    seed = await live.seed("dir-manager-of-owen")
    assert set(seed) >= {
        "session_id",
        "task_id",
        "instruction",
        "exposure",
        "tools",
        "mcp",
        "company_api_url",
        "token",
        "sandbox",
    }
    assert seed["task_id"] == "dir-manager-of-owen"
    assert seed["exposure"] == "mcp"
    assert seed["mcp"]["url"] == f"{live.base}/mcp"
    assert seed["mcp"]["transport"] == "streamable_http"
    assert seed["mcp"]["headers"] == {"Authorization": f"Bearer {seed['token']}"}
    assert seed["company_api_url"] == f"{live.base}/api"
    assert "company_directory_get_manager" in seed["tools"]
    assert seed["tools"][-1] == "company_complete_task"
    assert seed["sandbox"] is None


@pytest.mark.slow
async def test_seed_inline_row_and_verify_with_response(live):
    r = await live.control.post("/seed_session", json={"task": ROW})
    assert r.status_code == 200, r.text
    sid = r.json()["session_id"]
    v = await live.control.post("/verify", json={"session_id": sid, "response": "She is in Finance."})
    assert v.json()["reward"] == 1.0


@pytest.mark.slow
async def test_seed_errors_name_the_field(live):
    r = await live.control.post("/seed_session", json={"task_id": "no-such-task"})
    assert r.status_code == 400 and "task_id" in r.json()["error"]
    r = await live.control.post("/seed_session", json={"task": {**ROW, "apps": ["nope"]}})
    assert r.status_code == 400 and "apps" in r.json()["error"]
    r = await live.control.post(
        "/seed_session",
        json={
            "task": {
                **ROW,
                "checks": [
                    {
                        "name": "x",
                        "kind": "record",
                        "app": "directory",
                        "collection": "people",
                        "where": {"shoe_size": 9},
                    }
                ],
            }
        },
    )
    assert r.status_code == 400 and "shoe_size" in r.json()["error"]
    r = await live.control.post("/seed_session", content=b"{not json")
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = await live.control.post("/seed_session", json={"task_id": "dir-manager-of-owen", "exposure": "fax"})
    assert r.status_code == 400 and "exposure" in r.json()["error"]
    r = await live.control.post("/seed_session", json={"task_id": "dir-manager-of-owen", "task": ROW})
    assert r.status_code == 400 and "exactly one" in r.json()["error"]


async def test_task_state_verify_and_close_are_idempotent(live):
    seed = await live.seed("dir-manager-of-owen")
    sid = seed["session_id"]
    state = (await live.control.get("/task_state", params={"session_id": sid})).json()
    assert state == {
        "session_id": sid, "status": "active", "task_complete": False, "calls": 0, "last_call": None,
        "verify_result": None,
    }  # fmt: skip
    first = (await live.control.post("/verify", json={"session_id": sid})).json()
    again = await live.control.post("/verify", json={"session_id": sid, "response": "priya.shah@northwind.example"})
    assert again.json() == first
    assert first["reward"] == 0.0 and first["mask_sample"] is False and first["failure_kind"] is None
    state = (await live.control.get("/task_state", params={"session_id": sid})).json()
    assert state["status"] == "verified" and state["verify_result"] == first
    c1 = (await live.control.post("/close_session", json={"session_id": sid})).json()
    c2 = (await live.control.post("/close_session", json={"session_id": sid})).json()
    assert c1 == c2 == {"session_id": sid, "closed": True}
    state = (await live.control.get("/task_state", params={"session_id": sid})).json()
    assert state["status"] == "closed" and state["verify_result"] == first
    assert (await live.control.post("/verify", json={"session_id": sid})).json() == first


async def test_verify_carries_the_grader_version_the_row_the_calls_and_the_change_set_every_time(live):
    task = load_builtin_tasks(families=False)["cal-move-ops-sync"]
    seed = await live.seed(task.id)
    sid, auth = seed["session_id"], {"Authorization": f"Bearer {seed['token']}"}
    moved = {"event_id": "evt_016", "start": "2026-03-12T12:00:00", "end": "2026-03-12T12:30:00"}
    assert (await live.control.post("/api/calendar/update_event", json=moved, headers=auth)).status_code == 200
    bad = await live.control.post("/api/calendar/update_event", json={"event_id": "evt_nope"}, headers=auth)
    assert bad.status_code == 400
    first = (await live.control.post("/verify", json={"session_id": sid, "response": "Moved it."})).json()
    assert first["reward"] == 1.0, first["checks"]
    assert first["grader_version"] == grader_version(task.checks, task.allowed_changes)
    row = task.model_dump(mode="json", exclude_defaults=True)
    assert first["task"] == {
        "id": task.id, "family": None, "company": "default", "seed": None, "split": "train", "tier": tier(task),
        "apps": task.apps, "exposure": "mcp", "row_hash": row_hash(task), "row": row,
    }  # fmt: skip
    assert first["tool_calls"] == [{"tool": "company_calendar_update_event", "ok": True},
                                   {"tool": "company_calendar_update_event", "ok": False}]  # fmt: skip
    changes = first["changes"]
    assert list(changes["records"]) == ["calendar"]
    event = changes["records"]["calendar"]["events"]["changed"]["evt_016"]
    assert event["start"]["after"].startswith("2026-03-12T12:00:00")
    assert event["start"]["before"] != event["start"]["after"]
    assert changes["said"] == {"answer": None, "summary": None, "response": "Moved it."}
    assert (changes["complete"], changes["counts"]) == (True, {"added": 0, "changed": 1, "removed": 0})
    document = (await live.control.get("/openapi.json")).json()
    jsonschema.validate(first, {"$ref": "#/components/schemas/VerifyResponse", "components": document["components"]})
    again = (await live.control.post("/verify", json={"session_id": sid, "response": "Something else."})).json()
    assert again == first
    state = (await live.control.get("/task_state", params={"session_id": sid})).json()
    assert state["verify_result"] == first
    await live.control.post("/close_session", json={"session_id": sid})
    assert (await live.control.post("/verify", json={"session_id": sid})).json() == first
    assert (await live.control.get("/task_state", params={"session_id": sid})).json()["verify_result"] == first


@pytest.mark.slow
async def test_unknown_sessions_get_404_and_closed_unverified_409(live):
    assert (await live.control.post("/close_session", json={"session_id": "s_nope"})).status_code == 404
    assert (await live.control.get("/task_state", params={"session_id": "s_nope"})).status_code == 404
    assert (await live.control.post("/verify", json={"session_id": "s_nope"})).status_code == 404
    assert (await live.control.post("/verify", json={})).status_code == 400
    sid = (await live.seed("dir-manager-of-owen"))["session_id"]
    await live.control.post("/close_session", json={"session_id": sid})
    r = await live.control.post("/verify", json={"session_id": sid})
    assert r.status_code == 409 and "closed without being verified" in r.json()["error"]
    again = await live.control.post("/verify", json={"session_id": sid})
    assert (again.status_code, again.json()) == (409, r.json())


@pytest.mark.slow
async def test_control_routes_refuse_peers_outside_trusted_networks():
    app = create_app(Settings(trusted_networks=["10.0.0.0/8"]))
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base) as client:
        for method, path in [
            ("POST", "/seed_session"),
            ("GET", "/task_state"),
            ("POST", "/verify"),
            ("POST", "/close_session"),
            ("POST", "/reference_solution"),
            ("GET", "/tasks"),
        ]:
            r = await client.request(
                method, path, json={"task_id": "dir-manager-of-owen"}, headers={"X-Forwarded-For": "10.1.2.3"}
            )
            assert r.status_code == 403, path
        assert app.state.gateway.store.all() == []
        assert (await client.get("/health")).json() == {"ok": True}


@pytest.mark.slow
async def test_a_control_token_is_required_when_configured():
    app = create_app(Settings(control_token="s3cret"))
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base) as client:
        body = {"task_id": "dir-manager-of-owen"}
        assert (await client.post("/seed_session", json=body)).status_code == 403
        wrong = {"Authorization": "Bearer nope"}
        assert (await client.post("/seed_session", json=body, headers=wrong)).status_code == 403
        seed = await client.post("/seed_session", json=body, headers={"Authorization": "Bearer s3cret"})
        assert seed.status_code == 200
        # the session's own token opens its tools, never the control routes
        as_session = {"Authorization": f"Bearer {seed.json()['token']}"}
        r = await client.post("/verify", json={"session_id": seed.json()["session_id"]}, headers=as_session)
        assert r.status_code == 403
        assert (await client.get("/health")).status_code == 200


@pytest.mark.slow
async def test_control_routes_answer_a_wrong_method_with_405(live):
    for method, path, allowed in [
        ("GET", "/seed_session", "POST"),
        ("PUT", "/verify", "POST"),
        ("POST", "/tasks", "GET"),
        ("DELETE", "/close_session", "POST"),
    ]:
        r = await live.control.request(method, path)
        assert r.status_code == 405 and r.headers["allow"] == allowed and allowed in r.json()["error"]


@pytest.mark.slow
async def test_unknown_routes_answer_json_404_and_mcp_still_answers(live):
    for method, path in [("GET", "/nope"), ("POST", "/api"), ("GET", "/mcpx"), ("DELETE", "/" + "z" * 500)]:
        r = await live.control.request(method, path)
        assert r.status_code == 404 and r.headers["content-type"] == "application/json"
        error = r.json()["error"]
        assert error.startswith(f"no route {method} {path[:80]}") and error.endswith("the MCP endpoint is /mcp")
        assert len(error) < 160  # a long path is cut, not echoed whole
    seed = await live.seed("dir-manager-of-owen")
    listed = await live.control.post(
        "/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        headers={"Authorization": f"Bearer {seed['token']}", "Accept": "application/json, text/event-stream"},
    )
    assert listed.status_code == 200 and "company_complete_task" in listed.text


async def test_inline_rows_get_the_lint_of_task_files(live):
    lazy = {
        **ROW,
        "checks": [{"name": "any_mail", "kind": "record", "app": "directory", "collection": "people", "where": {}}],
    }
    r = await live.control.post("/seed_session", json={"task": lazy})
    assert r.status_code == 400 and "already pass" in r.json()["error"]
    bad_regex = {**ROW, "checks": [{"name": "re", "kind": "answer", "match": {"regex": "("}}]}
    r = await live.control.post("/seed_session", json={"task": bad_regex})
    assert r.status_code == 400 and "does not compile" in r.json()["error"]
    typo = {**ROW, "checks": [{"name": "t", "kind": "answer", "match": {"contians": "x"}}]}
    r = await live.control.post("/seed_session", json={"task": typo})
    assert r.status_code == 400 and "unknown operators" in r.json()["error"]
    escape = {**ROW, "exposure": "cli", "workspace": {"../../tmp/x.txt": "pwn"}}
    r = await live.control.post("/seed_session", json={"task": escape})
    assert r.status_code == 400 and "workspace" in r.json()["error"]


@pytest.mark.slow
async def test_verify_and_close_refuse_unknown_fields_and_change_nothing(live):
    seed = await live.seed("dir-manager-of-owen")
    sid = seed["session_id"]
    for path in ("/verify", "/close_session"):
        r = await live.control.post(path, json={"session_id": sid, "respnse": "typo"})
        assert r.status_code == 400 and "['respnse']" in r.json()["error"], r.text
    state = (await live.control.get("/task_state", params={"session_id": sid})).json()
    assert state["status"] == "active"


@pytest.mark.slow
async def test_control_errors_quote_only_a_short_prefix_of_a_huge_value(live):
    huge = "t" * 200_000  # a seed's body holds at most max_seed_bytes (256 KiB); other routes take 8 MiB
    r = await live.control.post("/seed_session", json={"task_id": huge})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith("task_id: no task 'tttt")
    assert "... (200,000 characters)" in error
    assert len(r.content) < 500
    r = await live.control.post("/verify", json={"session_id": "s" * 5_000_000})
    assert r.status_code == 404
    assert "... (5,000,000 characters)" in r.json()["error"]
    assert len(r.content) < 500


async def test_a_task_id_that_is_not_a_string_is_named_as_such(live):
    for task_id, sent in [(5, "5"), (None, "null"), (["a"], '["a"]'), ({"id": "x"}, '{"id": "x"}')]:
        r = await live.control.post("/seed_session", json={"task_id": task_id})
        assert r.status_code == 400
        assert r.json()["error"] == f"task_id: must be a string (a task id; GET /tasks lists them), not {sent}"
