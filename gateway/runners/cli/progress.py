"""Progress of a long command: a bar on a terminal, a plain line every few seconds anywhere else.

In CI or a pipe a bar draws nothing, and a command that is silent for minutes looks hung; off a
terminal :class:`Progress` writes ``proving: 120/1463 (8%), 61 s`` to standard error instead, at most
once every ``every`` seconds, and a last line when it ends.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Progress"]


class Progress:
    """Counts finished units of a long command and shows it (a context manager).

    Args:
        label: What the command is doing, e.g. ``"proving"``.
        total: Units to do.
        quiet: Show nothing on a terminal (a line-per-result output is drawing there already).
        every: Seconds between two lines off a terminal (default 5).
        stream: Where to write (default standard error).
    """

    def __init__(
        self, label: str, total: int, *, quiet: bool = False, every: float = 5.0, stream: TextIO | None = None
    ) -> None:
        self.label, self.total, self.every = label, total, every
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self._started = self._shown = time.monotonic()
        self._bar: Any = None
        self._task: Any = None
        self._lines = not self.stream.isatty()
        if not self._lines and not quiet:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
            self._bar = Bar(*columns, console=Console(file=self.stream), transient=True)

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total)
        return self

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more units done; off a terminal, write a line if ``every`` seconds have passed."""
        self.done += n
        if self._bar is not None:
            self._bar.advance(self._task, n)
        elif self._lines and time.monotonic() - self._shown >= self.every:
            self._line()

    def _line(self) -> None:
        self._shown = time.monotonic()
        share = f" ({100 * self.done // self.total}%)" if self.total else ""
        seconds = self._shown - self._started
        print(f"{self.label}: {self.done}/{self.total}{share}, {seconds:.0f} s", file=self.stream, flush=True)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
        elif self._lines and self.done and kind is None:  # a run cut short says nothing more
            self._line()
