"""The local provider: a workspace folder on the host, commands under bubblewrap.

Layout under ``root``, one folder per sandbox::

    root/<id>/sandbox.json   owner, labels, env, network, sockets (so list_owned works after a restart)
    root/<id>/workspace/     the workspace, seen as /workspace inside the sandbox
    root/<id>/bin/           app commands, seen read-only as /opt/company/bin (first on PATH)

With bubblewrap (``bwrap``) a command sees a read-only ``/usr`` (plus ``/bin``,
``/lib``... as on the host), a few ``/etc`` files, its own ``/proc``, ``/dev``
and ``/tmp``, the workspace at ``/workspace``, the host unix sockets named with
``bind_socket`` (read-only, under ``/run``) and nothing else of the host; it
runs with no capabilities, in its own namespaces (keeping the host network for
``network="host"``), with only the environment it is given.

Without bubblewrap the paths cannot be remapped: commands run as plain host
processes in the host workspace folder, ``HOME`` is that folder, ``PATH``
starts with the host ``bin`` folder, and nothing is isolated (``network`` and
the read-only views are not enforced) and no socket can be bound. A WARNING is
logged once per provider.

Limits (``memory_mb``, ``cpus``, ``pids``) and ``image`` are not applied by
this provider, nor is any disk quota on the workspace; ``ttl_s`` is recorded,
and reaping is left to the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import re
import secrets
import shutil
import signal
import stat
import subprocess
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from sandbox.base import WORKSPACE, ExecResult, Provider, Sandbox, SandboxSpec, workspace_path
from sandbox.exceptions import FileMissing, FileTooLarge, ProviderUnavailable, SandboxGone, WorkspacePathError

__all__ = ["COMMANDS_DIR", "LocalProvider"]

logger = logging.getLogger(__name__)

COMMANDS_DIR = "/opt/company/bin"
"""Where installed commands appear inside a bubblewrap sandbox."""

_BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
_META = "sandbox.json"
_ID = re.compile(r"[0-9a-f]{16}")
_READ_CHUNK = 65536
_KILL_GRACE_S = 5.0
# Host /etc entries a command commonly needs (names, DNS, TLS roots, Debian's alternatives symlinks).
_ETC = (
    "/etc/alternatives",
    "/etc/group",
    "/etc/hosts",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/resolv.conf",
    "/etc/ssl",
)
_ROOT_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


class LocalProvider(Provider):
    """Sandboxes as folders under ``root``, commands under bubblewrap when it is installed.

    Args:
        root: Host folder holding one sub-folder per sandbox; created if missing.
        owner: Who this provider creates sandboxes for; ``list_owned`` returns only theirs.
        use_bwrap: ``True`` requires bubblewrap, ``False`` never uses it, ``None`` uses it when
            ``bwrap`` is on the host's PATH.

    Raises:
        ProviderUnavailable: ``use_bwrap=True`` and ``bwrap`` is not installed.
    """

    name = "local"

    def __init__(self, root: Path, owner: str, use_bwrap: bool | None = None) -> None:
        self.root = Path(root)
        self.owner = owner
        self._bwrap = shutil.which("bwrap") if use_bwrap is not False else None
        if use_bwrap and self._bwrap is None:
            raise ProviderUnavailable("bubblewrap (bwrap) is not installed; install the 'bubblewrap' package")
        if self._bwrap is None:
            logger.warning(
                "bubblewrap (bwrap) is %s: sandbox commands run as plain host processes and are not isolated",
                "disabled" if use_bwrap is False else "missing",
            )
        self._running: dict[str, set[asyncio.subprocess.Process]] = {}
        self._sockets: dict[str, str] = {}

    @property
    def isolated(self) -> bool:
        """Whether commands run under bubblewrap."""
        return self._bwrap is not None

    @property
    def supports_socket_binds(self) -> bool:
        """Whether :meth:`bind_socket` works: only under bubblewrap (a plain process cannot remap paths)."""
        return self.isolated

    @property
    def socket_binds(self) -> dict[str, str]:
        """The host unix sockets bound into every sandbox created from now on: ``{path inside: host path}``."""
        return dict(self._sockets)

    def bind_socket(self, inside: str, host: str | None) -> None:
        """Bind a host unix socket, read-only, into every sandbox created from now on; see ``Provider.bind_socket``.

        Raises:
            ValueError: bubblewrap is not used, or ``inside`` is not a normalised absolute path
                under ``/run`` such as ``/run/company/api.sock``.
        """
        if not self.isolated:
            raise ValueError("the local provider binds sockets only under bubblewrap, which is not in use")
        path = PurePosixPath(inside)
        if str(path) != inside or ".." in path.parts or path.parts[:2] != ("/", "run") or len(path.parts) < 3:
            raise ValueError(f"inside must be an absolute path under /run, e.g. /run/company/api.sock; got {inside!r}")
        if host is None:
            self._sockets.pop(inside, None)
        else:
            self._sockets[inside] = str(host)

    async def create(self, spec: SandboxSpec) -> Sandbox:
        """Create a sandbox folder with an empty workspace and command folder.

        Raises:
            ValueError: ``spec.network`` is neither ``"none"`` nor ``"host"``.
            ProviderUnavailable: The folders could not be created.
        """
        if spec.network not in ("none", "host"):
            raise ValueError(f"network must be 'none' or 'host', got {spec.network!r}")
        _check_env(spec.env)
        meta = {
            "id": secrets.token_hex(8),
            "owner": self.owner,
            "labels": dict(spec.labels),
            "env": dict(spec.env),
            "network": spec.network,
            "sockets": dict(self._sockets),
            "created_at": time.time(),
            "ttl_s": spec.ttl_s,
        }
        try:
            await asyncio.to_thread(self._create, meta)
        except OSError as exc:
            raise ProviderUnavailable(f"local sandbox could not be created under {self.root}: {exc}") from exc
        return self._sandbox(meta)

    def _create(self, meta: dict[str, Any]) -> None:
        home = self.root / meta["id"]
        home.mkdir(parents=True, mode=0o700)
        tmp = home / f"{_META}.tmp"
        tmp.write_text(json.dumps(meta))
        tmp.chmod(0o600)
        tmp.replace(home / _META)
        (home / "workspace").mkdir(mode=0o755)
        (home / "bin").mkdir(mode=0o755)

    def _sandbox(self, meta: dict[str, Any]) -> Sandbox:
        return Sandbox(
            id=meta["id"],
            provider=self.name,
            workspace=WORKSPACE,
            labels=dict(meta["labels"]),
            private={"env": dict(meta["env"]), "network": meta["network"], "sockets": dict(meta.get("sockets", {}))},
        )

    def _home(self, sandbox: Sandbox) -> Path:
        if sandbox.provider != self.name or not _ID.fullmatch(sandbox.id):
            raise ValueError(f"sandbox {sandbox.id!r} was not created by a {self.name!r} provider")
        return self.root / sandbox.id

    async def exec(
        self,
        sandbox: Sandbox,
        argv: list[str],
        *,
        timeout_s: float,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        stdin: bytes | None = None,
    ) -> ExecResult:
        """Run one command in the sandbox; see ``Provider.exec``.

        ``cwd`` must be a folder inside the workspace (relative, or absolute under
        ``/workspace``), with or without bubblewrap.

        Raises:
            ValueError: ``argv`` is empty, ``timeout_s`` is not positive, or an env name is invalid.
            WorkspacePathError: ``cwd`` leaves the workspace or is not a folder.
            SandboxGone: The sandbox was destroyed.
            ProviderUnavailable: The command could not be started (bubblewrap failed, host error).
        """
        if not argv:
            raise ValueError("argv must name a program, e.g. ['ls', '-la']")
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")
        home = self._home(sandbox)
        variables = {**sandbox.private.get("env", {}), **(env or {})}
        _check_env(variables)
        rel_cwd = await asyncio.to_thread(_check_cwd, home / "workspace", cwd or ".", sandbox.workspace)

        status_r: int | None = None
        pass_fds: tuple[int, ...] = ()
        if self._bwrap is not None:
            status_r, status_w = os.pipe()
            pass_fds = (status_w,)
            network = sandbox.private.get("network", "host")
            sockets = sandbox.private.get("sockets", {})
            args = _bwrap_argv(
                self._bwrap, home, network, PurePosixPath(WORKSPACE, rel_cwd), variables, status_w, sockets
            )
            args += ["--", *argv]
            run_env: dict[str, str] = {}
            run_cwd: Path | None = None
        else:
            args = list(argv)
            run_cwd = home / "workspace" / rel_cwd
            run_env = {"PATH": f"{home / 'bin'}:{_BASE_PATH}", "HOME": str(home / "workspace"), "PWD": str(run_cwd)}
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
            if self._bwrap is None and isinstance(exc, FileNotFoundError | PermissionError):
                code = 127 if isinstance(exc, FileNotFoundError) else 126
                return ExecResult(code, b"", f"{argv[0]}: {exc.strerror}\n".encode(), False, 0.0)
            raise ProviderUnavailable(f"could not start {args[0]!r} for sandbox {sandbox.id}: {exc}") from exc
        finally:
            for fd in pass_fds:
                os.close(fd)

        self._running.setdefault(sandbox.id, set()).add(proc)
        try:
            stdout, stderr, timed_out = await _communicate(proc, stdin, timeout_s)
        finally:
            # Also after a normal exit: without bubblewrap, background children stay in the group.
            _kill(proc, always=True)
            running = self._running.get(sandbox.id, set())
            running.discard(proc)
            if not running:
                self._running.pop(sandbox.id, None)
            status = _read_status(status_r) if status_r is not None else {}
            if status_r is not None:
                os.close(status_r)
        duration = time.monotonic() - started

        returncode = proc.returncode if proc.returncode is not None else -signal.SIGKILL
        if timed_out:
            code = 124
        elif returncode < 0:
            code = 128 - returncode
        elif self._bwrap is None or "exit-code" in status:
            code = returncode
        else:
            code = self._bwrap_failure(sandbox, home, stderr)
        return ExecResult(code, stdout, stderr, timed_out, duration)

    def _bwrap_failure(self, sandbox: Sandbox, home: Path, stderr: bytes) -> int:
        """Exit code for a run where bubblewrap never reported the command's exit (it failed first)."""
        last = stderr.decode(errors="replace").strip().rsplit("\n", 1)[-1]
        if last.startswith("bwrap: execvp "):
            return 126 if "Permission denied" in last else 127
        if not (home / "workspace").is_dir():
            raise SandboxGone(f"local sandbox {sandbox.id} was destroyed")
        raise ProviderUnavailable(f"bubblewrap failed for sandbox {sandbox.id}: {last}")

    async def write_files(self, sandbox: Sandbox, files: dict[str, bytes], mode: int = 0o644) -> None:
        """Write files into the workspace; see ``Provider.write_files``.

        Symlinks on a path are followed only while they stay inside the workspace.

        Raises:
            WorkspacePathError: A path leaves the workspace, or a file/folder is in the way.
            SandboxGone: The sandbox was destroyed.
            ProviderUnavailable: A host I/O error.
        """
        home = self._home(sandbox)
        targets = [(path, workspace_path(path, sandbox.workspace), data) for path, data in files.items()]
        await asyncio.to_thread(self._write_all, sandbox, home / "workspace", targets, mode)

    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        """Install executables into the sandbox's command folder; see ``Provider.install_commands``.

        Raises:
            ValueError: A name is not a plain file name.
            SandboxGone: The sandbox was destroyed.
            ProviderUnavailable: A host I/O error.
        """
        home = self._home(sandbox)
        for name in files:
            if not name or name in (".", "..") or "/" in name or "\0" in name:
                raise ValueError(f"command name must be a plain file name such as 'mail', got {name!r}")
        targets = [(name, PurePosixPath(name), data) for name, data in files.items()]
        try:
            await asyncio.to_thread(self._write_all, sandbox, home / "bin", targets, 0o755)
        except WorkspacePathError as exc:
            raise ProviderUnavailable(f"could not install command in sandbox {sandbox.id}: {exc}") from exc

    def _write_all(
        self, sandbox: Sandbox, base: Path, targets: list[tuple[str, PurePosixPath, bytes]], mode: int
    ) -> None:
        for shown, rel, data in targets:
            _guard(sandbox, base, shown, _write, base, rel, data, mode, shown)

    async def read_file(self, sandbox: Sandbox, path: str, *, max_bytes: int | None = None) -> bytes:
        """Read one workspace file; see ``Provider.read_file``.

        The opened file's size (``fstat``) is checked against ``max_bytes`` before any read, and
        the read asks for at most ``max_bytes + 1`` bytes.

        Raises:
            ValueError: ``max_bytes`` is negative.
            FileMissing: Nothing is there, or it is a folder or a special file.
            FileTooLarge: The file holds more than ``max_bytes`` bytes.
            WorkspacePathError: The path or a symlink on it leads out of the workspace.
            SandboxGone: The sandbox was destroyed.
            ProviderUnavailable: A host I/O error.
        """
        if max_bytes is not None and max_bytes < 0:
            raise ValueError(f"max_bytes must be a number of bytes >= 0 or None, got {max_bytes!r}")
        home = self._home(sandbox)
        rel = workspace_path(path, sandbox.workspace)
        base = home / "workspace"
        result: bytes = await asyncio.to_thread(_guard, sandbox, base, path, _read, base, rel, path, max_bytes)
        return result

    async def destroy(self, sandbox: Sandbox) -> None:
        """Kill the sandbox's running commands and delete its folder; already gone counts as done.

        Raises:
            ProviderUnavailable: The folder could not be removed.
        """
        home = self._home(sandbox)
        for proc in self._running.pop(sandbox.id, set()):
            _kill(proc)
        try:
            await asyncio.to_thread(_remove_tree, home)
        except OSError as exc:
            raise ProviderUnavailable(f"could not remove local sandbox {sandbox.id}: {exc}") from exc

    async def list_owned(self) -> list[Sandbox]:
        """Every sandbox under ``root`` created for this provider's owner.

        Raises:
            ProviderUnavailable: ``root`` could not be listed.
        """
        try:
            metas = await asyncio.to_thread(self._scan)
        except OSError as exc:
            raise ProviderUnavailable(f"could not list local sandboxes under {self.root}: {exc}") from exc
        return [self._sandbox(meta) for meta in metas if meta.get("owner") == self.owner]

    def _scan(self) -> list[dict[str, Any]]:
        if not self.root.is_dir():
            return []
        metas = []
        for home in sorted(self.root.iterdir()):
            if not _ID.fullmatch(home.name):
                continue
            try:
                meta = json.loads((home / _META).read_text())
                if meta["id"] != home.name:
                    raise ValueError("id does not match its folder")
            except FileNotFoundError:
                continue
            except (OSError, ValueError, KeyError, TypeError) as exc:
                logger.warning("skipping local sandbox %s: unreadable %s: %s", home, _META, exc)
                continue
            metas.append(meta)
        return metas

    async def close(self) -> None:
        """Kill commands still running; sandbox folders are left for ``destroy``."""
        for procs in self._running.values():
            for proc in procs:
                _kill(proc)
        self._running.clear()


