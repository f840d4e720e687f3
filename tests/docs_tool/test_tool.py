from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from docs_tool import DOCS_TOOL_NAMES, docs_tool, render_page
from tests.cli_shim.live import TASK_ID, Live, live_gateway
from tests.conftest import require_binary


def client_for(seed: dict[str, Any]) -> Client:
    return Client(StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"]))


async def seed_with_docs_tool(live: Live, name: str) -> dict[str, Any]:
    row = live.app.state.gateway.tasks[TASK_ID].model_dump(mode="json", exclude_none=True)
    row["docs_tool"] = name
    resp = await live.control.post("/seed_session", json={"task": row, "exposure": "http"})
    return resp.raise_for_status().json()


def test_docs_tool_is_read_only_with_one_optional_page() -> None:
    tool = docs_tool("api_fetch", None)  # type: ignore[arg-type]
    assert tool.parameters["properties"].keys() == {"page"}
    assert "required" not in tool.parameters
    assert tool.annotations is not None
    assert tool.annotations.read_only_hint is True
    with pytest.raises(ValueError, match="api_fetch"):
        docs_tool("fetch", None)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", DOCS_TOOL_NAMES)
async def test_http_session_sees_its_docs_tool_and_reads_pages(name: str) -> None:
    async with live_gateway() as live:
        seed = await seed_with_docs_tool(live, name)
        async with client_for(seed) as client:
            tools = [t.name for t in await client.list_tools()]
            assert tools == [name, "company_complete_task"]
            # With bubblewrap the sandbox has no network, and the pages say to use the API's socket.
            over_socket = bool(live.app.state.gateway.provider.socket_binds)
            result = await client.call_tool(name, {})
            assert result.content[0].text == render_page("", ["directory"], unix_socket=over_socket)
            result = await client.call_tool(name, {"page": "directory/get_manager"})
            expected = render_page("directory/get_manager", ["directory"], unix_socket=over_socket)
            assert result.content[0].text == expected
            result = await client.call_tool(name, {"page": "gmail"}, raise_on_error=False)
            assert result.is_error
            assert result.content[0].text.startswith("page: no page 'gmail'; pages: '' (the index), 'directory'")


async def test_mcp_session_is_not_offered_the_docs_tool() -> None:
    async with live_gateway() as live:
        seed = await live.seed("mcp")
        async with client_for(seed) as client:
            names = {t.name for t in await client.list_tools()}
            assert not names & set(DOCS_TOOL_NAMES)
            # nor answered when called by name: as for any tool not offered
            for name in DOCS_TOOL_NAMES:
                result = await client.call_tool(name, {"page": "directory"}, raise_on_error=False)
                assert result.is_error and result.content[0].text == f"Unknown tool: {name!r}", name


async def test_an_http_session_is_answered_only_by_its_own_docs_tool() -> None:
    async with live_gateway() as live:
        seed = await seed_with_docs_tool(live, "api_docs")
        async with client_for(seed) as client:
            result = await client.call_tool("api_fetch", {}, raise_on_error=False)
            assert result.is_error and result.content[0].text == "Unknown tool: 'api_fetch'"
            assert not (await client.call_tool("api_docs", {}, raise_on_error=False)).is_error


@pytest.mark.bwrap
@pytest.mark.parametrize(
    ("network", "sandbox", "over_socket"),
    [("isolated", True, True), ("isolated", False, False), ("host", True, False)],
    ids=["isolated-sandbox", "no-sandbox", "host-network"],
)
async def test_pages_name_the_socket_only_when_the_sessions_sandbox_uses_it(network, sandbox, over_socket) -> None:
    require_binary("bwrap")
    async with live_gateway(sandbox_network=network) as live:
        row = live.app.state.gateway.tasks[TASK_ID].model_dump(mode="json", exclude_none=True)
        body = {"task": row, "exposure": "http", "sandbox": sandbox}
        seed = (await live.control.post("/seed_session", json=body)).raise_for_status().json()
        async with client_for(seed) as client:
            result = await client.call_tool("api_fetch", {"page": "directory/get_manager"})
        assert ('--unix-socket "$COMPANY_API_SOCKET"' in result.content[0].text) is over_socket
        assert result.content[0].text == render_page("directory/get_manager", ["directory"], unix_socket=over_socket)
