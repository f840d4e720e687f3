"""The provider interface: what a sandbox is, how it runs commands, and how its workspace is addressed.

A provider lends sandboxes: a workspace folder plus a place to run shell
commands. It knows no session and no app; callers label what they create and
find it again with ``list_owned``.
"""

from __future__ import annotations

import abc
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from types import TracebackType
from typing import Any, ClassVar, Literal

from sandbox.exceptions import WorkspacePathError

__all__ = [
    "COMMANDS_DIR", "TOOLS_DIR", "WORKSPACE", "ExecResult", "Provider", "Sandbox", "SandboxSpec", "workspace_path",
]  # fmt: skip

WORKSPACE = "/workspace"
"""Where the workspace is mounted inside a sandbox."""

COMMANDS_DIR = "/opt/company/bin"
"""Where ``Provider.install_commands`` puts executables inside a sandbox; first on every command's ``PATH``."""

TOOLS_DIR = "/opt/tools"
"""Where a sandbox finds tools beyond its system's (the local provider's ``tools``, bound read-only; an image's
own, e.g. ``examples/images/build-local.sh``'s); its ``bin`` comes second on ``PATH``, after
:data:`COMMANDS_DIR`. E.g. a Python venv whose ``python3`` imports openpyxl, python-docx and pypdf."""


@dataclass(frozen=True)
class SandboxSpec:
    """What to create.

    Attributes:
        labels: Free-form ``{key: value}`` tags stored with the sandbox (owner, session, expiry);
            ``list_owned`` returns them.
        env: Variables every command sees, e.g. ``{"COMPANY_API_URL": "http://127.0.0.1:8000/api"}``.
        image: Container image for container providers; ``None`` means the provider's default.
            The local provider ignores it.
        network: ``"host"`` keeps the host's network (the sandbox must reach the caller on
            loopback); ``"none"`` leaves only a loopback interface of its own (sockets named with
            ``Provider.bind_socket`` still reach the host).
        memory_mb: Memory limit in MiB, or ``None`` for none.
        cpus: CPU limit in cores (may be fractional), or ``None`` for none.
        pids: Limit on the number of processes, or ``None`` for none.
        ttl_s: Lifetime in seconds after which the provider may reap the sandbox, or ``None``.
        disk_bytes: Most bytes the sandbox's own commands may write, where the provider can bound it
            (local under bubblewrap: the size of ``/tmp``, not the workspace, a host folder; docker: a sized
            tmpfs workspace; opensandbox: the ``ephemeral-storage`` resource limit), or ``None`` for none.
    """

    labels: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    image: str | None = None
    network: Literal["none", "host"] = "host"
    memory_mb: int | None = None
    cpus: float | None = None
    pids: int | None = None
    ttl_s: float | None = None
    disk_bytes: int | None = None


@dataclass(frozen=True)
class Sandbox:
    """A handle on one sandbox, as returned by ``Provider.create`` and ``Provider.list_owned``.

    Attributes:
        id: The provider's id for it (a container id, a folder name).
        provider: The provider's name, e.g. ``"local"``.
        workspace: The workspace path as commands inside the sandbox see it, e.g. ``"/workspace"``.
        labels: The labels it was created with.
        private: Provider-private data; callers must not rely on its content.
    """

    id: str
    provider: str
    workspace: str = WORKSPACE
    labels: dict[str, str] = field(default_factory=dict)
    private: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class ExecResult:
    """The outcome of one command.

    Attributes:
        exit_code: The command's exit status; ``128 + n`` when killed by signal ``n``,
            ``124`` when it timed out, ``127`` when the command was not found.
        stdout: Everything it wrote to standard output (bytes, possibly partial on timeout).
        stderr: Everything it wrote to standard error.
        timed_out: Whether it was killed for running past its timeout.
        duration_s: Wall-clock seconds from start to exit.
    """

    exit_code: int
    stdout: bytes
    stderr: bytes
    timed_out: bool = False
    duration_s: float = 0.0


#: Most folder levels a workspace path may have (file included): deep enough for any real layout, far
#: below the depths that break tools which walk a tree recursively (Python's default limit is 1,000).
MAX_PATH_DEPTH = 32


