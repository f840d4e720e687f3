"""The call pool in a forked child: made again, so the child's calls run (``tasks prove`` forks its workers)."""

import multiprocessing

from gateway.control import offload


def _call_in_pool() -> None:
    assert offload._calls_pool().submit(lambda: 2).result(timeout=10) == 2


def test_a_child_forked_after_the_pool_was_used_runs_its_calls():
    for _ in range(offload.CALL_THREADS):  # the parent's pool is made and has all its threads
        offload._calls_pool().submit(lambda: 1).result()
    child = multiprocessing.get_context("fork").Process(target=_call_in_pool)
    child.start()
    child.join(30)
    stuck = child.is_alive()
    if stuck:
        child.kill()
    assert not stuck and child.exitcode == 0
