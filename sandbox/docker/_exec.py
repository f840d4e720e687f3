"""Running commands in a docker sandbox through the ``sh`` wrapper the package docstring describes.

``run_command`` starts the wrapper with ``exec_create``/``exec_start``, streams its output on a pool
thread, reads the outcome from the wrapper's stderr markers, and kills a command the engine did not
end ``grace_s`` past its timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import docker.errors
import requests
from docker.utils.socket import frames_iter

from sandbox.base import ExecResult, Sandbox, workspace_path
from sandbox.checks import CWD_MISSING_REASON, CWD_OUTSIDE_REASON
from sandbox.docker._engine import Engine, exec_quick
from sandbox.exceptions import ProviderUnavailable, SandboxGone, WorkspacePathError

__all__ = ["run_command"]

logger = logging.getLogger(__name__)

_KILL_WAIT_S = 5.0

# Runs every command: $1 token, $2 workspace, $3 working folder, $4 timeout in seconds, then argv.
# Markers on stderr carry the outcome; the random token keeps a command from forging them.
# runc makes each exec a session leader, so "kill -KILL -$$" reaches the command and its children.
# The command is looked up on PATH here, by path: busybox's static sh would run its own applets first.
_WRAPPER = r"""_cg_tok=$1 _cg_ws=$2 _cg_dir=$3 _cg_limit=$4
shift 4
printf '%s pid %s\n' "$_cg_tok" "$$" >&2
cd -- "$_cg_dir" 2>/dev/null || { printf '\n%s cwd-missing\n' "$_cg_tok" >&2; exit 0; }
case "$(pwd -P)/" in "$_cg_ws"/*) ;; *) printf '\n%s cwd-outside\n' "$_cg_tok" >&2; exit 0 ;; esac
(sleep "$_cg_limit" && { printf '\n%s timeout\n' "$_cg_tok" >&2; kill -KILL -$$ 2>/dev/null || kill -KILL $$; }) \
  </dev/null >/dev/null &
_cg_cmd=$1
case $1 in */*) ;; *)
  _cg_ifs=$IFS IFS=:
  for _cg_d in $PATH; do [ -f "${_cg_d:-.}/$1" ] && [ -x "${_cg_d:-.}/$1" ] && { _cg_cmd=${_cg_d:-.}/$1; break; }; done
  IFS=$_cg_ifs ;;
esac
shift
if command -v -- "$_cg_cmd" >/dev/null 2>&1; then "$_cg_cmd" "$@"; _cg_rc=$?
else printf '%s: not found\n' "$_cg_cmd" >&2; _cg_rc=127; fi
printf '\n%s exit %s\n' "$_cg_tok" "$_cg_rc" >&2
kill -KILL -$$ 2>/dev/null
exit "$_cg_rc"
"""


@dataclass
class _Stream:
    """One running exec, shared between its reader thread and the event loop."""

    out: bytearray = field(default_factory=bytearray)
    err: bytearray = field(default_factory=bytearray)
    exec_id: str | None = None
    sock: Any = None
    closed: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def close(self) -> None:
        """Unblock the reader thread: shut the exec's socket down (a plain close would not wake it)."""
        with self.lock:
            self.closed = True
            if self.sock is not None:
                with contextlib.suppress(OSError):
                    self.sock.shutdown(socket.SHUT_RDWR)


async def run_command(
    engine: Engine,
    sandbox: Sandbox,
    argv: list[str],
    *,
    timeout_s: float,
    grace_s: float,
    cwd: str | None,
    env: dict[str, str] | None,
    stdin: bytes | None,
) -> ExecResult:
    """Run one checked command in the container, waiting at most ``grace_s`` past its timeout.

    The command is killed with its whole process group at ``timeout_s`` (exit code 124);
    processes it leaves in the background are killed when it exits. A command still
    running when the sandbox is destroyed ends with exit code 137.
    """
    shown_cwd = cwd or "."
    directory = PurePosixPath(sandbox.workspace, workspace_path(shown_cwd, sandbox.workspace))
    token = secrets.token_hex(16)
    wrapped = ["/bin/sh", "-c", _WRAPPER, "sh", token, sandbox.workspace, str(directory), f"{timeout_s:.3f}"]
    api = await engine.api()
    stream = _Stream()
    started = time.monotonic()
    future = asyncio.ensure_future(
        engine.call(
            _run_exec, api, sandbox.id, wrapped + list(argv), env, stdin, stream,
            what="run a command", sandbox=sandbox,
        )
    )  # fmt: skip
    future.add_done_callback(_retrieve)  # it may end after run_command() stopped waiting for it
    stuck = False
    try:
        await asyncio.wait_for(asyncio.shield(future), timeout_s + grace_s)
    except TimeoutError:
        stuck = True
        await _kill_stuck(api, sandbox, token, stream, future, grace_s)
    except BaseException:
        stream.close()  # cancelled: the in-container watcher still kills the command at its timeout
        raise
    duration = time.monotonic() - started
    markers, stderr = _split_markers(bytes(stream.err), token)
    if "cwd-missing" in markers:
        raise WorkspacePathError(shown_cwd, CWD_MISSING_REASON)
    if "cwd-outside" in markers:
        raise WorkspacePathError(shown_cwd, CWD_OUTSIDE_REASON)
    stdout = bytes(stream.out)
    if stuck or "timeout" in markers:
        return ExecResult(124, stdout, stderr, True, duration)
    if "exit" in markers:
        return ExecResult(int(markers["exit"]), stdout, stderr, False, duration)
    # No outcome marker: the wrapper never ran (no /bin/sh) or was killed from outside.
    code = await _exit_code(engine, api, sandbox, stream)
    return ExecResult(code, stdout, stderr, False, time.monotonic() - started)


