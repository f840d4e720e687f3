"""What a session leaves behind when it ends, given back: its files' text, and the freed heap to the system.

Closing a session drops its world, its text in the shared text cache (:func:`tools.forget_texts`) and
its lock; Python frees those objects at once. The process's resident size does not follow: glibc keeps
freed memory in its arenas (one per thread that allocated; the worker threads that read uploads and
build documents make several) for the next allocation, so after many sessions with large files RSS
stays near its high-water mark (+125 MiB after 200 sessions of a 330 KB upload each; ``bench.release``).
``malloc_trim(0)`` hands the free pages of every arena back; :class:`Release` asks for it after
sessions end, at most once per ``interval_s``, in a worker thread (it takes ~1-20 ms on a large heap
and releases the GIL while it runs). Only on glibc; elsewhere it is a no-op.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import platform
import time
from collections.abc import Callable, Iterable
from typing import Any

from tools.kernel.documents import forget_texts

__all__ = ["Release", "glibc_malloc_trim"]

logger = logging.getLogger(__name__)


def glibc_malloc_trim() -> Callable[[], int] | None:
    """The C library's ``malloc_trim(0)``, returning 1 when memory was given back; None when it is not glibc."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # a glibc without it, or libc under another name
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return lambda: int(trim(0))


class Release:
    """Gives back what ended sessions held.

    Args:
        interval_s: Least time between two trims (seconds); 0 turns trimming off.
        trim: The trim to run; default :func:`glibc_malloc_trim` (none off glibc: then nothing is trimmed).
        clock: Monotonic seconds (tests pass their own).
    """

    def __init__(
        self,
        interval_s: float,
        trim: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.interval_s = interval_s
        self._trim = (trim or glibc_malloc_trim()) if interval_s > 0 else None
        self._clock = clock
        self._last = -float("inf")  # when the last trim started
        self._pending: asyncio.TimerHandle | None = None
        #: Trims run so far (for tests and the log).
        self.trims = 0

    @property
    def enabled(self) -> bool:
        """Whether sessions' ends lead to trims (a positive interval, on glibc)."""
        return self._trim is not None

    def session_ended(self, blob_ids: Iterable[str]) -> None:
        """Drop the ended session's files' text from the shared cache, and ask for a trim.

        The trim runs ``interval_s`` after the previous one at the earliest (at once when that has passed),
        off the event loop; asks while one is pending join it. Call from the event loop.

        Args:
            blob_ids: The ids of the blobs the session added (``world.blobs.own_ids()``).
        """
        forget_texts(blob_ids)
        if self._trim is None or self._pending is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last + self.interval_s - self._clock())
        self._pending = loop.call_later(delay, self._start, loop)

    def cancel(self) -> None:
        """Drop a pending trim (at shutdown)."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._pending = None
        self._last = self._clock()
        loop.run_in_executor(None, self.trim_now).add_done_callback(_log_failure)

    def trim_now(self) -> bool:
        """Run the trim here and now; True when memory was given back (False when off or nothing to give)."""
        if self._trim is None:
            return False
        started = time.perf_counter()
        gave = self._trim()
        self.trims += 1
        logger.debug("malloc_trim gave=%d in %.1f ms", gave, (time.perf_counter() - started) * 1000)
        return bool(gave)


def _log_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("malloc_trim failed", exc_info=future.exception())
