"""A gateway served on loopback for tests that need the wire, and the shell commands written to disk."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx

from cli_shim import command_scripts
from gateway.settings import Settings
from gateway.surfaces.asgi import create_app
from gateway.surfaces.serve import serve_in_background

TASK_ID = "dir-manager-of-owen"


@dataclass
class Live:
    """A served app: its base URL, a control client and the Starlette app."""

    base: str
    control: httpx.AsyncClient
    app: Any

    async def seed(self, exposure: str = "cli", task_id: str = TASK_ID) -> dict[str, Any]:
        resp = await self.control.post("/seed_session", json={"task_id": task_id, "exposure": exposure})
        resp.raise_for_status()
        return resp.json()


@contextlib.asynccontextmanager
async def live_gateway(**settings: Any) -> AsyncIterator[Live]:
    app = create_app(Settings(**settings))
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        yield Live(base, control, app)


def write_scripts(folder: Path, apps: list[str]) -> Path:
    """Write the app commands into ``folder`` (mode 0755); returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in command_scripts(apps).items():
        path = folder / name
        path.write_bytes(data)
        path.chmod(0o755)
    return folder


def path_without_curl(folder: Path) -> str:
    """A PATH holding only ``python3`` (the real interpreter), so the scripts fall back to it."""
    folder.mkdir(parents=True, exist_ok=True)
    real = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    link = folder / "python3"
    if not link.exists():
        link.symlink_to(real)
    return str(folder)


@dataclass
class Ran:
    """What a command did."""

    status: int
    stdout: str
    stderr: str


async def run_command(script: Path, *args: str, env: dict[str, str], stdout: Any = asyncio.subprocess.PIPE) -> Ran:
    """Run ``sh script args...`` without blocking the served app's event loop.

    ``stdout`` may be an open file or descriptor instead of a pipe; ``Ran.stdout`` is then empty.
    """
    with anyio.fail_after(30):
        proc = await asyncio.create_subprocess_exec(
            "/bin/sh", str(script), *args, env=env, stdout=stdout, stderr=asyncio.subprocess.PIPE
        )
        out, err = await proc.communicate()
    assert proc.returncode is not None
    return Ran(proc.returncode, (out or b"").decode("utf-8"), err.decode("utf-8"))


def script_env(seed: dict[str, Any], path: str | None = None) -> dict[str, str]:
    """The environment a workspace gives its commands."""
    return {
        "PATH": path if path is not None else os.environ.get("PATH", "/usr/bin:/bin"),
        "COMPANY_API_URL": seed["company_api_url"],
        "COMPANY_API_TOKEN": seed["token"],
        "LANG": "C.UTF-8",
    }
