"""Shared test helpers."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tools.companies import NOW, TIMEZONE, USER, build_default
from tools.companies.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.exceptions import NotFound
from tools.kernel.world import AppState, Context, FileStore, World
from tools.kits.people import DirectoryState

#: Words no surface the sandbox can read may use (docs/exposures.md, what the sandbox sees); RL only in capitals.
BANNED = re.compile(
    r"\b(?:gateway|episodes?|rewards?|grad(?:e|es|ed|ing|er|ers)|tasks?|training|rollouts?|benchmarks?"
    r"|verif(?:y|ies|ied|ying|ication|ier|iers)|mask(?:s|ed|ing)?|simulat(?:e|es|ing|ion|ions|ed|or|ors)"
    r"|agents?|fixtures?|(?-i:RL))\b",
    re.IGNORECASE,
)
#: The one name allowed to say "task": the action that declares the work complete.
ALLOWED = re.compile(r"company_complete_task|complete_task|complete-task")


def banned_words(text: str) -> list[str]:
    """The banned words in ``text`` (after removing the allowed complete-task names), in order."""
    return BANNED.findall(ALLOWED.sub("", text))


class MemoryFiles(FileStore):
    """An in-memory workspace: path to bytes."""

    def __init__(self, files: dict[str, bytes] | None = None) -> None:
        self.files = dict(files or {})

    def save(self, path: str, data: bytes, parameter: str = "save_as") -> str:
        self.files[path] = data
        return path

    def load(self, path: str, parameter: str = "path") -> bytes:
        if path not in self.files:
            raise NotFound(f"no file at '{path}'", parameter)
        return self.files[path]

    def exists(self, path: str) -> bool:
        return path in self.files


def make_world(states: dict[str, AppState]) -> World:
    """A world at the fixture's clock and user, with the fixture's directory unless one is given."""
    states = dict(states)
    states.setdefault("directory", DirectoryState.model_validate(build_default()["directory"]))
    return World(NOW, TIMEZONE, USER, states, BlobStore(BLOBS))


def make_ctx(app: str, state: AppState, files: Any = None) -> Context[Any]:
    """A context for ``app`` over a world holding ``state`` (plus the directory)."""
    return Context(make_world({app: state}), app, files)


def require_binary(name: str) -> str:
    """The path of executable ``name``; skip the test when it is missing, or fail it under ``CI=true``.

    Marked tests (``bwrap``, ``podman``, ``harness``) call this first, so CI runs them for
    real instead of skipping them quietly.
    """
    import os
    import shutil

    import pytest

    path = shutil.which(name)
    if path is None:
        reason = f"{name!r} is not installed (on PATH); install it to run this test"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
        pytest.skip(reason)
    return path


@contextlib.asynccontextmanager
async def in_process(app: Any, **transport: Any) -> AsyncIterator[httpx.AsyncClient]:
    """A client calling ``app`` in this process, with the app's lifespan running around it.

    The lifespan's end destroys every sandbox the client's sessions made and removes the server's
    own sandbox root, so the test leaves no folder (holding session tokens) in the temp folder.
    The lifespan runs in a task of its own (its task groups must end in the task that began them;
    a fixture's teardown may run in another). ``transport`` goes to ``httpx.ASGITransport``
    (e.g. ``client=("127.0.0.1", 40000)``).
    """
    started, stop = asyncio.Event(), asyncio.Event()

    async def lifespan() -> None:
        async with app.router.lifespan_context(app):
            started.set()
            await stop.wait()

    task = asyncio.ensure_future(lifespan())
    try:
        waiter = asyncio.ensure_future(started.wait())
        await asyncio.wait([task, waiter], return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if task.done():
            task.result()  # the startup failed: raise its error
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, **transport), base_url="http://testserver"
        ) as client:
            yield client
    finally:
        stop.set()
        await task


@pytest.fixture(autouse=True)
def _no_row_build_lines_after_a_test():
    """The command line's progress hook on row builds ends with the test that ran main() (no line in another's err)."""
    yield
    if (row_cache := sys.modules.get("gateway.tasks.row_cache")) is not None:
        row_cache.on_build.clear()
