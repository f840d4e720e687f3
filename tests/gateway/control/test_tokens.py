import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from tests.tiers import sampled

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


def client_for(seed, token=None):
    headers = {"Authorization": f"Bearer {token or seed['token']}"}
    return Client(StreamableHttpTransport(seed["mcp"]["url"], headers=headers))


async def raw_list(live, token):
    return await live.control.post("/mcp", json=LIST, headers={**MCP_HEADERS, "Authorization": f"Bearer {token}"})


async def test_a_token_opens_only_its_own_world(live):
    a = await live.seed("dir-manager-of-owen")
    b = await live.seed("dir-manager-of-owen")
    async with client_for(a) as client:
        await client.call_tool("company_complete_task", {"summary": "A's answer"})
    gw = live.app.state.gateway
    assert gw.get_session(a["session_id"]).world.completion == "A's answer"
    assert gw.get_session(b["session_id"]).world.completion is None
    state_b = (await live.control.get("/task_state", params={"session_id": b["session_id"]})).json()
    assert state_b["calls"] == 0 and state_b["task_complete"] is False
    assert gw.session_by_token(a["token"]).id == a["session_id"]
    assert gw.session_by_token(b["token"]).id == b["session_id"]


@pytest.mark.parametrize("bad", sampled(["x", "garbage", "eyJhIjoxfQ.forged"], 1, seed="bad-tokens"))
async def test_bad_tokens_get_401(live, bad):
    await live.seed("dir-manager-of-owen")
    r = await raw_list(live, bad)
    assert r.status_code == 401
    assert "invalid_token" in r.headers["www-authenticate"]


async def test_a_token_signed_by_another_process_is_refused(live):
    from gateway.control.sessions import SessionStore

    seed = await live.seed("dir-manager-of-owen")
    forged = SessionStore("another-secret").new_token(seed["session_id"])
    assert (await raw_list(live, forged)).status_code == 401
    assert (await raw_list(live, seed["token"])).status_code == 200


async def test_verified_and_closed_sessions_tokens_get_401(live):
    seed = await live.seed("dir-manager-of-owen")
    assert (await raw_list(live, seed["token"])).status_code == 200
    await live.control.post("/verify", json={"session_id": seed["session_id"]})
    assert (await raw_list(live, seed["token"])).status_code == 401
    other = await live.seed("dir-manager-of-owen")
    await live.control.post("/close_session", json={"session_id": other["session_id"]})
    assert (await raw_list(live, other["token"])).status_code == 401


async def test_tools_list_shows_only_the_enabled_apps(live):
    row = {"id": "inline", "instruction": "x", "apps": ["directory"],
           "checks": [{"name": "a", "kind": "answer", "match": {"contains": "x"}}]}
    seed = (await live.control.post("/seed_session", json={"task": row})).json()
    async with client_for(seed) as client:
        names = [t.name for t in await client.list_tools()]
    assert names == seed["tools"]
    assert all(n.startswith(("company_directory_", "company_complete_task")) for n in names)


async def test_a_hidden_tool_is_unknown_and_changes_nothing(live):
    seed = await live.seed("dir-manager-of-owen")
    async with client_for(seed) as client:
        r = await client.call_tool("company_nosuch_tool", {}, raise_on_error=False)
    assert r.is_error and r.content[0].text == "Unknown tool: 'company_nosuch_tool'"
    state = (await live.control.get("/task_state", params={"session_id": seed["session_id"]})).json()
    assert state["calls"] == 0


async def test_a_tool_of_another_app_is_unknown_in_the_same_words_as_a_missing_one(live):
    seed = await live.seed("dir-manager-of-owen")  # directory only: the gmail tools exist but are not this session's
    async with client_for(seed) as client:
        hidden = await client.call_tool("company_gmail_search_messages", {"query": "x"}, raise_on_error=False)
        missing = await client.call_tool("company_nosuch_tool", {}, raise_on_error=False)
    assert hidden.is_error and missing.is_error
    assert hidden.content[0].text == "Unknown tool: 'company_gmail_search_messages'"
    assert missing.content[0].text == "Unknown tool: 'company_nosuch_tool'"
