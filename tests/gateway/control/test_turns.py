"""Turns: world builds one at a time, in arrival order, in slices that alternate with the rest of the server.

A fake clock (``gateway.control.admission.time.perf_counter``) that only builds advance makes the slices
deterministic; a ticker task that logs each trip through the event loop shows where the loop ran.
"""

import asyncio
import contextlib

import pytest

from gateway.control import admission
from gateway.control.admission import Turns


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(admission.time, "perf_counter", fake)
    return fake


@contextlib.asynccontextmanager
async def ticker(log):
    """Appends "tick" to ``log`` on every trip through the event loop while the block runs."""

    async def tick():
        while True:
            log.append("tick")
            await asyncio.sleep(0)

    task = asyncio.create_task(tick())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def builder(log, clock, name, cost_s=0.0, error=None):
    def build():
        log.append(name)
        clock.now += cost_s
        if error:
            raise error
        return name.upper()

    return build


def builds_between_ticks(log):
    """The runs of builds the loop did not interrupt, e.g. [["a", "b"], ["c"]]."""
    runs, run = [], []
    for entry in log:
        if entry == "tick":
            if run:
                runs.append(run)
            run = []
        else:
            run.append(entry)
    return runs + ([run] if run else [])


async def test_a_burst_is_built_in_arrival_order_without_a_trip_through_the_loop_per_build(clock):
    turns, log = Turns(slice_s=0.001), []
    async with ticker(log):
        seeds = [asyncio.create_task(turns.run(builder(log, clock, f"s{i}", cost_s=0.0001))) for i in range(5)]
        results = await asyncio.gather(*seeds)
    assert [r for r, _ in results] == ["S0", "S1", "S2", "S3", "S4"]
    assert [t.place for _, t in results] == [0, 1, 2, 3, 4]
    assert builds_between_ticks(log) == [["s0", "s1", "s2", "s3", "s4"]]
    assert turns.queued == 0


async def test_after_a_slice_of_building_the_loop_serves_others_before_the_next_build(clock):
    turns, log = Turns(slice_s=0.01), []
    async with ticker(log):
        # each build costs 6 ms of the 10 ms slice: two fit, then the loop gets its turn
        seeds = [asyncio.create_task(turns.run(builder(log, clock, f"s{i}", cost_s=0.006))) for i in range(5)]
        await asyncio.gather(*seeds)
    assert builds_between_ticks(log) == [["s0", "s1"], ["s2", "s3"], ["s4"]]


async def test_the_wait_counts_from_arrival_to_the_start_of_the_build(clock):
    turns, log = Turns(slice_s=0.05), []
    first = asyncio.create_task(turns.run(builder(log, clock, "a", cost_s=0.02)))
    second = asyncio.create_task(turns.run(builder(log, clock, "b", cost_s=0.02)))
    (_, turn_a), (_, turn_b) = await asyncio.gather(first, second)
    assert turn_a.wait_s == 0.0 and turn_b.wait_s == pytest.approx(0.02)


async def test_a_failing_build_fails_only_its_own_seed(clock):
    turns, log = Turns(slice_s=0.001), []
    bad = asyncio.create_task(turns.run(builder(log, clock, "bad", error=ValueError("no template"))))
    good = asyncio.create_task(turns.run(builder(log, clock, "good")))
    with pytest.raises(ValueError, match="no template"):
        await bad
    assert (await good)[0] == "GOOD"
    assert log == ["bad", "good"]


async def test_a_seed_cancelled_while_queued_is_never_built(clock):
    turns, log = Turns(slice_s=0.001), []
    first = asyncio.create_task(turns.run(builder(log, clock, "first")))
    gone = asyncio.create_task(turns.run(builder(log, clock, "gone")))
    last = asyncio.create_task(turns.run(builder(log, clock, "last")))
    await asyncio.sleep(0)  # all three queued, the drainer in its first pause
    assert turns.queued == 3
    gone.cancel()
    assert (await first)[0] == "FIRST" and (await last)[0] == "LAST"
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert log == ["first", "last"]
    assert turns.queued == 0


async def test_a_new_burst_after_an_idle_spell_starts_a_new_drainer(clock):
    turns, log = Turns(slice_s=0.001), []
    assert (await turns.run(builder(log, clock, "one")))[0] == "ONE"
    assert (await turns.run(builder(log, clock, "two")))[0] == "TWO"
    assert log == ["one", "two"]
