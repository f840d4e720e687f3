"""The ``DockerProvider`` class: sandboxes as containers, each concern in a module beside it.

``_engine`` holds the SDK client and maps its errors, ``_labels`` the container labels (owner,
spec labels, creation and expiry), ``_exec`` runs commands and ``_files`` moves archives in and out.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import stat
import time
from collections.abc import Sequence
from pathlib import Path

import docker
import docker.errors

from sandbox.base import COMMANDS_DIR, TOOLS_DIR, WORKSPACE, ExecResult, Provider, Sandbox, SandboxSpec, workspace_path
from sandbox.checks import (
    check_command_names,
    check_env,
    check_exec,
    check_max_bytes,
    check_network,
    check_sandbox,
    check_socket_inside,
)
from sandbox.docker import _exec, _files
from sandbox.docker._engine import Engine
from sandbox.docker._labels import OWNER_LABEL, check_labels, container_labels, owned_sandboxes
from sandbox.exceptions import ProviderUnavailable, SandboxGone

__all__ = ["DEFAULT_IMAGE", "DockerProvider"]

DEFAULT_IMAGE = "localhost/company-sandbox:latest"
"""The image ``examples/images/build-local.sh`` builds (busybox, no registry needed)."""

_KEEPALIVE = ["sleep", "2147483647"]  # the largest value busybox and coreutils sleep both take
_BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
_ID = re.compile(r"[0-9a-f]{12,64}")


class DockerProvider(Provider):
    """Sandboxes as containers on a Docker Engine API (Docker, or podman's compatible socket).

    Args:
        owner: Who this provider creates sandboxes for; stored in the ``company-gateway.owner``
            label, and ``list_owned``/``reap`` see only theirs.
        client: A ready ``docker.DockerClient``; the provider then neither configures nor closes it.
        base_url: The engine's address, e.g. ``"unix:///tmp/company-gateway-podman.sock"``; with
            neither ``client`` nor ``base_url``, ``DOCKER_HOST`` and the other ``DOCKER_*`` variables decide.
        image: The image used when a spec names none.
        host_binds: Bind mounts added to every container, in Docker's ``"SRC:DST[:ro]"`` form, e.g.
            ``["/usr:/usr:ro", "/lib:/lib:ro", "/lib64:/lib64:ro"]`` to lend the host's python3 and curl
            to a busybox image (tests do this; production images should carry their own tools).
        max_concurrency: Engine calls in flight at once (a running command holds one for its whole
            run); also the size of the HTTP connection pool and of the provider's thread pool.
        api_timeout_s: Seconds before an ordinary engine call (create, archive, remove) fails.
        exec_timeout_grace_s: Seconds past a command's own timeout before the gateway stops waiting
            for the engine and kills the command itself.
        api_version: The Engine API version spoken; ``None`` asks the engine first (podman takes ~0.9 s
            to answer ``/version``). The default, 1.44, is served by Docker 25 and later; podman
            accepts any. Pass ``None`` for an older Docker.

    Nothing is contacted until the first call; an unreachable engine raises ``ProviderUnavailable`` then.

    Raises:
        ValueError: Both ``client`` and ``base_url`` are given, or a number is not positive.
    """

    name = "docker"

    def __init__(
        self,
        owner: str,
        *,
        client: docker.DockerClient | None = None,
        base_url: str | None = None,
        image: str = DEFAULT_IMAGE,
        host_binds: Sequence[str] = (),
        max_concurrency: int = 64,
        api_timeout_s: float = 60.0,
        exec_timeout_grace_s: float = 10.0,
        api_version: str | None = "1.44",
    ) -> None:
        if client is not None and base_url is not None:
            raise ValueError("give either client or base_url, not both")
        if max_concurrency < 1 or api_timeout_s <= 0 or exec_timeout_grace_s <= 0:
            raise ValueError("max_concurrency, api_timeout_s and exec_timeout_grace_s must be positive")
        self.owner = owner
        self.image = image
        self.host_binds = list(host_binds)
        self.exec_timeout_grace_s = exec_timeout_grace_s
        self._engine = Engine(client, base_url, max_concurrency, api_timeout_s, api_version)
        self._sockets: dict[str, str] = {}

    # --- host sockets ----------------------------------------------------------------------------

    @property
    def engine_is_local(self) -> bool:
        """Whether the engine is reached over a unix socket, hence runs on this host (no engine call).

        The address is ``base_url``, else ``DOCKER_HOST``, else Docker's default ``/var/run/docker.sock``;
        with a given ``client``, whether it speaks over a unix socket. A unix socket forwarded from
        another machine (or an engine in a VM, as Docker Desktop runs it) looks local too: there, use
        ``sandbox_network="host"`` or an engine on this host.
        """
        return self._engine.is_local

    @property
    def supports_socket_binds(self) -> bool:
        """Whether :meth:`bind_socket` works: only with an engine on this host (a unix-socket address)."""
        return self.engine_is_local

    @property
    def socket_binds(self) -> dict[str, str]:
        """The host unix sockets bound into every container created from now on: ``{path inside: host path}``."""
        return dict(self._sockets)

    def bind_socket(self, inside: str, host: str | None) -> None:
        """Bind a host unix socket, read-only, into every container created from now on; see ``Provider.bind_socket``.

        Only the socket file is bound (the container never sees, nor needs to enter, its folder). So that
        the container's user can connect whatever its uid (an image's non-root ``USER``, uids remapped by
        a rootless engine or ``userns-remap``), the socket's mode becomes ``0666``; its folder must be
        private (owned by this process's user, no group or other permissions), so on the host only that
        user (and root) can still reach it. Connecting through a read-only bind works; the container
        cannot chmod, replace or remove it.

        Raises:
            ValueError: The engine is not on this host (``supports_socket_binds`` is False), ``inside`` is
                not a normalised absolute path under ``/run`` such as ``/run/company/api.sock``, or
                ``host`` is not an absolute path to a unix socket in a private folder.
        """
        if not self.supports_socket_binds:
            raise ValueError(
                "the docker provider binds host sockets only when the engine runs on this host (a unix-socket "
                "DOCKER_HOST or base_url); a remote engine cannot see this host's paths"
            )
        check_socket_inside(inside)
        if host is None:
            self._sockets.pop(inside, None)
            return
        source = Path(host)
        if not source.is_absolute() or ":" in host or "," in host:
            raise ValueError(f"host must be an absolute path without ':' or ',' (a bind's source); got {host!r}")
        try:
            is_socket = stat.S_ISSOCK(source.lstat().st_mode)
        except OSError:
            is_socket = False
        if not is_socket:
            raise ValueError(f"host must be a unix socket; {host!r} is not")
        folder = source.parent.stat()
        if folder.st_uid != os.geteuid() or stat.S_IMODE(folder.st_mode) & 0o077:
            raise ValueError(
                f"the socket's folder {str(source.parent)!r} must be private (owned by this user, mode 0700): "
                "the socket is made connectable by any uid for the containers' sake"
            )
        source.chmod(0o666)
        self._sockets[inside] = host

    # --- lifecycle -------------------------------------------------------------------------------

    async def create(self, spec: SandboxSpec) -> Sandbox:
        """Create and start a container with an empty workspace; see ``Provider.create``.

        Raises:
            ValueError: ``spec.network`` is neither ``"none"`` nor ``"host"``, an env name is invalid,
                or a label key is one the provider keeps for itself (``company-gateway.*``).
            ProviderUnavailable: The engine refused or could not be reached (e.g. the image is missing:
                build it with ``examples/images/build-local.sh``).
        """
        check_network(spec.network)
        check_env(spec.env)
        check_labels(spec.labels)
        labels = container_labels(spec, self.owner, time.time())
        env = {"PATH": f"{COMMANDS_DIR}:{TOOLS_DIR}/bin:{_BASE_PATH}", "HOME": WORKSPACE, **spec.env}
        sockets = dict(self._sockets)
        api = await self._engine.api()
        host_config = api.create_host_config(
            init=True,
            network_mode=spec.network,
            binds=[*self.host_binds, *(f"{host}:{inside}:ro" for inside, host in sorted(sockets.items()))] or None,
            mem_limit=f"{spec.memory_mb}m" if spec.memory_mb is not None else None,
            nano_cpus=round(spec.cpus * 1e9) if spec.cpus is not None else None,
            pids_limit=spec.pids,
            security_opt=["no-new-privileges"],
            # The engine's own disk bound (storage_opt size) needs overlay on XFS with project quotas, which
            # podman and most hosts lack; a sized tmpfs holds the workspace (in the engine's memory) instead.
            tmpfs={WORKSPACE: f"rw,exec,size={spec.disk_bytes},mode=1777"} if spec.disk_bytes else None,
        )
        image = spec.image or self.image
        created = await self._engine.call(
            functools.partial(
                api.create_container,
                image,
                command=_KEEPALIVE[1:],
                entrypoint=_KEEPALIVE[:1],
                environment=env,
                labels=labels,
                working_dir=WORKSPACE,
                host_config=host_config,
            ),
            what=f"create a container from {image!r}",
        )
        container = created["Id"]
        try:
            await self._engine.call(api.start, container, what="start the container")
        except BaseException:
            with contextlib.suppress(ProviderUnavailable):
                await self._engine.call(functools.partial(api.remove_container, container, force=True), what="remove")
            raise
        return Sandbox(
            id=container,
            provider=self.name,
            workspace=WORKSPACE,
            labels=dict(spec.labels),
            private={"image": image, "network": spec.network, "sockets": sockets},
        )

    async def destroy(self, sandbox: Sandbox) -> None:
        """Remove the container (``force=True`` kills what runs in it); already gone counts as done.

        Raises:
            ProviderUnavailable: The engine could not remove it.
        """
        check_sandbox(sandbox, self.name, _ID)
        container = sandbox.id
        api = await self._engine.api()
        try:
            await self._engine.call(
                functools.partial(api.remove_container, container, force=True, v=True),
                what=f"remove container {container[:12]}",
                sandbox=sandbox,
            )
        except SandboxGone as exc:
            if "already in progress" not in str(exc) and not isinstance(exc.__cause__, docker.errors.NotFound):
                raise ProviderUnavailable(str(exc)) from exc

    async def list_owned(self) -> list[Sandbox]:
        """Every container (running or not) labelled with this provider's owner.

        Returns:
            One ``Sandbox`` each, with the labels its spec gave; ``private`` holds ``created_at``
            and ``expires_at`` (Unix seconds, ``None`` without a ``ttl_s``).

        Raises:
            ProviderUnavailable: The engine could not list them.
        """
        api = await self._engine.api()
        found = await self._engine.call(
            functools.partial(api.containers, all=True, filters={"label": f"{OWNER_LABEL}={self.owner}"}),
            what="list containers",
        )
        return owned_sandboxes(found, self.owner, self.name)

    async def reap(self, older_than_s: float = 0.0) -> list[str]:
        """Destroy this owner's containers created at least ``older_than_s`` seconds ago.

        Call it at start-up with the default ``0`` to remove everything a crashed gateway left
        (every container under this owner), or periodically with a session's lifetime.

        Args:
            older_than_s: Minimum age in seconds; containers without a creation label count as old.

        Returns:
            The ids of the containers removed.

        Raises:
            ProviderUnavailable: Listing or a removal failed.
        """
        cutoff = time.time() - older_than_s
        victims = [sb for sb in await self.list_owned() if (sb.private.get("created_at") or float("-inf")) <= cutoff]
        await asyncio.gather(*(self.destroy(sb) for sb in victims))
        return [sb.id for sb in victims]

    async def close(self) -> None:
        """Close the HTTP connections (unless the client was given) and the thread pool; containers stay."""
        self._engine.close()

    # --- exec ------------------------------------------------------------------------------------

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
        """Run one command in the container; see ``Provider.exec``.

        The command is killed with its whole process group at ``timeout_s`` (exit code 124);
        processes it leaves in the background are killed when it exits. A command still
        running when the sandbox is destroyed ends with exit code 137.

        Raises:
            ValueError: ``argv`` is empty, ``timeout_s`` is not positive, or an env name is invalid.
            WorkspacePathError: ``cwd`` leaves the workspace or is not a folder.
            SandboxGone: The container no longer exists or is not running.
            ProviderUnavailable: The engine could not run it.
        """
        check_exec(argv, timeout_s)
        check_env(env or {})
        check_sandbox(sandbox, self.name, _ID)
        return await _exec.run_command(
            self._engine, sandbox, argv,
            timeout_s=timeout_s, grace_s=self.exec_timeout_grace_s, cwd=cwd, env=env, stdin=stdin,
        )  # fmt: skip

    # --- files -----------------------------------------------------------------------------------

    async def read_file(self, sandbox: Sandbox, path: str, *, max_bytes: int | None = None) -> bytes:
        """Read one workspace file through ``get_archive``; see ``Provider.read_file``.

        With ``max_bytes``, the size in the archive response's stat header
        (``X-Docker-Container-Path-Stat``) is checked before the archive is streamed, and the
        stream is cut off once it runs past ``max_bytes`` plus the tar format's own overhead.

        Raises:
            ValueError: ``max_bytes`` is negative.
            FileMissing: Nothing is there, or it is a folder or a special file.
            FileTooLarge: The file holds more than ``max_bytes`` bytes.
            WorkspacePathError: The path or a symlink on it leads out of the workspace, or a file
                stands where a folder should be.
            SandboxGone: The container no longer exists or is not running.
            ProviderUnavailable: The engine failed.
        """
        check_max_bytes(max_bytes)
        rel = workspace_path(path, sandbox.workspace)
        check_sandbox(sandbox, self.name, _ID)
        return await _files.read_file(self._engine, sandbox, path, rel, max_bytes)

    async def write_files(self, sandbox: Sandbox, files: dict[str, bytes], mode: int = 0o644) -> None:
        """Write files into the workspace with one ``put_archive``; see ``Provider.write_files``.

        Paths are resolved in the container first; missing parent folders go into the archive
        (Docker refuses an archive whose target folder is missing). A path refused stops the
        batch there, after the files before it were written.

        Raises:
            WorkspacePathError: A path leaves the workspace (also through a symlink), or a file/folder is in the way.
            SandboxGone: The container no longer exists or is not running.
            ProviderUnavailable: The engine failed.
        """
        check_sandbox(sandbox, self.name, _ID)
        targets = [(shown, workspace_path(shown, sandbox.workspace), data) for shown, data in files.items()]
        await _files.write_files(self._engine, sandbox, targets, mode)

    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        """Install executables into ``/opt/company/bin`` (first on ``PATH``); see ``Provider.install_commands``.

        Raises:
            ValueError: A name is not a plain file name.
            SandboxGone: The container no longer exists or is not running.
            ProviderUnavailable: The engine failed.
        """
        check_sandbox(sandbox, self.name, _ID)
        check_command_names(files)
        await _files.install_commands(self._engine, sandbox, files)
