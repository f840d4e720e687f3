"""The documentation tool (``api_fetch`` or ``api_docs``): read-only, one optional ``page`` parameter.

It shows the caller the pages of the apps its session may use; the session is
found from the bearer token of the MCP request. A session it is not offered to
(``session.tools`` lacks its name) is answered as for a tool that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from fastmcp.exceptions import ToolError
from fastmcp.server.dependencies import get_access_token
from fastmcp.tools import Tool, ToolResult
from mcp.types import TextContent, ToolAnnotations
from pydantic import PrivateAttr

from docs_tool.pages import render_page
from tools import AppError

__all__ = ["DOCS_TOOL_NAMES", "DocsTool", "SessionLookup", "docs_tool"]

#: The names the docs tool may take (a task row's ``docs_tool`` field).
DOCS_TOOL_NAMES = ("api_fetch", "api_docs")

DESCRIPTION = (
    "Read the documentation of the company API that your shell can call with curl. Every endpoint is "
    "POST $COMPANY_API_URL/<app>/<action> with a JSON object body and the header "
    "'Authorization: Bearer $COMPANY_API_TOKEN' (both variables are set in your shell; when "
    'COMPANY_API_SOCKET is set too, the API answers on that local socket: add --unix-socket "$COMPANY_API_SOCKET" '
    "to curl). "
    'page="" lists the apps; page="<app>" lists an app\'s endpoints; page="<app>/<action>" shows one '
    "endpoint's parameters, an example request and the response shape."
)

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "page": {
            "type": "string",
            "description": 'Which page: "" (the index), "<app>", or "<app>/<action>" such as '
            '"directory/get_person". Optional; default "".',
        }
    },
    "additionalProperties": False,
}


class SessionLookup(Protocol):
    """What the docs tool needs from the server: the session a bearer token opens."""

    def session_by_token(self, token: str) -> Any:
        """The live session (with ``.task.apps``, and ``.tools``: the tool names offered) for ``token``, or None."""
        ...


class DocsTool(Tool):
    """The documentation tool, rendering pages for the caller's apps."""

    _sessions: SessionLookup = PrivateAttr()
    _unix_socket: Callable[[Any], bool] | None = PrivateAttr(default=None)

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        """Render the requested page; an unknown page is an error result naming ``page``."""
        token = get_access_token()
        session = self._sessions.session_by_token(token.token) if token is not None else None
        if session is None:
            raise ToolError("your access token is not valid any more")
        if self.name not in getattr(session, "tools", ()):
            raise ToolError(f"Unknown tool: {self.name!r}")  # FastMCP's words for a tool it lacks, as for the others
        unknown = set(arguments) - {"page"}
        if unknown:
            raise ToolError(f"unknown parameter {sorted(unknown)[0]}; this tool takes only: page")
        page = arguments.get("page") or ""
        if not isinstance(page, str):
            raise ToolError('page: must be a string such as "" or "directory/get_person"')
        try:
            over_socket = self._unix_socket is not None and self._unix_socket(session)
            text = render_page(page, session.task.apps, unix_socket=over_socket)
        except AppError as exc:
            raise ToolError(str(exc)) from None
        return ToolResult(content=[TextContent(type="text", text=text)])


def docs_tool(name: str, gateway: SessionLookup, unix_socket: Callable[[Any], bool] | None = None) -> DocsTool:
    """The docs tool called ``name`` (``api_fetch`` or ``api_docs``) for sessions looked up in ``gateway``.

    ``unix_socket(session)`` tells whether that session's shell reaches the API on the unix socket
    ``$COMPANY_API_SOCKET``; its pages then say so (default: never).

    Raises:
        ValueError: ``name`` is not one of :data:`DOCS_TOOL_NAMES`.
    """
    if name not in DOCS_TOOL_NAMES:
        raise ValueError(f"docs tool name must be one of {DOCS_TOOL_NAMES}, not {name!r}")
    tool = DocsTool(
        name=name,
        description=DESCRIPTION,
        parameters=PARAMETERS,
        annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False),
    )
    tool._sessions = gateway
    tool._unix_socket = unix_socket
    return tool
