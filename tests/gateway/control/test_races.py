"""Races of the control plane, driven deterministically: each step waits for a state, never for time."""

import asyncio

import anyio
import pytest

from gateway import Gateway, Settings
from gateway.control.admission import AdmissionTimeout
from gateway.control.core import CallRefused
from gateway.control.rows import load_builtin_tasks
from gateway.exceptions import ShuttingDown
from sandbox.local import LocalProvider

TASKS = load_builtin_tasks()
BASE = "http://127.0.0.1:1/"


class GatedProvider(LocalProvider):
    """A local provider whose create and file writes can be held at a gate."""

    def __init__(self, root):
        super().__init__(root, owner="race")
        self.create_gate = asyncio.Event()
        self.create_gate.set()
        self.write_gate = asyncio.Event()
        self.write_gate.set()
        self.writes_waiting = 0
        self.creates_waiting = 0

    async def create(self, spec):
        self.creates_waiting += 1
        await self.create_gate.wait()
        self.creates_waiting -= 1
        return await super().create(spec)

    async def write_files(self, sandbox, files, mode=0o644):
        if "README.md" not in files:
            self.writes_waiting += 1
            await self.write_gate.wait()
            self.writes_waiting -= 1
        return await super().write_files(sandbox, files, mode)


async def until(predicate):
    with anyio.fail_after(10):
        while not predicate():
            await asyncio.sleep(0)


@pytest.fixture
def provider(tmp_path):
    return GatedProvider(tmp_path / "ws")


def gateway(provider=None, **settings):
    return Gateway(Settings(seed_slice_s=0, **settings), TASKS, provider)


async def test_the_third_seed_holds_nothing_until_a_session_closes(provider):
    gw = gateway(provider, max_concurrent_sessions=2)
    a = await gw.seed({"task_id": "cal-move-ops-sync", "exposure": "cli"}, BASE)
    await gw.seed({"task_id": "cal-move-ops-sync", "exposure": "cli"}, BASE)
    third = asyncio.create_task(gw.seed({"task_id": "cal-move-ops-sync", "exposure": "cli"}, BASE))
    await until(lambda: gw.admission.waiting == 1)
    assert len(gw.store) == 2 and len(await provider.list_owned()) == 2 and not third.done()
    await gw.close(a["session_id"])
    c = await third
    assert c["sandbox"] is not None and len(gw.store) == 2 and len(await provider.list_owned()) == 2


async def test_seeds_wait_in_arrival_order_and_time_out_with_503():
    gw = gateway(max_concurrent_sessions=1, admission_timeout_s=0.05)
    held = await gw.seed({"task_id": "cal-move-ops-sync"}, BASE)
    with pytest.raises(AdmissionTimeout) as err:
        await gw.seed({"task_id": "cal-move-ops-sync"}, BASE)
    assert err.value.status_code == 503 and len(gw.store) == 1
    gw.admission.timeout_s = 30
    first = asyncio.create_task(gw.seed({"task_id": "dir-manager-of-owen"}, BASE))
    await until(lambda: gw.admission.waiting == 1)
    second = asyncio.create_task(gw.seed({"task_id": "cal-accept-atlas-review"}, BASE))
    await until(lambda: gw.admission.waiting == 2)
    await gw.close(held["session_id"])
    got = await first
    assert got["task_id"] == "dir-manager-of-owen" and not second.done()
    await gw.close(got["session_id"])
    assert (await second)["task_id"] == "cal-accept-atlas-review"


async def test_a_seed_queued_when_shutdown_begins_gets_503():
    gw = gateway(max_concurrent_sessions=1)
    await gw.seed({"task_id": "cal-move-ops-sync"}, BASE)
    queued = asyncio.create_task(gw.seed({"task_id": "cal-move-ops-sync"}, BASE))
    await until(lambda: gw.admission.waiting == 1)
    await gw.shutdown()
    with pytest.raises(ShuttingDown):
        await queued
    with pytest.raises(ShuttingDown) as err:
        await gw.seed({"task_id": "cal-move-ops-sync"}, BASE)
    assert err.value.status_code == 503 and len(gw.store) == 1


async def test_shutdown_waits_for_a_seed_starting_a_sandbox_and_leaves_none(provider):
    gw = gateway(provider)
    provider.create_gate.clear()
    starting = asyncio.create_task(gw.seed({"task_id": "cal-move-ops-sync", "exposure": "cli"}, BASE))
    await until(lambda: provider.creates_waiting == 1)
    stopping = asyncio.create_task(gw.shutdown())
    await until(lambda: gw.closing)
    assert not stopping.done()
    provider.create_gate.set()
    with pytest.raises(ShuttingDown):
        await starting
    await stopping
    assert await provider.list_owned() == [] and len(gw.store) == 0


async def test_shutdown_gives_up_on_a_stuck_seed_at_its_deadline(provider, caplog):
    gw = gateway(provider)
    provider.create_gate.clear()
    starting = asyncio.create_task(gw.seed({"task_id": "cal-move-ops-sync", "exposure": "cli"}, BASE))
    await until(lambda: provider.creates_waiting == 1)
    await gw.shutdown(deadline_s=0.01)
    assert "still starting a sandbox" in caplog.text
    provider.create_gate.set()  # the late seed gives its sandbox back itself
    with pytest.raises(ShuttingDown):
        await starting
    assert await provider.list_owned() == []


async def test_verify_waits_for_a_save_under_way(provider):
    gw = gateway(provider)
    info = await gw.seed({"task_id": "drive-share-offsite-agenda", "exposure": "cli"}, BASE)
    session = gw.get_session(info["session_id"])
    provider.write_gate.clear()
    saving = asyncio.create_task(gw.call(session, "company_drive_read_file", {"file_id": "file_reading_list"},
                                         surface="cli"))
    await until(lambda: provider.writes_waiting == 1)
    verifying = asyncio.create_task(gw.verify(info["session_id"]))
    await until(lambda: len(session.lock._waiters or ()) == 1)
    assert not verifying.done() and session.status == "active"
    provider.write_gate.set()
    result = await saving
    assert result["saved_to"] == "downloads/Reading list.txt"
    verdict = await verifying
    assert verdict["reward"] == 0.0 and verdict["mask_sample"] is False
    with pytest.raises(CallRefused):
        await gw.call(session, "company_drive_trash_file", {"file_id": "file_reading_list"}, surface="cli")
    assert session.world.snapshot() == session.initial
    assert not session.lock.locked()


async def test_a_call_after_completion_is_refused_with_close_tools_on_task_end():
    gw = gateway(close_tools_on_task_end=True)
    info = await gw.seed({"task_id": "cal-move-ops-sync"}, BASE)
    session = gw.get_session(info["session_id"])
    await gw.call(session, "company_complete_task", {"summary": "done"})
    before = session.world.snapshot()
    with pytest.raises(CallRefused):
        await gw.call(session, "company_calendar_delete_event", {"event_id": "evt_016"})
    assert session.world.snapshot() == before
    assert gw.task_state(info["session_id"])["status"] == "complete"


async def test_close_of_a_never_seeded_id_and_empty_tables_afterwards():
    from gateway.exceptions import UnknownSession

    gw = gateway()
    with pytest.raises(UnknownSession):
        await gw.close("s_never")
    ids = [(await gw.seed({"task_id": "dir-manager-of-owen"}, BASE))["session_id"] for _ in range(3)]
    await asyncio.gather(*(gw.verify(i) for i in ids), *(gw.close(i) for i in ids))
    assert len(gw.store) == 0 and gw.admission.held == 0