def _bwrap_argv(
    bwrap: str,
    home: Path,
    network: str,
    cwd: PurePosixPath,
    variables: dict[str, str],
    status_fd: int,
    sockets: dict[str, str] | None = None,
) -> list[str]:
    """The bubblewrap command line (without ``--`` and the command) for one sandbox's command."""
    args = [bwrap, "--ro-bind", "/usr", "/usr"]
    for name in _ROOT_DIRS:
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            args += ["--ro-bind", name, name]
    args += ["--dir", "/etc"]
    for name in _ETC:
        args += ["--ro-bind-try", name, name]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    args += ["--bind", str(home / "workspace"), WORKSPACE]
    args += ["--dir", "/opt", "--dir", "/opt/company", "--ro-bind", str(home / "bin"), COMMANDS_DIR]
    made: set[PurePosixPath] = set()
    for inside, host in sorted((sockets or {}).items()):
        parents = [p for p in reversed(PurePosixPath(inside).parents) if p != PurePosixPath("/") and p not in made]
        for parent in parents:
            args += ["--dir", str(parent)]
            made.add(parent)
        # Read-only: a command can connect to it, but not chmod or replace the host's socket.
        args += ["--ro-bind", host, inside]
    args += ["--chdir", str(cwd), "--unshare-all"]
    if network == "host":
        args.append("--share-net")
    args += ["--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv"]
    base = {"PATH": f"{COMMANDS_DIR}:{_BASE_PATH}", "HOME": WORKSPACE}
    for key, value in {**base, **variables}.items():
        args += ["--setenv", key, value]
    args += ["--json-status-fd", str(status_fd)]
    return args


