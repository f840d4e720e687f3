"""What closed sessions leave behind: kept for retries, forgotten by age and by count (then 404)."""

import pytest

from gateway import Gateway, Settings
from gateway.control.rows import load_builtin_tasks
from gateway.control.sessions import EndedSessions
from gateway.exceptions import SessionClosed, UnknownSession

TASKS = load_builtin_tasks()
BASE = "http://127.0.0.1:1/"


class Clock:
    """A monotonic clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_is_kept_until_its_age_passes_the_ttl():
    clock = Clock()
    ended = EndedSessions(ttl_s=60, max_count=10, clock=clock)
    ended.add("s_a", {"status": "closed"})
    clock.now += 30
    ended.add("s_b", {"status": "closed"})
    clock.now += 29.5
    assert ended.get("s_a") == {"status": "closed"} and len(ended) == 2
    clock.now += 0.5  # s_a is 60 s old
    assert ended.get("s_a") is None and "s_a" not in ended
    assert ended.get("s_b") == {"status": "closed"} and len(ended) == 1
    clock.now += 30
    assert len(ended) == 0


def test_past_the_count_the_session_closed_longest_ago_is_forgotten_first():
    ended = EndedSessions(ttl_s=3600, max_count=3, clock=Clock())
    for i in range(5):
        ended.add(f"s_{i}", {"n": i})
    assert [ended.get(f"s_{i}") for i in range(5)] == [None, None, {"n": 2}, {"n": 3}, {"n": 4}]
    assert len(ended) == 3


def test_past_the_byte_budget_the_sessions_closed_longest_ago_are_forgotten_first():
    ended = EndedSessions(ttl_s=3600, max_count=100, clock=Clock(), max_bytes=100)
    for i in range(3):
        ended.add(f"s_{i}", {"n": i}, size=40)
    assert [ended.get(f"s_{i}") for i in range(3)] == [None, {"n": 1}, {"n": 2}]
    ended.add("s_1", {"n": 1}, size=40)  # kept again: counted once
    ended.add("s_big", {"n": 9}, size=100)
    assert [ended.get(s) for s in ("s_1", "s_2", "s_big")] == [None, None, {"n": 9}]


def test_ids_that_are_not_strings_are_simply_unknown():
    ended = EndedSessions(ttl_s=60, max_count=1, clock=Clock())
    assert ended.get(["s_a"]) is None and {"s": 1} not in ended


async def closed_gateway(**settings):
    clock = Clock()
    gw = Gateway(Settings(seed_slice_s=0, **settings), TASKS)
    gw.ended = EndedSessions(gw.settings.closed_session_ttl_s, gw.settings.max_closed_sessions, clock=clock)
    return gw, clock


async def test_after_the_ttl_verify_close_and_task_state_answer_unknown_session():
    gw, clock = await closed_gateway(closed_session_ttl_s=600)
    sid = (await gw.seed({"task_id": "dir-manager-of-owen"}, BASE))["session_id"]
    verdict = await gw.verify(sid)
    assert await gw.close(sid) == {"session_id": sid, "closed": True}
    clock.now += 599
    assert await gw.verify(sid) == verdict
    assert await gw.close(sid) == {"session_id": sid, "closed": True}
    assert gw.task_state(sid)["verify_result"] == verdict
    clock.now += 1
    for ask in (gw.verify(sid), gw.close(sid)):
        with pytest.raises(UnknownSession) as err:
            await ask
        assert err.value.status_code == 404 and sid in str(err.value)
    with pytest.raises(UnknownSession):
        gw.task_state(sid)
    assert len(gw.ended) == 0


async def test_past_max_closed_sessions_the_oldest_closed_answers_unknown_session():
    gw, _ = await closed_gateway(max_closed_sessions=2)
    ids = [(await gw.seed({"task_id": "dir-manager-of-owen"}, BASE))["session_id"] for _ in range(3)]
    for sid in ids:
        await gw.close(sid)
    with pytest.raises(UnknownSession):
        await gw.close(ids[0])
    with pytest.raises(UnknownSession):
        await gw.verify(ids[0])
    for sid in ids[1:]:
        with pytest.raises(SessionClosed):
            await gw.verify(sid)
        assert gw.task_state(sid)["status"] == "closed"
    assert len(gw.ended) == 2 and len(gw.store) == 0


async def test_a_task_state_answer_cannot_change_what_is_kept():
    gw, _ = await closed_gateway()
    sid = (await gw.seed({"task_id": "dir-manager-of-owen"}, BASE))["session_id"]
    await gw.verify(sid)
    await gw.close(sid)
    state = gw.task_state(sid)
    state["verify_result"]["reward"] = 99.0
    assert gw.task_state(sid)["verify_result"]["reward"] == 0.0
    (await gw.verify(sid))["checks"].clear()
    assert gw.task_state(sid)["verify_result"]["checks"] != []
