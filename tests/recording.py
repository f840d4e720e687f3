"""A gateway on loopback that records every seed response it gives (for tests of scripts that seed sessions)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from gateway import Settings, create_app
from gateway.control.rows import Task
from gateway.surfaces.serve import serve_in_background


@contextlib.asynccontextmanager
async def recording_gateway(
    settings: Settings, tasks: dict[str, Task], edit: Callable[[dict[str, Any]], dict[str, Any]] | None = None
) -> AsyncIterator[tuple[str, list[dict[str, Any]]]]:
    """Serve ``tasks`` on loopback; yields the base URL and the list of every seed response given, in order.

    ``edit``, when given, changes each seed response before the caller gets it (the list holds the edited ones),
    e.g. a wrong token, to see what a script does when the harness cannot reach the tools.
    """
    app = create_app(settings, tasks=tasks)
    core = app.state.gateway
    seeds: list[dict[str, Any]] = []
    seed = core.seed

    async def recording_seed(body: dict[str, Any], base_url: str) -> dict[str, Any]:
        response = await seed(body, base_url)
        if edit is not None:
            response = edit(response)
        seeds.append(response)
        return response

    core.seed = recording_seed
    async with serve_in_background(app) as base:
        yield base, seeds
