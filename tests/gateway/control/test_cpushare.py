"""A session's off-loop calls owe the CPU they spent and pay it back at ``session_cpu_share`` a second."""

import asyncio
import time

import pytest

from gateway import Gateway, Settings
from gateway.control import core, cpushare
from gateway.control.cpushare import BURST_S, MAX_WAIT_S, charge, wait_s
from gateway.control.rows import load_builtin_tasks
from tools.kernel.registry import Action

TASKS = load_builtin_tasks(families=False)


class _Session:
    cpu_owed_s = 0.0
    cpu_owed_at = 0.0


def test_a_session_owing_at_most_the_burst_does_not_wait():
    session = _Session()
    charge(session, BURST_S, 0.05, now=100.0)
    assert session.cpu_owed_s == BURST_S
    assert wait_s(session, 0.05, now=100.0) == 0.0


def test_what_is_owed_past_the_burst_is_waited_for_at_the_share():
    session = _Session()
    charge(session, BURST_S + 0.1, 0.05, now=100.0)
    assert wait_s(session, 0.05, now=100.0) == pytest.approx(2.0)  # 0.1 CPU-s at 0.05 a second
    assert wait_s(session, 0.05, now=101.0) == pytest.approx(1.0)  # one second paid back 0.05 of it
    assert wait_s(session, 0.05, now=102.0) == 0.0
    charge(session, 0.2, 0.05, now=120.0)  # all paid back by then: owes only this call
    assert session.cpu_owed_s == pytest.approx(0.2)


def test_one_costly_call_is_waited_for_at_most_max_wait_s_and_share_zero_never_waits():
    session = _Session()
    charge(session, 30.0, 0.05, now=100.0)
    assert wait_s(session, 0.05, now=100.0) == MAX_WAIT_S
    assert wait_s(session, 0.0, now=100.0) == 0.0


async def _off_loop_gateway(monkeypatch, share: float, sessions: int) -> tuple[Gateway, list]:
    monkeypatch.setattr(core, "OFF_LOOP_WRITTEN_CHARS", -1)  # every call in a worker thread
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none", session_cpu_share=share), TASKS)
    seeded = [await gw.seed({"task_id": "drive-share-offsite-agenda"}, "http://127.0.0.1:1/") for _ in range(sessions)]
    return gw, [gw.get_session(info["session_id"]) for info in seeded]


def _busy_search(monkeypatch, cpu_s: float) -> None:
    """Every search spends ``cpu_s`` of its thread's CPU before it runs."""
    invoke = Action.invoke

    def busy(self, ctx, arguments):
        started = time.thread_time()
        while time.thread_time() - started < cpu_s:
            pass
        return invoke(self, ctx, arguments)

    monkeypatch.setattr(Action, "invoke", busy)


async def test_an_off_loop_call_is_charged_its_threads_cpu_and_the_next_waits_while_another_session_is_live(
    monkeypatch,
):
    gw, (busy, other) = await _off_loop_gateway(monkeypatch, share=1.0, sessions=2)
    _busy_search(monkeypatch, 0.05)
    monkeypatch.setattr(cpushare, "BURST_S", 0.0)
    await gw.call(busy, "company_drive_search_files", {"query": "agenda"})
    assert 0.05 <= busy.cpu_owed_s < 0.5  # its own thread's CPU, not the loop's or the other session's
    assert other.cpu_owed_s == 0.0
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds, *args):
        slept.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(core.asyncio, "sleep", sleep)
    await gw.call(busy, "company_drive_search_files", {"query": "agenda"})
    assert len(slept) == 1 and 0 < slept[0] <= 0.5  # what it still owed, paid back at a core a second
    assert gw.metrics.cpu_share_wait._value.get() == pytest.approx(slept[0])


async def test_a_session_alone_and_a_share_of_zero_never_wait(monkeypatch):
    monkeypatch.setattr(cpushare, "BURST_S", 0.0)
    for share, sessions in ((1.0, 1), (0.0, 2)):
        gw, seeded = await _off_loop_gateway(monkeypatch, share=share, sessions=sessions)
        seeded[0].cpu_owed_s, seeded[0].cpu_owed_at = 100.0, time.monotonic()
        await gw.call(seeded[0], "company_drive_search_files", {"query": "agenda"})
        assert gw.metrics.cpu_share_wait._value.get() == 0.0


async def test_a_call_cancelled_while_it_waits_changes_nothing(monkeypatch):
    gw, (busy, _other) = await _off_loop_gateway(monkeypatch, share=0.001, sessions=2)
    busy.cpu_owed_s, busy.cpu_owed_at = 10.0, time.monotonic()
    before = busy.world.snapshot()
    call = asyncio.ensure_future(gw.call(busy, "company_drive_create_file", {"name": "a.txt", "content": "a"}))
    await asyncio.sleep(0.05)
    assert not call.done()  # waiting for its share
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert busy.world.snapshot() == before and busy.calls == 0
    made = await gw.call(_other, "company_drive_create_file", {"name": "a.txt", "content": "a"})
    assert made["name"] == "a.txt"
