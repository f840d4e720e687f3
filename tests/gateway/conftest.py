"""Fixtures: a live gateway on loopback and a control client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest
from starlette.applications import Starlette

from gateway import Settings, create_app
from gateway.surfaces.serve import serve_in_background


@dataclass
class Live:
    app: Starlette
    base: str
    control: httpx.AsyncClient

    async def seed(self, task_id: str, **extra) -> dict:
        r = await self.control.post("/seed_session", json={"task_id": task_id, **extra})
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
async def live() -> AsyncIterator[Live]:
    app = create_app(Settings())
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        yield Live(app, base, control)
