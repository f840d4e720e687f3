"""Optional sampling profile of a server process with py-spy (``python -m bench --profile``).

``py-spy record --format raw`` writes collapsed stacks (``frame;frame;... count``);
:func:`top` turns them into the functions with the most samples, self and inclusive.
"""

from __future__ import annotations

import collections
import contextlib
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

__all__ = ["record", "top"]


@contextlib.contextmanager
def record(pid: int, out: Path, enabled: bool = True) -> Iterator[Path | None]:
    """Sample ``pid`` with py-spy into ``out`` (collapsed stacks) for the duration of the block; no-op if disabled."""
    beside = Path(sys.executable).with_name("py-spy")
    spy = shutil.which("py-spy") or (str(beside) if beside.exists() else None)
    if not enabled or spy is None:
        yield None
        return
    proc = subprocess.Popen(
        [spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "250", "--nonblocking", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield out
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _name(frame: str) -> str:
    # py-spy frames look like "function (path/to/module.py:123)": keep function and module file, drop the line
    func, _, where = frame.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    parts = Path(path).parts
    short = "/".join(parts[-2:]) if parts else path
    return f"{func} ({short})"


def top(path: Path, n: int = 15) -> dict[str, list[tuple[str, float]]]:
    """The ``n`` functions with the most samples in a py-spy raw file: ``{"self": [...], "inclusive": [...]}``.

    Each entry is ``(function (module), share of all samples)``; idle samples (the event loop's
    ``select``) are counted, so shares say where wall time on the loop went.
    """
    own: collections.Counter[str] = collections.Counter()
    incl: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        k = int(count)
        total += k
        frames = [_name(f) for f in stack.split(";")]
        own[frames[-1]] += k
        for f in set(frames):
            incl[f] += k
    if not total:
        return {"self": [], "inclusive": []}
    return {
        "self": [(f, c / total) for f, c in own.most_common(n)],
        "inclusive": [(f, c / total) for f, c in incl.most_common(n)],
    }