def _check_env(variables: dict[str, str]) -> None:
    for key in variables:
        if not key or "=" in key or "\0" in key:
            raise ValueError(f"environment variable names must be non-empty without '=' or NUL, got {key!r}")


def _check_cwd(workspace: Path, cwd: str, inside: str) -> PurePosixPath:
    """The workspace-relative working folder, checked to be a folder that stays inside the workspace."""
    rel = workspace_path(cwd, inside)
    if not workspace.is_dir():
        raise SandboxGone(f"local sandbox workspace {workspace} is gone")
    real = (workspace / rel).resolve()
    if not real.is_relative_to(workspace.resolve()):
        raise WorkspacePathError(cwd, "the working folder leads out of the workspace through a symlink")
    if not real.is_dir():
        raise WorkspacePathError(cwd, "the working folder does not exist in the workspace")
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
            _kill(proc)
            # Output written before the kill is still in the pipes: drain it, bounded, in case
            # a stray process outside the group keeps a pipe open.
            _, pending = await asyncio.wait(pending, timeout=_KILL_GRACE_S)
            if pending:
                logger.warning("sandbox command pid %s: pipes still open %.0f s after kill", proc.pid, _KILL_GRACE_S)
    finally:
        for task in tasks:
            task.cancel()
    return bytes(out), bytes(err), timed_out


