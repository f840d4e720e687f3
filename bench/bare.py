"""The bare FastMCP server the gateway is compared against: one trivial read tool, no auth, no sessions."""

from __future__ import annotations

from typing import Any

from fastmcp import FastMCP
from mcp.types import ToolAnnotations
from starlette.applications import Starlette

__all__ = ["CARD", "TOOL", "create_bare_app"]

#: The tool's name: the same as the gateway's cheapest read tool, so one wrk script drives both.
TOOL = "company_directory_get_person"

#: What the tool returns: the same card the gateway's tool returns for Owen Bell.
CARD: dict[str, Any] = {
    "id": "owen.bell",
    "name": "Owen Bell",
    "email": "owen.bell@northwind.example",
    "title": "Senior Accountant",
    "department": "Finance",
    "manager": "priya.shah@northwind.example",
    "phone": "+1 212 555 0104",
    "location": "New York",
    "timezone": "America/New_York",
}


def create_bare_app() -> Starlette:
    """A FastMCP server at ``/mcp``, stateless JSON mode like the gateway, with one read tool."""
    server = FastMCP(name="bare")

    @server.tool(name=TOOL, annotations=ToolAnnotations(readOnlyHint=True))
    def get_person(person: str) -> dict[str, Any]:
        """Show one person's directory card.

        Args:
            person: The person's email address, directory id or full name.
        """
        return dict(CARD)

    return server.http_app(path="/mcp", stateless_http=True, json_response=True)
