"""The ``LocalProvider`` class: sandbox folders under ``root``; commands in ``_exec``, file access in ``_files``."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import shutil
import time
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from sandbox.base import WORKSPACE, ExecResult, Provider, Sandbox, SandboxSpec, workspace_path
from sandbox.checks import (
    check_command_names,
    check_env,
    check_exec,
    check_max_bytes,
    check_network,
    check_sandbox,
    check_socket_inside,
)
from sandbox.exceptions import ProviderUnavailable, WorkspacePathError
from sandbox.local import _bwrap, _exec, _files

__all__ = ["LocalProvider"]

logger = logging.getLogger(__name__)

_META = "sandbox.json"
_ID = re.compile(r"[0-9a-f]{16}")


class LocalProvider(Provider):
    """Sandboxes as folders under ``root``, commands under bubblewrap when it is installed.

    Args:
        root: Host folder holding one sub-folder per sandbox; created if missing.
        owner: Who this provider creates sandboxes for; ``list_owned`` returns only theirs.
        use_bwrap: ``True`` requires bubblewrap, ``False`` never uses it, ``None`` uses it when
            ``bwrap`` is on the host's PATH.
        hidden: Host paths commands must not see even where a bound tree (``/usr``, ``/etc``) holds
            them, e.g. the files of a package installed under ``/usr``: not even listed.
        tools: A host folder of tools lent to every command: shown read-only at ``/opt/tools``
            (:data:`~sandbox.base.TOOLS_DIR`) under bubblewrap, its ``bin`` on ``PATH`` after the app commands
            (without bubblewrap, the host folder's ``bin``). E.g. a Python venv built on ``/usr/bin/python3``
            with document libraries; None lends nothing.

    Raises:
        ProviderUnavailable: ``use_bwrap=True`` and ``bwrap`` is not installed.
    """

    name = "local"

    def __init__(
        self,
        root: Path,
        owner: str,
        use_bwrap: bool | None = None,
        hidden: Sequence[str | Path] = (),
        tools: Path | None = None,
    ) -> None:
        self.root = Path(root)
        self.tools = Path(tools) if tools is not None else None
        self.owner = owner
        self._hidden = tuple(str(path) for path in hidden)
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
        check_socket_inside(inside)
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
        check_network(spec.network)
        check_env(spec.env)
        meta = {
            "id": secrets.token_hex(8),
            "owner": self.owner,
            "labels": dict(spec.labels),
            "env": dict(spec.env),
            "network": spec.network,
            "sockets": dict(self._sockets),
            "created_at": time.time(),
            "ttl_s": spec.ttl_s,
            "disk_bytes": spec.disk_bytes,
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
            private={
                "env": dict(meta["env"]), "network": meta["network"], "sockets": dict(meta.get("sockets", {})),
                **({"disk_bytes": meta["disk_bytes"]} if meta.get("disk_bytes") else {}),
            },  # fmt: skip
        )

    def _home(self, sandbox: Sandbox) -> Path:
        check_sandbox(sandbox, self.name, _ID)
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
        check_exec(argv, timeout_s)
        home = self._home(sandbox)
        variables = {**sandbox.private.get("env", {}), **(env or {})}
        check_env(variables)
        disk = sandbox.private.get("disk_bytes")
        tmp_bytes = disk if disk and self._bwrap and _bwrap.supports_size(self._bwrap) else None
        return await _exec.run_command(
            self._bwrap, home, sandbox, argv, variables,
            timeout_s=timeout_s, cwd=cwd, stdin=stdin, running=self._running, hidden=self._hidden, tmp_bytes=tmp_bytes,
            tools=self.tools,
        )  # fmt: skip

    async def workspace_bytes(self, sandbox: Sandbox, stop_at: int | None = None) -> int:
        """Bytes the workspace's files take on the host's disk (allocated blocks, as ``du``; links not followed).

        Args:
            stop_at: The count may stop once past this many bytes (see :func:`sandbox.local._files.disk_usage`).

        Raises:
            TooManyEntries: The workspace holds more than :data:`sandbox.local._files.MAX_ENTRIES` entries.
            SandboxGone: The sandbox was destroyed.
            ProviderUnavailable: A host I/O error.
        """
        home = self._home(sandbox)
        base = home / "workspace"
        size: int = await asyncio.to_thread(_files.guard, sandbox, base, ".", _files.disk_usage, base, stop_at)
        return size

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
        check_command_names(files)
        targets = [(name, PurePosixPath(name), data) for name, data in files.items()]
        try:
            await asyncio.to_thread(self._write_all, sandbox, home / "bin", targets, 0o755)
        except WorkspacePathError as exc:
            raise ProviderUnavailable(f"could not install command in sandbox {sandbox.id}: {exc}") from exc

    def _write_all(
        self, sandbox: Sandbox, base: Path, targets: list[tuple[str, PurePosixPath, bytes]], mode: int
    ) -> None:
        for shown, rel, data in targets:
            _files.guard(sandbox, base, shown, _files.write, base, rel, data, mode, shown)

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
        check_max_bytes(max_bytes)
        home = self._home(sandbox)
        rel = workspace_path(path, sandbox.workspace)
        base = home / "workspace"
        result: bytes = await asyncio.to_thread(
            _files.guard, sandbox, base, path, _files.read, base, rel, path, max_bytes
        )
        return result

    async def destroy(self, sandbox: Sandbox) -> None:
        """Kill the sandbox's running commands and delete its folder; already gone counts as done.

        Raises:
            ProviderUnavailable: The folder could not be removed.
        """
        home = self._home(sandbox)
        for proc in self._running.pop(sandbox.id, set()):
            _exec.kill(proc)
        try:
            await asyncio.to_thread(_files.remove_tree, home)
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
                _exec.kill(proc)
        self._running.clear()