def _kill(proc: asyncio.subprocess.Process, *, always: bool = False) -> None:
    """SIGKILL a command's process group (its own session, so pgid == pid) if it still runs, or ``always``."""
    if always or proc.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


def _read_status(fd: int) -> dict[str, Any]:
    """Merge the JSON lines bubblewrap wrote to its status pipe (``child-pid``, then ``exit-code``)."""
    os.set_blocking(fd, False)
    data = b""
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(fd, _READ_CHUNK):
            data += chunk
    status: dict[str, Any] = {}
    for line in data.splitlines():
        with contextlib.suppress(ValueError):
            status.update(json.loads(line))
    return status


def _guard(sandbox: Sandbox, base: Path, shown: str, action: Callable[..., Any], *args: Any) -> Any:
    """Run ``action(*args)`` on files under ``base``, turning ``OSError`` into errors a caller can act on."""
    if not base.is_dir():
        raise SandboxGone(f"local sandbox {sandbox.id} is gone")
    try:
        return action(*args)
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            if not base.is_dir():
                raise SandboxGone(f"local sandbox {sandbox.id} is gone") from exc
            raise FileMissing(shown) from exc
        reason = {
            errno.EISDIR: "a folder is where the file should be",
            errno.ENOTDIR: "a file is where a folder should be",
            errno.ELOOP: "a symlink on the path leads out of the workspace",
            errno.ENAMETOOLONG: "a name on the path is too long",
            errno.EACCES: "permission denied",
            errno.EPERM: "permission denied",
        }.get(exc.errno or 0)
        if reason is None:
            raise ProviderUnavailable(f"I/O error in local sandbox {sandbox.id} at {shown!r}: {exc}") from exc
        raise WorkspacePathError(shown, reason) from exc


