"""Inputs that once crashed a call, and faults of the server's own: a clear answer, nothing half-applied, masking."""

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from gateway.control.core import SERVER_FAULT_MESSAGE
from tests.tiers import sampled

EXTREME_DATES = [
    ("company_calendar_list_events", {"start": "0001-01-01T00:00:00", "end": "9999-12-31T23:59:59"}, "start"),
    ("company_calendar_list_events", {"start": "9999-12-31"}, "start"),
    ("company_calendar_find_free_slots", {"start": "9999-12-31T23:59:59"}, "start"),
    ("company_calendar_find_available_rooms", {"start": "2026-03-10T10:00:00", "end": "9999-12-31T23:59:59"}, "end"),
]


def bearer(seed):
    return {"Authorization": f"Bearer {seed['token']}"}


@pytest.mark.parametrize(("tool", "args", "parameter"), sampled(EXTREME_DATES, 1, seed="dates", ids=lambda c: c[0]))
async def test_dates_outside_1900_to_2199_are_the_callers_mistake(live, tool, args, parameter):
    seed = await live.seed("cal-move-ops-sync")
    path = "/calendar/" + tool.removeprefix("company_calendar_")
    r = await live.control.post(f"/api{path}", json=args, headers=bearer(seed))
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["parameter"] == parameter and "between 1900 and 2199" in error["message"], error
    verdict = (await live.control.post("/verify", json={"session_id": seed["session_id"]})).json()
    assert verdict["mask_sample"] is False


@pytest.fixture
def broken_update(live):
    """``calendar update_event`` changes the world, then fails with an error of the server's own."""
    gateway = live.app.state.gateway
    action = gateway.actions["company_calendar_update_event"]
    real = action.fn

    def half_done(ctx, **arguments):
        real(ctx, **arguments)
        raise ZeroDivisionError("a bug after the change")

    object.__setattr__(action, "fn", half_done)  # Action is a frozen dataclass
    yield
    object.__setattr__(action, "fn", real)


UPDATE = {"event_id": "evt_016", "start": "2026-03-12T12:00:00", "end": "2026-03-12T12:30:00"}


async def assert_rolled_back_and_masked(live, seed):
    session = live.app.state.gateway.get_session(seed["session_id"])
    assert session.world.snapshot() == session.initial
    verdict = (await live.control.post("/verify", json={"session_id": seed["session_id"]})).json()
    assert (verdict["mask_sample"], verdict["failure_kind"]) == (True, "internal_error"), verdict
    assert "company_calendar_update_event" in verdict["failure_reason"]


async def test_a_fault_of_the_server_answers_500_over_http_rolls_back_and_masks(live, broken_update):
    seed = await live.seed("cal-move-ops-sync")
    r = await live.control.post("/api/calendar/update_event", json=UPDATE, headers=bearer(seed))
    assert r.status_code == 500 and r.json()["error"] == {"message": SERVER_FAULT_MESSAGE, "parameter": None}
    assert "ZeroDivision" not in r.text
    await assert_rolled_back_and_masked(live, seed)


async def test_a_fault_of_the_server_is_an_error_result_over_mcp(live, broken_update):
    seed = await live.seed("cal-move-ops-sync")
    async with Client(StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])) as client:
        result = await client.call_tool("company_calendar_update_event", UPDATE, raise_on_error=False)
    assert result.is_error and result.content[0].text == SERVER_FAULT_MESSAGE
    await assert_rolled_back_and_masked(live, seed)


@pytest.mark.parametrize(
    "path", sampled(["/seed_session", "/verify", "/close_session", "/api/calendar/list_events"], 1, seed="nested")
)
async def test_deeply_nested_json_is_a_400_not_a_crash(live, path):
    seed = await live.seed("cal-move-ops-sync")
    body = "[" * 100_000 + "]" * 100_000
    headers = {"Authorization": f"Bearer {seed['token']}", "Content-Type": "application/json"}
    r = await live.control.post(path, content=body, headers=headers)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert "nests too deeply" in (error["message"] if isinstance(error, dict) else error)
    assert (await live.control.get("/health")).status_code == 200  # the connection still works


@pytest.mark.parametrize(
    ("path", "body", "parameter"),
    sampled([
        ("/api/calendar/create_event", '{"title": "\\ud800", "start": "2026-03-10T10:00:00", '
         '"end": "2026-03-10T10:30:00"}', "title"),
        ("/api/calendar/get_event", '{"event_id": "\\ud800"}', "event_id"),
        ("/api/complete_task", '{"summary": "done \\udfff"}', "summary"),
    ], 1, seed="surrogate", ids=lambda case: case[0].rsplit("/", 1)[1]),
)  # fmt: skip
async def test_a_lone_surrogate_is_refused_before_anything_is_stored(live, path, body, parameter):
    seed = await live.seed("cal-move-ops-sync")
    headers = {**bearer(seed), "Content-Type": "application/json"}
    r = await live.control.post(path, content=body, headers=headers)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["parameter"] == parameter and "not valid Unicode" in r.json()["error"]["message"]
    session = live.app.state.gateway.get_session(seed["session_id"])
    assert session.world.snapshot() == session.initial and session.world.completion is None


async def test_a_lone_surrogate_in_a_verify_response_or_a_parameter_name_is_a_400(live):
    # a newcomer's finds: /verify stored the grade, then every answer showing the text failed (500, for good)
    seed = await live.seed("cal-move-ops-sync")
    body = '{"session_id": "' + seed["session_id"] + '", "response": "ok \\ud800"}'
    r = await live.control.post("/verify", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "response" in r.json()["error"] and "not valid Unicode" in r.text, r.text
    state = await live.control.get("/task_state", params={"session_id": seed["session_id"]})
    assert state.status_code == 200 and state.json()["verify_result"] is None, state.text
    headers = {**bearer(seed), "Content-Type": "application/json"}
    r = await live.control.post("/api/calendar/list_events", content='{"\\ud800": 1}', headers=headers)
    assert r.status_code == 400 and "not valid Unicode" in r.json()["error"]["message"], r.text
    r = await live.control.post("/verify", json={"session_id": seed["session_id"], "response": "ok"})
    assert r.status_code == 200 and r.json()["reward"] == 0.0, r.text


async def test_a_lone_surrogate_over_mcp_is_a_parse_error_and_changes_nothing(live):
    seed = await live.seed("cal-move-ops-sync")
    call = ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "company_calendar_update_event", '
            '"arguments": {"event_id": "evt_016", "title": "\\ud800"}}}')  # fmt: skip
    headers = {
        **seed["mcp"]["headers"],
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    r = await live.control.post(seed["mcp"]["url"], content=call, headers=headers)
    assert r.status_code == 400 and r.json()["error"]["code"] == -32700, r.text  # the MCP layer's JSON parser
    session = live.app.state.gateway.get_session(seed["session_id"])
    assert session.world.snapshot() == session.initial


@pytest.mark.parametrize("path", sampled(["/seed_session", "/verify", "/api/calendar/list_events"], 1, seed="digits"))
async def test_an_integer_past_pythons_digit_limit_is_a_400(live, path):
    seed = await live.seed("cal-move-ops-sync")
    body = '{"session_id": "x", "page": 1' + "0" * 5000 + "}"
    headers = {**bearer(seed), "Content-Type": "application/json"}
    r = await live.control.post(path, content=body, headers=headers)
    assert r.status_code == 400, r.text