#: Control and text-direction characters: a name holding one shows as something else (``report\u202etxt.exe``).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def workspace_path(path: str, workspace: str = WORKSPACE) -> PurePosixPath:
    """Normalise a caller-given path to one relative to the workspace.

    Relative paths are taken from the workspace; absolute ones must lie inside
    it. ``.`` and empty components are dropped and ``..`` is resolved
    lexically (symlinks are the provider's concern, at the time of access).

    Examples: ``"notes/a.txt"``, ``"./notes//a.txt"`` and ``"/workspace/notes/a.txt"``
    all give ``PurePosixPath("notes/a.txt")``; ``"/workspace"`` gives ``PurePosixPath(".")``.

    Args:
        path: The path as the caller wrote it.
        workspace: The absolute workspace path inside the sandbox.

    Returns:
        The path relative to the workspace, without ``.`` or ``..`` components.

    Raises:
        WorkspacePathError: The path is empty, holds a NUL byte or a control character, climbs above the
            workspace with ``..``, is absolute and outside the workspace, or has more than
            :data:`MAX_PATH_DEPTH` levels.
    """
    if not path:
        raise WorkspacePathError(path, "the path is empty; give a file path inside the workspace")
    if "\0" in path:
        raise WorkspacePathError(path, "the path contains a NUL byte")
    if unprintable := _UNPRINTABLE.search(path):
        raise WorkspacePathError(path, f"the path contains a control character (U+{ord(unprintable.group()):04X})")
    root = PurePosixPath(workspace).parts[1:]
    absolute = path.startswith("/")
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part != "..":
            parts.append(part)
        elif parts:
            parts.pop()
        elif not absolute:
            raise WorkspacePathError(path, f"the path leaves the workspace; use a path inside {workspace}")
        # An absolute path's ".." at "/" stays at "/", as the kernel does.
    if absolute:
        if tuple(parts[: len(root)]) != root:
            raise WorkspacePathError(path, f"the path is outside the workspace; use a path inside {workspace}")
        parts = parts[len(root) :]
    if len(parts) > MAX_PATH_DEPTH:
        raise WorkspacePathError(path, f"the path is {len(parts)} levels deep; use at most {MAX_PATH_DEPTH}")
    return PurePosixPath(*parts)


