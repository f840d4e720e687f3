"""What an ended session held is given back: its world and text freed, the heap trimmed at a bounded rate."""

from __future__ import annotations

import asyncio
import gc
import platform
import weakref
from collections.abc import Callable

import anyio
import pytest

from gateway import Gateway, Settings
from gateway.control.release import Release, glibc_malloc_trim
from gateway.control.rows import load_builtin_tasks
from tools.kernel import documents

TASKS = load_builtin_tasks(families=False)
BASE = "http://127.0.0.1:1/"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Trims:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return 1


async def _until(condition: Callable[[], bool]) -> None:
    with anyio.fail_after(10):
        while not condition():
            await asyncio.sleep(0.005)


async def test_sessions_ending_together_lead_to_one_trim_and_the_next_waits_out_the_interval() -> None:
    trims, clock = Trims(), Clock()
    release = Release(5.0, trim=trims, clock=clock)
    assert release.enabled
    for _ in range(3):
        release.session_ended([])
    await _until(lambda: release.trims == 1)
    assert trims.calls == 1

    clock.now += 2.0  # 2 s after that trim: the next one waits the 3 s left of the interval
    release.session_ended([])
    pending = release._pending
    assert pending is not None
    assert round(pending.when() - asyncio.get_running_loop().time()) == 3
    release.session_ended(["sha256:none"])
    assert release._pending is pending  # joined, not a second timer
    release.cancel()
    assert release._pending is None and trims.calls == 1

    clock.now += 10.0  # the interval has passed: at once
    release.session_ended([])
    await _until(lambda: release.trims == 2)
    assert trims.calls == 2


async def test_an_interval_of_0_trims_nothing_but_still_forgets_the_text() -> None:
    trims = Trims()
    release = Release(0, trim=trims)
    assert not release.enabled
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), TASKS)
    session = gw.get_session((await gw.seed({"task_id": "drive-share-offsite-agenda"}, BASE))["session_id"])
    await gw.call(session, "company_drive_create_file", {"name": "n.txt", "content": "qqzv " * 100})
    await gw.call(session, "company_drive_search_files", {"query": "qqzv"})
    own = session.world.blobs.own_ids()
    assert any(key[0] == own[0] for key in documents._BLOB_TEXT)
    release.session_ended(own)
    assert not any(key[0] == own[0] for key in documents._BLOB_TEXT)
    assert release._pending is None and not release.trim_now() and trims.calls == 0


async def test_a_closed_sessions_world_is_freed_and_the_heap_trimmed() -> None:
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none", memory_trim_interval_s=5), TASKS)
    trims = Trims()
    gw.release = Release(5.0, trim=trims)
    session = gw.get_session((await gw.seed({"task_id": "drive-share-offsite-agenda"}, BASE))["session_id"])
    await gw.call(session, "company_drive_create_file", {"name": "big.txt", "content": "wxyq " * 20_000})
    world, session_id = weakref.ref(session.world), session.id
    await gw.close(session_id)
    del session
    await asyncio.sleep(0)  # the loop's handle that resumed this test last holds the seed's build result
    gc.collect()
    assert world() is None  # nothing of the gateway's holds the closed session's world
    assert session_id not in {s.id for s in gw.store.all()}
    assert gw.task_state(session_id)["status"] == "closed"  # what is kept for retries: its last state
    await _until(lambda: gw.release.trims == 1)
    assert trims.calls == 1


def test_the_setting_reaches_the_gateway_and_0_turns_it_off() -> None:
    assert Gateway(Settings(sandbox_provider="none"), {}).release.interval_s == 5.0
    assert not Gateway(Settings(sandbox_provider="none", memory_trim_interval_s=0), {}).release.enabled


def test_glibc_malloc_trim_runs_on_glibc() -> None:
    trim = glibc_malloc_trim()
    if platform.libc_ver()[0] != "glibc":
        assert trim is None
        pytest.skip("not glibc: there is no malloc_trim to call")
    assert trim is not None
    assert trim() in (0, 1)
