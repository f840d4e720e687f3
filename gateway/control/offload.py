"""Tool calls run off the event loop in a worker pool of their own, never in asyncio's default pool.

A call that reads or saves workspace files waits, in its worker thread, for the provider's file work on
the event loop (:class:`~gateway.control.workspace.SandboxFiles`); the local provider does that work with
``asyncio.to_thread``, i.e. in the default pool (and a provider reached by host name resolves it there).
Were the calls in the default pool too, as many calls at once as it has threads (``min(32, cores + 4)``:
6 on 2 cores) would hold every thread while the file work they wait for queued behind them, until the
30 s file timeout failed them all (masked). In a pool of their own they wait on work that always has
threads to run on.

The pool is the process's, like the default one: one set of threads for every gateway in the process,
made on first use, and made again in a forked child.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gateway.control import quotas
from gateway.control.workspace import SandboxFiles
from tools import Action, Context

__all__ = ["CALL_THREADS", "run_call"]

#: Threads of the call pool: asyncio's rule for its default pool.
CALL_THREADS = min(32, (os.cpu_count() or 1) + 4)

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _calls_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=CALL_THREADS, thread_name_prefix="call")
        return _pool


def _forget_pool_in_child() -> None:
    """A forked child has none of the parent's threads: its pool is made again on first use.

    Without this, a child forked after the parent used the pool (``tasks prove``'s workers, forked from a process
    that already served calls) sees a full pool with no threads behind it, and its calls never run.
    """
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_pool_in_child)


def run_call(
    action: Action,
    ctx: Context[Any],
    arguments: dict[str, Any] | None,
    files: SandboxFiles | None,
    spent: list[float] | None = None,
) -> asyncio.Future[tuple[Any, int]]:
    """Run an action in the call pool (context variables copied, as ``asyncio.to_thread`` does).

    Args:
        spent: When given, the CPU seconds the call's thread spent on it (``time.thread_time``: waits for file
            work are not counted) are appended to it when the call ends, whether it returned or raised.

    Returns:
        A future of ``(result, characters)``: the action's result and the text of the workspace files it stored.
        Call from the event loop.
    """
    call = functools.partial(contextvars.copy_context().run, _invoke, action, ctx, arguments, files, spent)
    return asyncio.get_running_loop().run_in_executor(_calls_pool(), call)


def _invoke(
    action: Action,
    ctx: Context[Any],
    arguments: dict[str, Any] | None,
    files: SandboxFiles | None,
    spent: list[float] | None,
) -> tuple[Any, int]:
    started = time.thread_time()
    try:
        result = action.invoke(ctx, arguments)
        return result, quotas.stored_text(ctx.world, files.read) if files is not None and files.read else 0
    finally:
        if spent is not None:
            spent.append(time.thread_time() - started)
