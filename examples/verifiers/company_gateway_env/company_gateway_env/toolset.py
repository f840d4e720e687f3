"""The session's company tools, served to the harness as one verifiers toolset over MCP.

One toolset server per worker (verifiers' shared toolset); each call pulls the calling rollout's state, which
names its gateway session's MCP URL and bearer header, and forwards ``tools/list`` and ``tools/call`` there.
The tools the model sees are exactly the session's (its task's apps and ``company_complete_task``).
"""

from __future__ import annotations

import time
from typing import Any, cast

import verifiers.v1 as vf
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent, Tool
from pydantic import Field
from verifiers.v1.harnesses.utils.mcp import mcp_client

__all__ = ["GatewayState", "SessionToolset"]

#: What the model reads when its session cannot be reached (the rollout is masked at verify).
UNAVAILABLE_TEXT = "Error: the service is unavailable right now."


class GatewayState(vf.State):
    """One rollout's gateway session, shared by the task's hooks and the toolset server.

    ``failure`` is set when a tool call could not reach the session; ``finalize`` then masks the rollout.
    """

    session_id: str | None = None
    mcp_url: str | None = None
    mcp_headers: dict[str, str] = Field(default_factory=dict)
    tools: list[str] = Field(default_factory=list)
    timeout_s: float = 300.0
    tools_s: float = 0.0
    failure: str | None = None

    def mcp_spec(self) -> dict[str, Any]:
        """The MCP client spec (verifiers' shape) for this rollout's gateway session (URL, bearer header, timeouts)."""
        if self.mcp_url is None:
            raise RuntimeError("the rollout has no gateway session (its setup failed)")
        return {"url": self.mcp_url, "headers": self.mcp_headers, "timeout": self.timeout_s,
                "connect_timeout": self.timeout_s}  # fmt: skip


class SessionToolset(vf.Toolset[vf.SharedToolsetConfig, GatewayState]):
    """Forwards ``tools/list`` and ``tools/call`` to the calling rollout's gateway session (tool names as-is)."""

    TOOL_PREFIX = None

    def register(self, mcp: MCPServer) -> None:
        """Replace the server's listing and call handlers with ones that forward (the catalog is per rollout)."""
        server = cast(Any, mcp)
        server.list_tools = self._with_state(self.list_tools)
        server.call_tool = self._with_state(self.call_tool)

    async def list_tools(self) -> list[Tool]:
        """The session's tools, with the gateway's names, descriptions and input schemas."""
        async with mcp_client(self.state.mcp_spec()) as client:
            return list((await client.list_tools()).tools)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> CallToolResult:
        """One call on the session's tool; a session that cannot be reached answers the model a plain error."""
        started = time.perf_counter()
        try:
            async with mcp_client(self.state.mcp_spec()) as client:
                result: CallToolResult = await client.call_tool(name, arguments)
                return result
        except Exception as exc:  # the call's boundary: any transport failure masks the rollout at finalize
            self.state.failure = f"tools/call {name} failed: {type(exc).__name__}: {exc}"
            return CallToolResult(content=[TextContent(type="text", text=UNAVAILABLE_TEXT)], is_error=True)
        finally:
            self.state.tools_s += time.perf_counter() - started


if __name__ == "__main__":
    SessionToolset.run()
