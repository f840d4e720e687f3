"""Starting and stopping the server processes the benchmark measures."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Server", "cpu_seconds", "rss_bytes", "server_processes"]

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Server:
    """A running server process: its base URL (``http://127.0.0.1:PORT``) and pid."""

    url: str
    pid: int


def rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` in bytes, from ``/proc/<pid>/status`` (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # let the second run start from cached bytecode
    return env


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) ``pid`` has used so far, in seconds, from ``/proc/<pid>/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def server_processes(*kinds: str) -> Iterator[list[Server]]:
    """Run ``python -m bench.serve KIND`` for each kind, each in its own process, started together.

    Yields the servers in the order of ``kinds``; at the end each gets SIGTERM (SIGKILL after 15 s).
    """
    procs = [
        subprocess.Popen([sys.executable, "-m", "bench.serve", kind], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                         env=_env())
        for kind in kinds
    ]  # fmt: skip
    try:
        servers = []
        for kind, proc in zip(kinds, procs, strict=True):
            assert proc.stdout is not None
            line = proc.stdout.readline()  # blocks until READY or exit
            if not line.startswith("READY "):
                raise RuntimeError(f"the {kind} server did not start (exit {proc.wait()})")
            servers.append(Server(f"http://127.0.0.1:{int(line.split()[1])}", proc.pid))
        yield servers
    finally:
        for proc in procs:
            _stop(proc)
