"""Fixtures for the real-harness tests: the harness binaries, a live gateway, and a bounded way to run a harness."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import httpx
import pytest
from starlette.applications import Starlette

import gateway
from gateway import Settings, create_app
from gateway.control.rows import Task, load_tasks
from gateway.surfaces.serve import serve_in_background
from tests.conftest import require_binary

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
#: Where scripts/install-harnesses.sh puts the pinned harnesses.
LOCAL_BIN = REPO / ".harness" / "node_modules" / ".bin"
#: Where it puts OpenClaw and the Node 24 it needs (both first on PATH when OpenClaw runs).
OPENCLAW_BIN = REPO / ".harness" / "openclaw" / "node_modules" / ".bin"
#: Where it puts the official MCP test tools (TypeScript SDK, Inspector, conformance suite) and their Node 22.
MCP_TOOLS = REPO / ".harness" / "mcp-tools" / "node_modules"
#: The tasks these tests play: the core file only, so a row being written in another file cannot break them.
TASKS: dict[str, Task] = load_tasks(Path(gateway.__file__).parent / "tasks" / "rows" / "core.jsonl")
#: Longest one harness run may take (seconds); Pi alone needs ~3 s of CPU to start.
RUN_TIMEOUT_S = 60.0


def missing_tool(reason: str) -> NoReturn:
    """Skip the test for ``reason``, or fail it under ``CI=true`` (like ``require_binary``)."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
    pytest.skip(reason)


def harness_binary(name: str, bin_dir: Path = LOCAL_BIN) -> str:
    """The path of harness ``name``: the pinned one in ``bin_dir`` (in ``.harness/``), else one on PATH.

    Skips the test when neither exists, or fails it under ``CI=true`` (like ``require_binary``).
    """
    require_binary("node")
    local = bin_dir / name
    if local.is_file() and os.access(local, os.X_OK):
        return str(local)
    if shutil.which(name) is None:
        missing_tool(f"{name!r} is in neither {bin_dir.relative_to(REPO)} nor PATH; "
                     "run `bash scripts/install-harnesses.sh`")  # fmt: skip
    return require_binary(name)


#: Parent of the harnesses' HOME folders: outside /tmp (Codex refuses to link its sandbox helper under the
#: temporary folder, and then every command of its workspace-write sandbox fails; see
#: examples/codex/config-cli.toml) and outside this repository (OpenCode scans the enclosing git repository).
HOMES = Path(os.environ.get("HARNESS_HOMES", "/var/tmp/company-gateway-harness-tests"))


@pytest.fixture
def clean_home() -> Iterator[Path]:
    """An empty folder for the harness's HOME (and CODEX_HOME, PI_CODING_AGENT_DIR), removed afterwards."""
    HOMES.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="home-", dir=HOMES))
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)


def harness_env(home: Path, **extra: str) -> dict[str, str]:
    """A clean environment: PATH (for node), a fresh HOME, UTF-8, and ``extra``; nothing else of the test's."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8", **extra}


def wrong_token(token: str) -> str:
    """``token`` with its last character changed: the right shape, a signature that does not match."""
    return token[:-1] + ("B" if token.endswith("A") else "A")


def wrong_answer(task: Task) -> Task:
    """``task`` whose reference solution ends in a ``complete_task`` answer naming someone else (scores 0.0)."""
    last = task.solution[-1]
    assert last.tool == "complete_task" and "answer" in last.args, f"{task.id}: no answer to get wrong"
    wrong = last.model_copy(update={"args": {**last.args, "answer": "Alex Morgan (alex.morgan@northwind.example)"}})
    return task.model_copy(update={"solution": [*task.solution[:-1], wrong]})


@dataclass
class Live:
    """A gateway serving on loopback."""

    app: Starlette
    base: str
    control: httpx.AsyncClient

    async def seed(self, task_id: str, **extra: Any) -> dict[str, Any]:
        r = await self.control.post("/seed_session", json={"task_id": task_id, **extra})
        assert r.status_code == 200, r.text
        return r.json()

    async def verify(self, session_id: str) -> dict[str, Any]:
        r = await self.control.post("/verify", json={"session_id": session_id})
        assert r.status_code == 200, r.text
        return r.json()

    async def close(self, session_id: str) -> None:
        r = await self.control.post("/close_session", json={"session_id": session_id})
        assert r.status_code == 200, r.text


@contextlib.asynccontextmanager
async def live_gateway(settings: Settings | None = None) -> AsyncIterator[Live]:
    app = create_app(settings or Settings(), tasks=TASKS)
    async with serve_in_background(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as control:
        yield Live(app, base, control)


@pytest.fixture
async def live() -> AsyncIterator[Live]:
    async with live_gateway() as gateway:
        yield gateway


@dataclass
class Run:
    """A finished harness run."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float

    def __str__(self) -> str:
        head = f"exit {self.returncode} after {self.seconds:.1f} s"
        return f"{head}\n--- stdout\n{self.stdout[-4000:]}\n--- stderr\n{self.stderr[-4000:]}"


async def run_harness(argv: list[str], *, env: dict[str, str], cwd: Path, timeout_s: float = RUN_TIMEOUT_S) -> Run:
    """Run a harness with no stdin, bounded by ``timeout_s``; on timeout kill its process group and fail.

    The gateway and the fake model keep serving in this event loop while the harness runs.
    """
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=cwd, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout_s)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the group we started: the harness and its children
        out, err = await proc.communicate()
        pytest.fail(f"{Path(argv[0]).name} ran past {timeout_s:g} s\n{out.decode(errors='replace')[-3000:]}\n"
                    f"{err.decode(errors='replace')[-3000:]}")  # fmt: skip
    assert proc.returncode is not None
    return Run(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
               time.perf_counter() - started)  # fmt: skip
