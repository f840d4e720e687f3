"""The MCP surface: one FastMCP server whose tools are the registry's actions.

Every seeded session shares this one server; the bearer token picks the
session, ``tools/list`` shows only the tools its task enables, and a call runs
through :meth:`gateway.control.core.Gateway.call`. Streamable HTTP in stateless JSON
mode, as real clients (Codex CLI among them) handle it best.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.auth import AccessToken, TokenVerifier
from fastmcp.server.dependencies import get_access_token
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import Tool, ToolResult
from mcp.types import TextContent, ToolAnnotations
from pydantic import PrivateAttr

from gateway.control.core import SERVER_FAULT_MESSAGE, CallRefused, Gateway, ServerFault
from gateway.control.sessions import LIVE, Session
from gateway.control.workspace import PROVIDER_FAILED_MESSAGE, ProviderFailed
from gateway.exceptions import UnknownSession
from gateway.surfaces.hints import reword
from tools import Action, AppError

__all__ = ["ActionTool", "build_mcp", "mcp_tools"]

logger = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Tools for working in the company's mail, calendar, files, chat and people directory. "
    "Each tool's description says what it does, with an example. Call company_complete_task when you are done."
)


def _session(gateway: Gateway) -> Session:
    """The caller's session, by the id SessionTokens put in this request's access token (checked once)."""
    token = get_access_token()
    sid = token.claims.get("sid") if token is not None else None
    try:
        session = gateway.get_session(sid) if isinstance(sid, str) else None
    except UnknownSession:
        session = None
    if session is None or session.status not in LIVE:
        raise ToolError("your access token is not valid any more")
    return session


def result_text(result: Any) -> str:
    """The text a client shows the model: compact JSON, non-ASCII kept."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))


class ActionTool(Tool):
    """A registry action offered as an MCP tool."""

    _gateway: Gateway = PrivateAttr()

    @classmethod
    def of(cls, action: Action, gateway: Gateway) -> ActionTool:
        """Build the tool for ``action`` (name, description, schema, read-only hint)."""
        tool = cls(
            name=action.tool_name,
            description=action.description,
            parameters=action.input_schema,
            annotations=ToolAnnotations(read_only_hint=action.read_only, destructive_hint=not action.read_only),
            # fastmcp would derive "Company Complete Task" from the app-less action's name; the model reads titles.
            title=None if action.app else "Mark Work Complete",
        )
        tool._gateway = gateway
        return tool

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        """Run the action for the caller's session; app errors become error results the model reads."""
        return await self.run_for(_session(self._gateway), arguments)

    async def run_for(self, session: Session, arguments: dict[str, Any]) -> ToolResult:
        """Run the action for ``session`` (the fast path's entry: it found the session itself).

        Raises:
            ToolError: the text the model reads (an app error reworded, a refused call, a masked fault).
        """
        try:
            result = await self._gateway.call(session, self.name, arguments)
        except (AppError, CallRefused) as exc:  # the caller's mistake, not the server's: not logged as an error
            raise ToolError(reword(str(exc), "mcp"), log_level=logging.DEBUG) from None
        except ProviderFailed:
            raise ToolError(PROVIDER_FAILED_MESSAGE) from None
        except ServerFault:
            raise ToolError(SERVER_FAULT_MESSAGE) from None
        return ToolResult(
            content=[TextContent(type="text", text=result_text(result))],
            structured_content=result if isinstance(result, dict) else None,
        )


class SessionTokens(TokenVerifier):
    """Accepts a bearer token only while its session is live."""

    def __init__(self, gateway: Gateway) -> None:
        super().__init__()
        self._gateway = gateway

    async def verify_token(self, token: str) -> AccessToken | None:
        """The session's access info, or None (answered 401) for a bad, closed or verified token."""
        if not token.isascii():
            return None  # a session token is ASCII; anything else opens nothing (401, not a failed comparison)
        session = self._gateway.session_by_token(token)
        if session is None:
            return None
        return AccessToken(token=token, client_id=session.id, scopes=[], claims={"sid": session.id})


class SessionTools(Middleware):
    """Shows each session only the tools its task enables.

    Args:
        gateway: Whose sessions' tool lists to follow.
        tools: Every tool the server has, by name: the listing is taken from here, in the session's
            order, without FastMCP's listing of all of them (~180) on each ``tools/list``.
    """

    def __init__(self, gateway: Gateway, tools: dict[str, Tool]) -> None:
        self._gateway = gateway
        self._tools = tools

    async def on_list_tools(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Sequence[Tool]]
    ) -> Sequence[Tool]:
        """The session's tools, in the session's order."""
        session = _session(self._gateway)
        return [self._tools[name] for name in session.tools if name in self._tools]


def mcp_tools(gateway: Gateway, extra_tools: Sequence[Tool] = ()) -> dict[str, Tool]:
    """Every MCP tool by name: one :class:`ActionTool` per action, then ``extra_tools`` (e.g. the docs tool)."""
    tools: dict[str, Tool] = {a.tool_name: ActionTool.of(a, gateway) for a in gateway.actions.values()}
    tools.update((t.name, t) for t in extra_tools)
    return tools


def build_mcp(gateway: Gateway, extra_tools: Sequence[Tool] = (), *, tools: dict[str, Tool] | None = None) -> FastMCP:
    """The FastMCP server with one tool per action (and ``extra_tools``, e.g. the docs tool).

    Args:
        gateway: Whose actions and sessions the tools serve.
        extra_tools: More tools, after the actions.
        tools: The tools to serve instead, as :func:`mcp_tools` makes them (to share them with the fast path).
    """
    if tools is None:
        tools = mcp_tools(gateway, extra_tools)
    server = FastMCP(
        name=gateway.settings.mcp_server_name,
        instructions=INSTRUCTIONS,
        auth=SessionTokens(gateway),
        mask_error_details=True,
        middleware=[SessionTools(gateway, tools)],
        dereference_schemas=False,  # the registry's schemas are flat (no $ref, tested); skip the walk per list
    )
    for tool in tools.values():
        server.add_tool(tool)
    return server