class Provider(abc.ABC):
    """Lends sandboxes. One instance serves many sandboxes; every method is safe on the event loop.

    Errors: every method may raise ``ProviderUnavailable`` (the provider failed)
    and, given a sandbox that no longer exists, ``SandboxGone``.
    """

    name: ClassVar[str]
    supports_egress_policy: ClassVar[bool] = False
    """Whether the provider can limit a sandbox's outbound traffic to named hosts (``block_internet``)."""

    @abc.abstractmethod
    async def create(self, spec: SandboxSpec) -> Sandbox:
        """Create a sandbox with an empty workspace.

        Raises:
            ProviderUnavailable: The provider could not create it.
        """

    @abc.abstractmethod
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
        """Run one command (no shell: use ``["sh", "-c", "..."]`` for one) and wait for it.

        Args:
            sandbox: Where to run it.
            argv: The program and its arguments; must not be empty.
            timeout_s: Seconds before the command is killed (``ExecResult.timed_out``).
            cwd: Working folder inside the workspace (relative, or absolute under it); default the workspace.
            env: Variables added to the sandbox's own for this command.
            stdin: Bytes fed to standard input; ``None`` gives an empty input.

        Returns:
            The exit code, the captured output and whether it timed out.

        Raises:
            ValueError: ``argv`` is empty or ``timeout_s`` is not positive.
            WorkspacePathError: ``cwd`` leaves the workspace or is not a folder.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The provider could not start the command.
        """

    @abc.abstractmethod
    async def write_files(self, sandbox: Sandbox, files: dict[str, bytes], mode: int = 0o644) -> None:
        """Write files into the workspace, creating parent folders; existing files are replaced.

        Files are written one after another; on error, those before it stay written.

        Args:
            sandbox: Whose workspace.
            files: ``{path: content}``; paths as accepted by ``workspace_path``.
            mode: Permission bits for every file written.

        Raises:
            WorkspacePathError: A path leaves the workspace, or a file/folder is in the way.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The write failed for another reason.
        """

    @abc.abstractmethod
    async def read_file(self, sandbox: Sandbox, path: str, *, max_bytes: int | None = None) -> bytes:
        """Read one file from the workspace.

        Args:
            sandbox: Whose workspace.
            path: As accepted by ``workspace_path``.
            max_bytes: The largest file accepted, in bytes; ``None`` for no limit. The size is checked
                before the content is read, and at most ``max_bytes + 1`` bytes of content are ever
                held, so a file that grows meanwhile is refused too.

        Returns:
            The file's content (at most ``max_bytes`` bytes).

        Raises:
            ValueError: ``max_bytes`` is negative.
            FileMissing: The path holds no regular file.
            FileTooLarge: The file holds more than ``max_bytes`` bytes.
            WorkspacePathError: The path (or a symlink on it) leads out of the workspace.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The read failed for another reason.
        """

    @abc.abstractmethod
    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        """Install executables (mode 0o755) into the sandbox's command folder, first on its ``PATH``.

        Args:
            sandbox: Where to install them.
            files: ``{command name: content}``; names are plain file names, e.g. ``"mail"``.

        Raises:
            ValueError: A name is not a plain file name.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The write failed.
        """

    @abc.abstractmethod
    async def destroy(self, sandbox: Sandbox) -> None:
        """Stop everything running in the sandbox and delete it; a sandbox already gone counts as done.

        Raises:
            ProviderUnavailable: It could not be removed.
        """

    @abc.abstractmethod
    async def list_owned(self) -> list[Sandbox]:
        """Every sandbox this provider's owner created and has not destroyed (to reap after a crash).

        Raises:
            ProviderUnavailable: The provider could not list them.
        """

    async def workspace_bytes(self, sandbox: Sandbox, stop_at: int | None = None) -> int:
        """Bytes the files in the sandbox's workspace take on disk (``du -sk`` in it, in KiB steps).

        Providers that see the workspace from the host count it there instead, and may stop counting once past
        ``stop_at`` bytes (the answer is then at least that much) or at too many entries (``TooManyEntries``).

        Raises:
            SandboxGone: The sandbox was destroyed.
            ProviderUnavailable: The count could not be made.
        """
        from sandbox.exceptions import ProviderUnavailable

        result = await self.exec(sandbox, ["du", "-sk", "."], timeout_s=30)
        try:
            return int(result.stdout.split()[0]) * 1024
        except (IndexError, ValueError):
            raise ProviderUnavailable(
                f"could not count the workspace of sandbox {sandbox.id}: du exited {result.exit_code}: "
                f"{result.stderr[:200].decode(errors='replace')}"
            ) from None

    @property
    def supports_socket_binds(self) -> bool:
        """Whether :meth:`bind_socket` works: this provider can bind a host unix socket into its sandboxes."""
        return False

    @property
    def socket_binds(self) -> dict[str, str]:
        """The host unix sockets bound into every sandbox created from now on: ``{path inside: host path}``."""
        return {}

    def bind_socket(self, inside: str, host: str | None) -> None:
        """Bind the host unix socket at ``host`` into every sandbox created from now on, at ``inside``.

        A sandbox talks to a server on the host through it without any network of its own
        (``SandboxSpec(network="none")``). ``host=None`` stops binding ``inside`` into new
        sandboxes; sandboxes already created keep the sockets they were created with.

        Args:
            inside: Absolute path inside the sandbox, e.g. ``"/run/company/api.sock"``.
            host: Path of a listening unix socket on the host, or None.

        Raises:
            ValueError: The provider cannot bind sockets (``supports_socket_binds`` is False), or
                ``inside`` is not a path it accepts.
        """
        raise ValueError(f"the {self.name!r} provider cannot bind host unix sockets into its sandboxes")

    async def close(self) -> None:  # noqa: B027 - optional hook, deliberately not abstract
        """Release the provider's own resources; sandboxes themselves are left alone."""

    async def __aenter__(self) -> Provider:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
