"""Commands on OpenSandbox: execd's event stream rebuilt into output, and its outcome into an exit code."""

from __future__ import annotations

from typing import Any

from opensandbox.models.execd import ExecutionError, ExecutionHandlers, OutputMessage

__all__ = ["CommandStream", "exit_status"]

# How Go's os/exec names the signal that ended a process ("signal: killed"), by number on Linux.
_SIGNALS = {
    "hangup": 1,
    "interrupt": 2,
    "quit": 3,
    "illegal instruction": 4,
    "trace/breakpoint trap": 5,
    "aborted": 6,
    "bus error": 7,
    "floating point exception": 8,
    "killed": 9,
    "user defined signal 1": 10,
    "segmentation fault": 11,
    "user defined signal 2": 12,
    "broken pipe": 13,
    "alarm clock": 14,
    "terminated": 15,
}


class CommandStream:
    """Collects a command's events as they arrive, so a timeout still has the output so far."""

    def __init__(self) -> None:
        self.execution_id: str | None = None
        self._out: list[str] = []
        self._err: list[str] = []

    def handlers(self) -> ExecutionHandlers:
        async def on_init(event: Any) -> None:
            self.execution_id = getattr(event, "id", None) or None

        async def on_stdout(message: OutputMessage) -> None:
            self._out.append(message.text)

        async def on_stderr(message: OutputMessage) -> None:
            self._err.append(message.text)

        return ExecutionHandlers(on_init=on_init, on_stdout=on_stdout, on_stderr=on_stderr, skip_accumulation=True)

    def stdout(self) -> bytes:
        return _join_lines(self._out)

    def stderr(self) -> bytes:
        return _join_lines(self._err)


def _join_lines(lines: list[str]) -> bytes:
    """Rebuild output from execd's line events: a line without its end each, an empty line as a lone newline."""
    return "".join(line if line == "\n" else line + "\n" for line in lines).encode()


def exit_status(error: ExecutionError, duration_s: float, timeout_s: float) -> tuple[int, bool, bytes]:
    """Exit code, whether it timed out, and text for stderr, from execd's ``error`` event.

    execd puts the exit code in ``evalue``; ``-1`` means a signal ended the process (the traceback
    reads ``signal: killed``), which is how its timeout shows; any other text is why the program
    could not start.
    """
    value = (error.value or "").strip()
    try:
        code = int(value)
    except ValueError:
        lowered = value.lower()
        missing = "not found" in lowered or "no such file" in lowered
        return (127 if missing else 126), False, f"{value}\n".encode()
    if code >= 0:
        return code, False, b""
    if duration_s >= timeout_s:
        return 124, True, b""
    said = " ".join(error.traceback)
    signal = next((n for name, n in _SIGNALS.items() if f"signal: {name}" in said), 0)
    return 128 + signal, False, b""