def _run_exec(
    api: Any, container: str, cmd: list[str], env: dict[str, str] | None, stdin: bytes | None, s: _Stream
) -> None:
    created = api.exec_create(container, cmd, stdin=stdin is not None, environment=env or None)
    s.exec_id = created["Id"]
    sock = api.exec_start(s.exec_id, socket=True)
    raw = getattr(sock, "_sock", sock)  # a SocketIO over a unix socket; the socket itself otherwise
    with s.lock:
        s.sock = raw
        closed = s.closed
    try:
        raw.settimeout(None)  # the client timeout would cut off a quiet command; run_command() bounds the wait
        if closed:
            return
        if stdin is not None:
            threading.Thread(target=_feed, args=(raw, stdin), daemon=True, name="docker-sandbox-stdin").start()
        for kind, data in frames_iter(sock, tty=False):
            (s.err if kind == 2 else s.out).extend(data)
    except OSError:
        if not s.closed:
            raise
    finally:
        sock.close()
        raw.close()


async def _kill_stuck(
    api: Any, sandbox: Sandbox, token: str, stream: _Stream, future: asyncio.Future[None], grace_s: float
) -> None:
    """The engine did not end the command ``grace_s`` past its timeout: kill it ourselves."""
    logger.warning(
        "docker sandbox %s: command still running %.0f s past its timeout; killing it", sandbox.id[:12], grace_s
    )
    match = re.match(rf"{token} pid (\d+)\n".encode(), bytes(stream.err))
    if match:
        kill = ["/bin/sh", "-c", 'kill -KILL -"$0" 2>/dev/null || kill -KILL "$0"', match.group(1).decode()]
        # Outside the semaphore and the pool: every slot may be held by stuck commands.
        with contextlib.suppress(TimeoutError, docker.errors.DockerException, requests.RequestException, OSError):
            await asyncio.wait_for(asyncio.to_thread(exec_quick, api, sandbox.id, kill), _KILL_WAIT_S)
    with contextlib.suppress(TimeoutError, ProviderUnavailable):
        await asyncio.wait_for(asyncio.shield(future), _KILL_WAIT_S)
    stream.close()
    with contextlib.suppress(TimeoutError, ProviderUnavailable):
        await asyncio.wait_for(asyncio.shield(future), _KILL_WAIT_S)


async def _exit_code(engine: Engine, api: Any, sandbox: Sandbox, stream: _Stream) -> int:
    """The exec's exit code from the engine, for a run whose wrapper reported none.

    A command whose container was destroyed under it ends with 137 (killed, as the local provider
    reports it): the exec is then unknown (404), or, while the container is being removed, podman
    answers 500 ("... does not exist in database: no such container"); any other failure of the
    inspection is the provider's only while the container is still there and running.
    """
    try:
        for _ in range(40):  # Docker may still report the exec as running for a moment after its stream ends
            info = await engine.call(api.exec_inspect, stream.exec_id, what="inspect a command", sandbox=sandbox)
            if not info.get("Running"):
                break
            await asyncio.sleep(0.05)
    except SandboxGone:
        return 137
    except ProviderUnavailable:
        if not await engine.running(sandbox):
            return 137
        raise
    if info.get("Running"):
        raise ProviderUnavailable(f"docker sandbox {sandbox.id[:12]}: command output ended but it still runs")
    code = info.get("ExitCode")
    if not isinstance(code, int) or code < 0:
        raise ProviderUnavailable(f"docker sandbox {sandbox.id[:12]}: no exit code for the command: {info}")
    return code


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a finished future's exception as seen (it was handled, or nobody waits for it any more)."""
    if not future.cancelled():
        future.exception()


def _feed(sock: socket.socket, data: bytes) -> None:
    """Write a command's stdin, then half-close so it sees end of input (in a thread: output may fill first)."""
    with contextlib.suppress(OSError):
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)


_MARKER = re.compile(rb"(?:^|\n)([0-9a-f]{32}) (pid|exit|timeout|cwd-missing|cwd-outside)(?: (\d+))?\n")


def _split_markers(err: bytes, token: str) -> tuple[dict[str, str], bytes]:
    """The wrapper's markers (``{"exit": "3"}``, ``{"timeout": ""}``...) and stderr without them."""
    markers: dict[str, str] = {}
    kept, last = [], 0
    for match in _MARKER.finditer(err):
        if match.group(1).decode() != token:
            continue
        markers.setdefault(match.group(2).decode(), (match.group(3) or b"").decode())
        kept.append(err[last : match.start()])
        last = match.end()
    kept.append(err[last:])
    return markers, b"".join(kept)
