"""The MCP surface over real loopback HTTP, with the fastmcp Client and the mcp SDK client."""

import json

import httpx2
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from gateway.surfaces.mcp_fast import FastPath
from tests.gateway.surfaces.test_mcp_fast import fast_path_of
from tools import REGISTRY

ALL_APPS_ROW = {
    "id": "all-apps",
    "instruction": "Look around.",
    "apps": list(REGISTRY.apps),
    "checks": [{"name": "a", "kind": "answer", "match": {"contains": "done"}}],
}


def _fast_path(live) -> FastPath:
    return fast_path_of(live.app)


@pytest.mark.slow
async def test_fastmcp_client_lists_and_calls_with_read_only_hints(live):
    seed = (await live.control.post("/seed_session", json={"task": ALL_APPS_ROW})).json()
    transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
    async with Client(transport) as client:
        tools = {t.name: t for t in await client.list_tools()}
        assert list(tools) == seed["tools"]
        for action in REGISTRY.actions():
            tool = tools[action.tool_name]
            assert tool.annotations.read_only_hint is action.read_only
            assert tool.input_schema == action.input_schema
        result = await client.call_tool("company_directory_get_person", {"person": "Grace Kim"})
        assert json.loads(result.content[0].text)["title"] == "Financial Analyst"
        assert result.structured_content["email"] == "grace.kim@northwind.example"
        bad = await client.call_tool("company_directory_search_people", {"page_size": 0}, raise_on_error=False)
        assert bad.is_error and bad.content[0].text.startswith("page_size:")
    # This client speaks MCP 2026-07-28: the fast path answered its listing and both calls.
    assert _fast_path(live).answered == 3


async def test_mcp_sdk_client_lists_and_calls(live):
    seed = await live.seed("dir-manager-of-owen")
    async with (
        httpx2.AsyncClient(headers=seed["mcp"]["headers"]) as http,
        streamable_http_client(seed["mcp"]["url"], http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        init = await session.initialize()
        assert init.server_info.name == "company"
        listed = await session.list_tools()
        assert [t.name for t in listed.tools] == seed["tools"]
        result = await session.call_tool("company_directory_get_manager", {"person": "owen.bell"})
        assert result.is_error is False
        assert json.loads(result.content[0].text)["manager"]["name"] == "Priya Shah"
        missing = await session.call_tool("company_directory_get_manager", {})
        assert missing.is_error and "person: is required" in missing.content[0].text
    state = (await live.control.get("/task_state", params={"session_id": seed["session_id"]})).json()
    assert state["calls"] == 2
    # This client speaks a handshake-era version: the fast path answered the listing and both calls.
    assert _fast_path(live).answered == 3
    assert state["last_call"]["tool"] == "company_directory_get_manager" and state["last_call"]["ok"] is False


@pytest.mark.slow
async def test_internal_errors_are_masked_from_the_model(live, monkeypatch):
    from tools.apps import directory

    def boom(ctx, person):
        raise RuntimeError("/secret/path exploded")

    seed = await live.seed("dir-manager-of-owen")
    action = directory.app.actions["get_person"]
    original = action.fn
    object.__setattr__(action, "fn", boom)  # Action is frozen
    try:
        transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
        async with Client(transport) as client:
            r = await client.call_tool("company_directory_get_person", {"person": "x"}, raise_on_error=False)
    finally:
        object.__setattr__(action, "fn", original)
    assert r.is_error
    assert "secret" not in r.content[0].text and "exploded" not in r.content[0].text
