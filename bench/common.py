"""What the parts share: the tasks and tools they use, JSON-RPC bodies, percentiles, seeding over HTTP."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import httpx

__all__ = [
    "MCP_HEADERS",
    "READ_TASK",
    "READ_TOOL",
    "READ_ARGS",
    "WRITE_TASK",
    "WRITE_TOOL",
    "WRITE_ARGS",
    "check_result",
    "percentile",
    "rpc",
    "seed",
    "seed_many",
]

#: A directory-only task with the mcp exposure: its sessions need no sandbox.
READ_TASK = "dir-manager-of-owen"
#: The cheapest read tool of that task, and its arguments.
READ_TOOL = "company_directory_get_person"
READ_ARGS: dict[str, Any] = {"person": "owen.bell@northwind.example"}
#: A calendar task (calendar + directory apps) and one write a session of it makes (copy on write).
WRITE_TASK = "cal-accept-atlas-review"
WRITE_TOOL = "company_calendar_respond_to_event"
WRITE_ARGS: dict[str, Any] = {"event_id": "evt_054", "response": "accepted"}

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def rpc(method: str, params: dict[str, Any] | None = None, rid: int = 1) -> bytes:
    """A JSON-RPC request body."""
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body).encode()


INITIALIZE = rpc(
    "initialize",
    {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
)


def check_result(response: httpx.Response) -> bool:
    """True for a 200 answer holding a JSON-RPC result that is not a tool error."""
    if response.status_code != 200:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    result = body.get("result") if isinstance(body, dict) else None
    return isinstance(result, dict) and not result.get("isError", False)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100, nearest rank) of ``values``; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


async def seed(client: httpx.AsyncClient, task_id: str) -> dict[str, Any]:
    """Seed one session over HTTP; returns the seed response."""
    response = await client.post("/seed_session", json={"task_id": task_id})
    response.raise_for_status()
    return dict(response.json())


async def seed_many(client: httpx.AsyncClient, task_id: str, n: int, in_flight: int = 50) -> list[dict[str, Any]]:
    """Seed ``n`` sessions, at most ``in_flight`` requests at once."""
    gate = asyncio.Semaphore(in_flight)

    async def one() -> dict[str, Any]:
        async with gate:
            return await seed(client, task_id)

    return list(await asyncio.gather(*(one() for _ in range(n))))
