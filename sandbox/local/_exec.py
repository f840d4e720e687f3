"""Running one command in a local sandbox: under bubblewrap when it is in use, else as a plain host process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from pathlib import Path, PurePosixPath

from sandbox.base import COMMANDS_DIR, TOOLS_DIR, WORKSPACE, ExecResult, Sandbox, workspace_path
from sandbox.checks import CWD_MISSING_REASON, CWD_OUTSIDE_REASON
from sandbox.exceptions import ProviderUnavailable, SandboxGone, WorkspacePathError
from sandbox.local import _bwrap

__all__ = ["kill", "run_command"]

logger = logging.getLogger(__name__)

_READ_CHUNK = 65536
_KILL_GRACE_S = 5.0


async def run_command(
    bwrap: str | None,
    home: Path,
    sandbox: Sandbox,
    argv: list[str],
    variables: dict[str, str],
    *,
    timeout_s: float,
    cwd: str | None,
    stdin: bytes | None,
    running: dict[str, set[asyncio.subprocess.Process]],
    hidden: tuple[str, ...] = (),
    tmp_bytes: int | None = None,
    tools: Path | None = None,
) -> ExecResult:
    """Run one checked command in the sandbox whose folder is ``home``, with ``variables`` as its env.

    ``running`` holds each sandbox's running processes: the command is in it while it runs. ``hidden``,
    ``tmp_bytes`` and ``tools``: see :func:`sandbox.local._bwrap.bwrap_argv`.
    """
    rel_cwd = await asyncio.to_thread(_check_cwd, home / "workspace", cwd or ".", sandbox.workspace)

    status_r: int | None = None
    pass_fds: tuple[int, ...] = ()
    if bwrap is not None:
        status_r, status_w = os.pipe()
        network = sandbox.private.get("network", "host")
        sockets = sandbox.private.get("sockets", {})
        try:
            where = PurePosixPath(WORKSPACE, rel_cwd)
            options = _bwrap.bwrap_argv(bwrap, home, network, where, status_w, sockets, hidden, tmp_bytes, tools)
            path = _bwrap.command_path(COMMANDS_DIR, TOOLS_DIR if tools else None)
            args_fd = _bwrap.args_file(options[1:], variables, path)  # paths and env stay off the command line
        except BaseException:
            for fd in (status_w, status_r):
                os.close(fd)
            raise
        pass_fds = (args_fd, status_w)
        args = [bwrap, "--args", str(args_fd), "--", *argv]
        run_env: dict[str, str] = {}
        run_cwd: Path | None = None
    else:
        args = list(argv)
        run_cwd = home / "workspace" / rel_cwd
        run_path = _bwrap.command_path(str(home / "bin"), str(tools) if tools else None)
        run_env = {"PATH": run_path, "HOME": str(home / "workspace"), "PWD": str(run_cwd)}
        run_env.update(variables)

    started = time.monotonic()
    try:
        proc = await asyncio.create_subprocess_exec(
            *args,
            stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=run_cwd,
            env=run_env,
            pass_fds=pass_fds,
            start_new_session=True,
        )
    except OSError as exc:
        if status_r is not None:
            os.close(status_r)
        if bwrap is None and isinstance(exc, FileNotFoundError | PermissionError):
            code = 127 if isinstance(exc, FileNotFoundError) else 126
            return ExecResult(code, b"", f"{argv[0]}: {exc.strerror}\n".encode(), False, 0.0)
        raise ProviderUnavailable(f"could not start {args[0]!r} for sandbox {sandbox.id}: {exc}") from exc
    finally:
        for fd in pass_fds:
            os.close(fd)

    running.setdefault(sandbox.id, set()).add(proc)
    try:
        stdout, stderr, timed_out = await _communicate(proc, stdin, timeout_s)
    finally:
        # Also after a normal exit: without bubblewrap, background children stay in the group.
        kill(proc, always=True)
        procs = running.get(sandbox.id, set())
        procs.discard(proc)
        if not procs:
            running.pop(sandbox.id, None)
        status = _bwrap.read_status(status_r) if status_r is not None else {}
        if status_r is not None:
            os.close(status_r)
    duration = time.monotonic() - started

    returncode = proc.returncode if proc.returncode is not None else -signal.SIGKILL
    if timed_out:
        code = 124
    elif returncode < 0:
        code = 128 - returncode
    elif bwrap is None or "exit-code" in status:
        code = returncode
    else:
        code = _bwrap_failure(sandbox, home, stderr)
    return ExecResult(code, stdout, stderr, timed_out, duration)


def _bwrap_failure(sandbox: Sandbox, home: Path, stderr: bytes) -> int:
    """Exit code for a run where bubblewrap never reported the command's exit (it failed first)."""
    last = stderr.decode(errors="replace").strip().rsplit("\n", 1)[-1]
    if last.startswith("bwrap: execvp "):
        return 126 if "Permission denied" in last else 127
    if not (home / "workspace").is_dir():
        raise SandboxGone(f"local sandbox {sandbox.id} was destroyed")
    raise ProviderUnavailable(f"bubblewrap failed for sandbox {sandbox.id}: {last}")


def _check_cwd(workspace: Path, cwd: str, inside: str) -> PurePosixPath:
    """The workspace-relative working folder, checked to be a folder that stays inside the workspace."""
    rel = workspace_path(cwd, inside)
    if not workspace.is_dir():
        raise SandboxGone(f"local sandbox workspace {workspace} is gone")
    real = (workspace / rel).resolve()
    if not real.is_relative_to(workspace.resolve()):
        raise WorkspacePathError(cwd, CWD_OUTSIDE_REASON)
    if not real.is_dir():
        raise WorkspacePathError(cwd, CWD_MISSING_REASON)
    return PurePosixPath(real.relative_to(workspace.resolve()))


async def _communicate(
    proc: asyncio.subprocess.Process, stdin: bytes | None, timeout_s: float
) -> tuple[bytes, bytes, bool]:
    """Feed stdin and collect output until the process exits or ``timeout_s`` passes (then kill it)."""
    out, err = bytearray(), bytearray()

    async def pump(stream: asyncio.StreamReader | None, buf: bytearray) -> None:
        while stream is not None and (chunk := await stream.read(_READ_CHUNK)):
            buf += chunk

    async def feed() -> None:
        if proc.stdin is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.write(stdin or b"")
            await proc.stdin.drain()
        proc.stdin.close()

    tasks = {
        asyncio.ensure_future(pump(proc.stdout, out)),
        asyncio.ensure_future(pump(proc.stderr, err)),
        asyncio.ensure_future(feed()),
        asyncio.ensure_future(proc.wait()),
    }
    try:
        _, pending = await asyncio.wait(tasks, timeout=timeout_s)
        timed_out = bool(pending)
        if pending:
            kill(proc)
            # Output written before the kill is still in the pipes: drain it, bounded, in case
            # a stray process outside the group keeps a pipe open.
            _, pending = await asyncio.wait(pending, timeout=_KILL_GRACE_S)
            if pending:
                logger.warning("sandbox command pid %s: pipes still open %.0f s after kill", proc.pid, _KILL_GRACE_S)
    finally:
        for task in tasks:
            task.cancel()
    return bytes(out), bytes(err), timed_out


def kill(proc: asyncio.subprocess.Process, *, always: bool = False) -> None:
    """SIGKILL a command's process group (its own session, so pgid == pid) if it still runs, or ``always``."""
    if always or proc.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
