"""Fair lanes: once two sessions call at once, calls go one at a time in start-tag order, not arrival order."""

import asyncio
import threading
import time

import pytest

from gateway.control import core
from gateway.control.cpushare import CALL_COST_S, Lane
from tests.gateway.control.test_cpushare import _busy_search, _off_loop_gateway


class _Session:
    def __init__(self, tag: float = 0.0) -> None:
        self.tag = tag


async def _take(lane: Lane, session: _Session, cost: float, order: list[str], name: str) -> None:
    start = await lane.enter(session)
    order.append(name)
    lane.leave(session, start, cost)


async def test_a_session_that_called_little_goes_before_those_that_called_much():
    lane = Lane("tag", yields=True)
    heavy = [_Session() for _ in range(3)]
    light = _Session()
    order: list[str] = []
    for k, session in enumerate(heavy):  # each flooder's first call: cost 1.0 each
        await _take(lane, session, 1.0, order, f"heavy{k}")
    ready = [_take(lane, session, 1.0, order, f"heavy{k}") for k, session in enumerate(heavy)]
    ready.append(_take(lane, light, 0.001, order, "light"))  # became ready last, together with them
    await asyncio.gather(*ready)
    assert order[3] == "light"  # not fourth in arrival order among the four that were ready together
    assert order[4:] == ["heavy0", "heavy1", "heavy2"]  # equal tags: arrival order


async def test_a_yielding_lane_orders_even_when_free_and_a_cancelled_waiter_is_passed_over():
    lane = Lane("tag", yields=True)
    a, b, c = _Session(5.0), _Session(0.0), _Session(1.0)
    order: list[str] = []
    first = asyncio.ensure_future(_take(lane, a, 1.0, order, "a"))
    gone = asyncio.ensure_future(_take(lane, b, 1.0, order, "b"))
    last = asyncio.ensure_future(_take(lane, c, 1.0, order, "c"))
    await asyncio.sleep(0)  # all three wait: nothing went through unordered
    assert order == []
    gone.cancel()
    await asyncio.gather(first, last, return_exceptions=True)
    assert order == ["c", "a"] and gone.cancelled()
    assert lane.waiting == 0 and not lane._held


async def test_a_turn_given_to_a_call_cancelled_before_it_ran_passes_on():
    lane = Lane("tag", yields=False)
    holder, late, next_one = _Session(), _Session(), _Session()
    start = await lane.enter(holder)  # free, does not yield: held at once
    waiting = asyncio.ensure_future(lane.enter(late))
    after = asyncio.ensure_future(_take(lane, next_one, 0.0, [], "n"))
    await asyncio.sleep(0)
    lane.leave(holder, start, 0.2)
    await asyncio.sleep(0)  # the turn goes to `late` (lowest tag, first in) ...
    waiting.cancel()  # ... which is cancelled before it runs
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await asyncio.wait_for(after, 1)  # and the next one still gets its turn
    assert holder.tag == pytest.approx(0.2)


async def test_calls_that_compute_in_threads_run_one_at_a_time_once_two_sessions_call(monkeypatch):
    gw, sessions = await _off_loop_gateway(monkeypatch, share=0.0, sessions=3)
    _busy_search(monkeypatch, 0.02)
    running, most = [0], [0]
    guard = threading.Lock()
    real = core.run_call

    def counted(action, ctx, arguments, files, spent):
        def invoke_counting():
            with guard:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.01)  # a thread that still runs when the next call would start
            with guard:
                running[0] -= 1

        loop = asyncio.get_running_loop()
        future = real(action, ctx, arguments, files, spent)
        return asyncio.ensure_future(_after(loop.run_in_executor(None, invoke_counting), future))

    async def _after(first, second):
        await first
        return await second

    monkeypatch.setattr(core, "run_call", counted)
    gw.requesting = 3  # as the session gate sets it while the three have requests open
    calls = [gw.call(s, "company_drive_search_files", {"query": "agenda"}) for s in sessions for _ in range(3)]
    results = await asyncio.gather(*calls)
    assert len(results) == 9 and most[0] == 1
    assert all(s.thread_tag > 0 for s in sessions)  # each charged the CPU its threads spent


async def test_on_the_loop_each_call_is_charged_its_time_and_the_call_cost(monkeypatch):
    from gateway import Gateway, Settings
    from tests.gateway.control.test_cpushare import TASKS

    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), TASKS)
    seeded = [await gw.seed({"task_id": "drive-share-offsite-agenda"}, "http://127.0.0.1:1/") for _ in range(2)]
    a, b = (gw.get_session(info["session_id"]) for info in seeded)
    gw.requesting = 2  # as the session gate sets it while both sessions have a request open
    await asyncio.gather(*(gw.call(s, "company_drive_search_files", {"query": "agenda"}) for s in (a, b, a, b)))
    assert a.loop_tag >= 2 * CALL_COST_S and b.loop_tag >= 2 * CALL_COST_S
    gw.requesting = 1
    alone = gw.get_session((await gw.seed({"task_id": "drive-share-offsite-agenda"}, "http://127.0.0.1:1/"))["session_id"])
    await gw.call(alone, "company_drive_search_files", {"query": "agenda"})
    assert alone.loop_tag == 0.0  # one session calling: no lane, no turn taken