def _open_inside(base: Path, rel: PurePosixPath, flags: int, mode: int, shown: str, *, make_dirs: bool) -> int:
    """Open ``base/rel`` without ever leaving ``base``.

    Symlinks are resolved first and refused if they lead out; the resolved path is then
    opened one component at a time with ``O_NOFOLLOW``, so a symlink swapped in meanwhile
    fails (``ELOOP``) instead of being followed.
    """
    real_base = base.resolve(strict=True)
    try:
        target = (real_base / rel).resolve()
    except (RuntimeError, OSError) as exc:  # a symlink loop (RuntimeError before Python 3.13)
        raise WorkspacePathError(shown, "a symlink on the path loops") from exc
    if not target.is_relative_to(real_base):
        raise WorkspacePathError(shown, "a symlink on the path leads out of the workspace")
    parts = target.relative_to(real_base).parts
    if not parts:
        raise IsADirectoryError(errno.EISDIR, "the workspace itself")
    fd = os.open(real_base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            if make_dirs:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = child
        # O_NONBLOCK: opening a FIFO must not hang; regular files ignore it.
        return os.open(parts[-1], flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, mode, dir_fd=fd)
    finally:
        os.close(fd)


def _read(base: Path, rel: PurePosixPath, shown: str, max_bytes: int | None) -> bytes:
    """The file's content; over ``max_bytes`` (by ``fstat``, or by a read of ``max_bytes + 1``) is ``FileTooLarge``."""
    try:
        fd = _open_inside(base, rel, os.O_RDONLY, 0, shown, make_dirs=False)
    except IsADirectoryError as exc:
        raise FileMissing(shown) from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise FileMissing(shown)
    with os.fdopen(fd, "rb") as file:
        if max_bytes is None:
            return file.read()
        if info.st_size > max_bytes:
            raise FileTooLarge(shown, info.st_size, max_bytes)
        data = file.read(max_bytes + 1)  # the file may have grown since the fstat
        if len(data) > max_bytes:
            raise FileTooLarge(shown, max(len(data), os.fstat(fd).st_size), max_bytes)
        return data


def _write(base: Path, rel: PurePosixPath, data: bytes, mode: int, shown: str) -> None:
    try:
        fd = _open_inside(base, rel, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode, shown, make_dirs=True)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise WorkspacePathError(shown, "something other than a file is at this path") from exc
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise WorkspacePathError(shown, "something other than a file is at this path")
    with os.fdopen(fd, "wb") as file:
        os.fchmod(file.fileno(), mode)
        file.write(data)


def _remove_tree(home: Path) -> None:
    """Delete a sandbox folder of any depth; if a command made folders unreadable, reopen them and retry.

    coreutils ``rm -rf`` walks iteratively (a command can nest folders deeper than Python's recursion
    limit, which ``shutil.rmtree`` and ``os.walk`` hit), never follows symlinks, and with
    ``--one-file-system`` never leaves the sandbox's file system.

    Raises:
        OSError: the folder is still there after both tries.
    """
    if not os.path.lexists(home):
        return
    if _rm_rf(home) is None:
        return
    subprocess.run(["chmod", "-R", "u+rwx", "--", str(home)], capture_output=True, check=False)
    error = _rm_rf(home)
    if error is not None:
        raise OSError(f"could not remove {home}: {error}")


def _rm_rf(home: Path) -> str | None:
    """``rm -rf`` ``home``; None when it is gone, else rm's complaint."""
    done = subprocess.run(
        ["rm", "-rf", "--one-file-system", "--", str(home)], capture_output=True, text=True, check=False
    )
    if not os.path.lexists(home):
        return None
    return done.stderr.strip() or f"rm exited with {done.returncode}"
