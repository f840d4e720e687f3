"""The docker provider: one container per sandbox, through the ``docker`` SDK against any Docker Engine API.

Works against Docker itself and against podman's Docker-compatible socket
(``scripts/podman-socket.sh``; see ``examples/images/build-local.sh`` for an
image built without a registry). Each sandbox is a container that sleeps
forever under a small init (``init=True``), with:

* the workspace at ``/workspace`` (its working folder, ``HOME``), kept in the container's own layer;
* the app commands in ``/opt/company/bin``, first on ``PATH``;
* the spec's env, memory/CPU/pids limits, and labels (plus ``company-gateway.owner`` and
  creation and expiry times, so a restarted gateway finds what a crash left: ``list_owned``, ``reap``);
* ``network="none"``: only a loopback interface of its own; ``network="host"``: the host's network
  namespace, so a command reaches the gateway on ``127.0.0.1`` (and sees every host interface);
* the host unix sockets named with ``bind_socket``, each bound read-only as a single file (e.g. the
  gateway's API socket at ``/run/company/api.sock``, so a ``network="none"`` sandbox still reaches
  the company API). Only when the engine runs on this host (``supports_socket_binds``): a bind's
  source is a path on the engine's machine, so a remote engine (``tcp://``, ``ssh://``) gets none.

Commands run through a small POSIX ``sh`` wrapper (any image with ``/bin/sh``, ``sleep`` and
``kill``; busybox or Debian) that checks the working folder, bounds the command in the
container with a watcher that SIGKILLs the command's whole process group at its timeout (the
image's ``timeout`` is not used: busybox's signals only the command, not its children, and
exits 143), and kills what the command left in the background once it exits. The gateway
also bounds the wait (``timeout_s + exec_timeout_grace_s``), because the SDK's client timeout
does not bound a running exec. Files go in and out as tar archives, after the path was
resolved inside the container with ``readlink -f``, so symlinks are followed only while they
stay inside the workspace. Every SDK call is synchronous: it runs on the provider's own
thread pool, at most ``max_concurrency`` at a time (a running command holds one slot).

Limits: a path is checked, then copied, in two engine calls, so a command running meanwhile
could swap a symlink in between (the engine still confines the copy to the container).
Commands run as the image's user (root in both example images) and can change
``/opt/company/bin``. A bound socket is made connectable by any uid (``0666``, see ``bind_socket``),
so an image with a non-root ``USER`` or an engine that remaps uids can use it too; its host folder
must be private to the gateway's user, which keeps everyone else on the host out.
``network="host"`` shares the host's whole network, not only its loopback (and with it the
gateway's control routes, from a trusted peer). At start-up the gateway calls ``reap()`` to
remove what a crashed run left.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import os
import re
import secrets
import socket
import stat
import tarfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

import docker
import docker.errors
import requests
from docker.utils import decode_json_header, parse_host
from docker.utils.socket import frames_iter

from sandbox.base import WORKSPACE, ExecResult, Provider, Sandbox, SandboxSpec, workspace_path
from sandbox.exceptions import FileMissing, FileTooLarge, ProviderUnavailable, SandboxGone, WorkspacePathError

__all__ = ["COMMANDS_DIR", "DEFAULT_IMAGE", "OWNER_LABEL", "DockerProvider"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_IMAGE = "localhost/company-sandbox:latest"
"""The image ``examples/images/build-local.sh`` builds (busybox, no registry needed)."""

COMMANDS_DIR = "/opt/company/bin"
"""Where installed commands go inside the container; first on ``PATH``."""

OWNER_LABEL = "company-gateway.owner"
"""The container label holding the provider's owner; ``list_owned`` filters on it."""

_LABELS_LABEL = "company-gateway.labels"  # JSON of the spec's labels (image labels are merged in otherwise)
_CREATED_LABEL = "company-gateway.created-at"  # Unix seconds
_EXPIRES_LABEL = "company-gateway.expires-at"  # Unix seconds, when the spec has a ttl_s
_KEEPALIVE = ["sleep", "2147483647"]  # the largest value busybox and coreutils sleep both take
_BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
_ID = re.compile(r"[0-9a-f]{12,64}")
_KILL_WAIT_S = 5.0
_READ_CHUNK = 65536
# Bytes a one-file tar adds to the file: its header and PAX header blocks (a long name), padding to
# 512, two end blocks, and the padding to a 10240-byte record (POSIX ustar/pax); 64 KiB covers them.
_TAR_OVERHEAD = 65536

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

# Resolves workspace paths: $1 workspace, then relative paths. For each path prints, NUL-separated:
# the kind of its longest existing prefix once resolved (f file, d folder, o other, m a dangling
# symlink's missing target, x unresolvable: a loop or a target in a missing folder), how many
# trailing components do not exist, and the resolved prefix. (The cd: busybox's readlink -f reads
# a dangling symlink's relative target from the current folder, not from the link's own.)
_RESOLVE = r"""ws=$1
shift
[ -d "$ws" ] || exit 3
for p in "$@"; do
  cur=$ws/$p n=0
  while [ ! -e "$cur" ] && [ ! -L "$cur" ]; do cur=${cur%/*} n=$((n + 1)); done
  if r=$(cd -- "${cur%/*}/" && readlink -f -- "$cur"); then
    if [ -f "$r" ]; then k=f; elif [ -d "$r" ]; then k=d; elif [ -e "$r" ]; then k=o; else k=m; fi
  else
    k=x r=
  fi
  printf '%s\000%s\000%s\000' "$k" "$n" "$r"
done
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


@dataclass(frozen=True)
class _Resolved:
    kind: str  # f, d, o, m, x: see _RESOLVE
    missing: int  # trailing components that do not exist
    real: str  # the resolved existing prefix, absolute in the container


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
        self._client = client
        self._own_client = client is None
        self._base_url = base_url
        self._max = max_concurrency
        self._api_timeout_s = api_timeout_s
        self._api_version = api_version
        self._slots = asyncio.Semaphore(max_concurrency)
        self._client_lock = asyncio.Lock()
        self._sockets: dict[str, str] = {}
        # asyncio.to_thread's default pool has min(32, cores + 4) threads: too few for 64-wide fan-out.
        self._pool = ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="docker-sandbox")

    # --- host sockets ----------------------------------------------------------------------------

    @property
    def engine_is_local(self) -> bool:
        """Whether the engine is reached over a unix socket, hence runs on this host (no engine call).

        The address is ``base_url``, else ``DOCKER_HOST``, else Docker's default ``/var/run/docker.sock``;
        with a given ``client``, whether it speaks over a unix socket. A unix socket forwarded from
        another machine (or an engine in a VM, as Docker Desktop runs it) looks local too: there, use
        ``sandbox_network="host"`` or an engine on this host.
        """
        if self._client is not None:
            return str(getattr(self._client.api, "base_url", "")) == "http+docker://localhost"
        address = self._base_url or os.environ.get("DOCKER_HOST") or None
        try:
            return parse_host(address, False).startswith("http+unix://")
        except docker.errors.DockerException:
            return False

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
        path = PurePosixPath(inside)
        if str(path) != inside or ".." in path.parts or path.parts[:2] != ("/", "run") or len(path.parts) < 3:
            raise ValueError(f"inside must be an absolute path under /run, e.g. /run/company/api.sock; got {inside!r}")
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

    # --- engine calls ----------------------------------------------------------------------------

    async def _api(self) -> Any:
        """The low-level API client, connecting on first use (version detection is a blocking request)."""
        if self._client is None:
            async with self._client_lock:
                if self._client is None:
                    self._client = await self._call(self._connect, what="connect to the engine", connect=False)
        return self._client.api

    def _connect(self) -> docker.DockerClient:
        options: dict[str, Any] = {
            "timeout": self._api_timeout_s,
            "max_pool_size": self._max,
            "version": self._api_version or "auto",
        }
        if self._base_url is not None:
            return docker.DockerClient(base_url=self._base_url, **options)
        return docker.from_env(**options)

    async def _call(
        self, fn: Callable[..., T], *args: Any, what: str, sandbox: Sandbox | None = None, connect: bool = True
    ) -> T:
        """Run one blocking SDK call on the pool, mapping the engine's errors to the provider's."""
        if connect:
            await self._api()
        async with self._slots:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool, functools.partial(fn, *args))
            except docker.errors.NotFound as exc:
                if sandbox is not None:
                    raise SandboxGone(f"docker sandbox {sandbox.id[:12]} is gone: {_explain(exc)}") from exc
                raise ProviderUnavailable(f"docker engine could not {what}: {_explain(exc)}") from exc
            except docker.errors.APIError as exc:
                if sandbox is not None and exc.status_code == 409:  # "container is not running"
                    raise SandboxGone(f"docker sandbox {sandbox.id[:12]} cannot serve: {_explain(exc)}") from exc
                raise ProviderUnavailable(f"docker engine could not {what}: {_explain(exc)}") from exc
            except (docker.errors.DockerException, requests.RequestException, OSError) as exc:
                raise ProviderUnavailable(f"docker engine unreachable to {what}: {exc}") from exc

    def _container(self, sandbox: Sandbox) -> str:
        if sandbox.provider != self.name or not _ID.fullmatch(sandbox.id):
            raise ValueError(f"sandbox {sandbox.id!r} was not created by a {self.name!r} provider")
        return sandbox.id

    # --- lifecycle -------------------------------------------------------------------------------

    async def create(self, spec: SandboxSpec) -> Sandbox:
        """Create and start a container with an empty workspace; see ``Provider.create``.

        Raises:
            ValueError: ``spec.network`` is neither ``"none"`` nor ``"host"``, an env name is invalid,
                or a label key is one the provider keeps for itself (``company-gateway.*``).
            ProviderUnavailable: The engine refused or could not be reached (e.g. the image is missing:
                build it with ``examples/images/build-local.sh``).
        """
        if spec.network not in ("none", "host"):
            raise ValueError(f"network must be 'none' or 'host', got {spec.network!r}")
        _check_env(spec.env)
        if any(key.startswith("company-gateway.") for key in spec.labels):
            raise ValueError("label keys starting with 'company-gateway.' are the provider's own; rename them")
        now = time.time()
        labels = {
            **spec.labels,
            OWNER_LABEL: self.owner,
            _LABELS_LABEL: json.dumps(spec.labels, sort_keys=True),
            _CREATED_LABEL: f"{now:.3f}",
        }
        if spec.ttl_s is not None:
            labels[_EXPIRES_LABEL] = f"{now + spec.ttl_s:.3f}"
        env = {"PATH": f"{COMMANDS_DIR}:{_BASE_PATH}", "HOME": WORKSPACE, **spec.env}
        sockets = dict(self._sockets)
        api = await self._api()
        host_config = api.create_host_config(
            init=True,
            network_mode=spec.network,
            binds=[*self.host_binds, *(f"{host}:{inside}:ro" for inside, host in sorted(sockets.items()))] or None,
            mem_limit=f"{spec.memory_mb}m" if spec.memory_mb is not None else None,
            nano_cpus=round(spec.cpus * 1e9) if spec.cpus is not None else None,
            pids_limit=spec.pids,
            security_opt=["no-new-privileges"],
        )
        image = spec.image or self.image
        created = await self._call(
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
            await self._call(api.start, container, what="start the container")
        except BaseException:
            with contextlib.suppress(ProviderUnavailable):
                await self._call(functools.partial(api.remove_container, container, force=True), what="remove")
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
        container = self._container(sandbox)
        api = await self._api()
        try:
            await self._call(
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
        api = await self._api()
        found = await self._call(
            functools.partial(api.containers, all=True, filters={"label": f"{OWNER_LABEL}={self.owner}"}),
            what="list containers",
        )
        sandboxes = []
        for item in found:
            labels = item.get("Labels") or {}
            if labels.get(OWNER_LABEL) != self.owner:
                continue
            try:
                spec_labels = json.loads(labels.get(_LABELS_LABEL, "{}"))
            except ValueError:
                spec_labels = {}
            sandboxes.append(
                Sandbox(
                    id=item["Id"],
                    provider=self.name,
                    workspace=WORKSPACE,
                    labels=spec_labels,
                    private={
                        "created_at": _float(labels.get(_CREATED_LABEL)),
                        "expires_at": _float(labels.get(_EXPIRES_LABEL)),
                    },
                )
            )
        return sandboxes

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
        if self._client is not None and self._own_client:
            self._client.close()
            self._client = None
        self._pool.shutdown(wait=False, cancel_futures=True)

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
        if not argv:
            raise ValueError("argv must name a program, e.g. ['ls', '-la']")
        if timeout_s <= 0:
            raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")
        _check_env(env or {})
        container = self._container(sandbox)
        shown_cwd = cwd or "."
        directory = PurePosixPath(sandbox.workspace, workspace_path(shown_cwd, sandbox.workspace))
        token = secrets.token_hex(16)
        wrapped = ["/bin/sh", "-c", _WRAPPER, "sh", token, sandbox.workspace, str(directory), f"{timeout_s:.3f}"]
        api = await self._api()
        stream = _Stream()
        started = time.monotonic()
        future = asyncio.ensure_future(
            self._call(
                self._run_exec, api, container, wrapped + list(argv), env, stdin, stream,
                what="run a command", sandbox=sandbox,
            )
        )  # fmt: skip
        future.add_done_callback(_retrieve)  # it may end after exec() stopped waiting for it
        stuck = False
        try:
            await asyncio.wait_for(asyncio.shield(future), timeout_s + self.exec_timeout_grace_s)
        except TimeoutError:
            stuck = True
            await self._kill_stuck(api, sandbox, token, stream, future)
        except BaseException:
            stream.close()  # cancelled: the in-container watcher still kills the command at its timeout
            raise
        duration = time.monotonic() - started
        markers, stderr = _split_markers(bytes(stream.err), token)
        if "cwd-missing" in markers:
            raise WorkspacePathError(shown_cwd, "the working folder does not exist in the workspace")
        if "cwd-outside" in markers:
            raise WorkspacePathError(shown_cwd, "the working folder leads out of the workspace through a symlink")
        stdout = bytes(stream.out)
        if stuck or "timeout" in markers:
            return ExecResult(124, stdout, stderr, True, duration)
        if "exit" in markers:
            return ExecResult(int(markers["exit"]), stdout, stderr, False, duration)
        # No outcome marker: the wrapper never ran (no /bin/sh) or was killed from outside.
        code = await self._exit_code(api, sandbox, stream)
        return ExecResult(code, stdout, stderr, False, time.monotonic() - started)

    def _run_exec(
        self, api: Any, container: str, cmd: list[str], env: dict[str, str] | None, stdin: bytes | None, s: _Stream
    ) -> None:
        created = api.exec_create(container, cmd, stdin=stdin is not None, environment=env or None)
        s.exec_id = created["Id"]
        sock = api.exec_start(s.exec_id, socket=True)
        raw = getattr(sock, "_sock", sock)  # a SocketIO over a unix socket; the socket itself otherwise
        with s.lock:
            s.sock = raw
            closed = s.closed
        try:
            raw.settimeout(None)  # the client timeout would cut off a quiet command; exec() bounds the wait
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
        self, api: Any, sandbox: Sandbox, token: str, stream: _Stream, future: asyncio.Future[None]
    ) -> None:
        """The engine did not end the command ``exec_timeout_grace_s`` past its timeout: kill it ourselves."""
        logger.warning(
            "docker sandbox %s: command still running %.0f s past its timeout; killing it",
            sandbox.id[:12],
            self.exec_timeout_grace_s,
        )
        match = re.match(rf"{token} pid (\d+)\n".encode(), bytes(stream.err))
        if match:
            kill = ["/bin/sh", "-c", 'kill -KILL -"$0" 2>/dev/null || kill -KILL "$0"', match.group(1).decode()]
            # Outside the semaphore and the pool: every slot may be held by stuck commands.
            with contextlib.suppress(TimeoutError, docker.errors.DockerException, requests.RequestException, OSError):
                await asyncio.wait_for(asyncio.to_thread(_exec_quick, api, sandbox.id, kill), _KILL_WAIT_S)
        with contextlib.suppress(TimeoutError, ProviderUnavailable):
            await asyncio.wait_for(asyncio.shield(future), _KILL_WAIT_S)
        stream.close()
        with contextlib.suppress(TimeoutError, ProviderUnavailable):
            await asyncio.wait_for(asyncio.shield(future), _KILL_WAIT_S)

    async def _exit_code(self, api: Any, sandbox: Sandbox, stream: _Stream) -> int:
        """The exec's exit code from the engine, for a run whose wrapper reported none.

        A command whose container was destroyed under it ends with 137 (killed, as the local provider
        reports it): the exec is then unknown (404), or, while the container is being removed, podman
        answers 500 ("... does not exist in database: no such container"); any other failure of the
        inspection is the provider's only while the container is still there and running.
        """
        try:
            for _ in range(40):  # Docker may still report the exec as running for a moment after its stream ends
                info = await self._call(api.exec_inspect, stream.exec_id, what="inspect a command", sandbox=sandbox)
                if not info.get("Running"):
                    break
                await asyncio.sleep(0.05)
        except SandboxGone:
            return 137
        except ProviderUnavailable:
            if not await self._running(sandbox):
                return 137
            raise
        if info.get("Running"):
            raise ProviderUnavailable(f"docker sandbox {sandbox.id[:12]}: command output ended but it still runs")
        code = info.get("ExitCode")
        if not isinstance(code, int) or code < 0:
            raise ProviderUnavailable(f"docker sandbox {sandbox.id[:12]}: no exit code for the command: {info}")
        return code

    # --- files -----------------------------------------------------------------------------------

    async def _resolve(self, sandbox: Sandbox, rels: list[PurePosixPath]) -> list[_Resolved]:
        """Resolve workspace paths inside the container (``readlink -f`` on each longest existing prefix)."""
        container = self._container(sandbox)
        api = await self._api()
        cmd = ["/bin/sh", "-c", _RESOLVE, "sh", sandbox.workspace, *(str(rel) for rel in rels)]
        out, err = await self._call(_exec_quick, api, container, cmd, what="resolve paths", sandbox=sandbox)
        fields = out.split(b"\0")[:-1]
        if len(fields) != 3 * len(rels):  # the script prints three fields per path, or failed
            detail = err.decode(errors="replace").strip()
            raise ProviderUnavailable(f"docker sandbox {sandbox.id[:12]}: resolving paths failed: {detail}")
        return [
            _Resolved(fields[i].decode(), int(fields[i + 1]), os.fsdecode(fields[i + 2]))
            for i in range(0, len(fields), 3)
        ]

    def _inside(self, sandbox: Sandbox, shown: str, found: _Resolved) -> PurePosixPath:
        """The resolved prefix relative to the workspace, refusing one that resolves outside it."""
        if found.kind == "x":
            raise WorkspacePathError(shown, "a symlink on the path loops or leads out of the workspace")
        real = PurePosixPath(found.real)
        if not real.is_relative_to(sandbox.workspace):
            raise WorkspacePathError(shown, "a symlink on the path leads out of the workspace")
        return real.relative_to(sandbox.workspace)

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
        if max_bytes is not None and max_bytes < 0:
            raise ValueError(f"max_bytes must be a number of bytes >= 0 or None, got {max_bytes!r}")
        rel = workspace_path(path, sandbox.workspace)
        (found,) = await self._resolve(sandbox, [rel])
        real = self._inside(sandbox, path, found)
        if found.missing:
            if found.kind in ("f", "o"):
                raise WorkspacePathError(path, "a file is where a folder should be")
            raise FileMissing(path)
        if found.kind != "f":
            raise FileMissing(path)
        api = await self._api()
        try:
            archive, size = await self._call(
                _fetch_archive, api, sandbox.id, str(PurePosixPath(sandbox.workspace, real)), max_bytes,
                what="read a file", sandbox=sandbox,
            )  # fmt: skip
        except SandboxGone as exc:  # a 404 on the path itself (removed meanwhile) or on the container
            if await self._exists(sandbox):
                raise FileMissing(path) from exc
            raise
        if archive is None:
            raise FileTooLarge(path, size, max_bytes or 0)  # only with a max_bytes
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            member = tar.next()
            if member is None or not member.isreg():
                raise FileMissing(path)
            if max_bytes is not None and member.size > max_bytes:
                raise FileTooLarge(path, member.size, max_bytes)
            extracted = tar.extractfile(member)
            return extracted.read() if extracted is not None else b""

    async def _running(self, sandbox: Sandbox) -> bool:
        """Whether the container exists and runs (``ProviderUnavailable`` when the engine cannot say)."""
        api = await self._api()
        try:
            info = await self._call(api.inspect_container, sandbox.id, what="inspect the container", sandbox=sandbox)
        except SandboxGone:
            return False
        return bool((info.get("State") or {}).get("Running"))

    async def _exists(self, sandbox: Sandbox) -> bool:
        api = await self._api()
        try:
            await self._call(api.inspect_container, sandbox.id, what="inspect the container", sandbox=sandbox)
        except SandboxGone:
            return False
        return True

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
        self._container(sandbox)
        targets = [(shown, workspace_path(shown, sandbox.workspace), data) for shown, data in files.items()]
        if not targets:
            return
        resolved = await self._resolve(sandbox, [rel for _, rel, _ in targets])
        planned: dict[PurePosixPath, str] = {}  # workspace-relative path -> "d" or "f", in archive order
        refused: WorkspacePathError | None = None
        entries: list[tuple[PurePosixPath, bytes | None]] = []
        for (shown, rel, data), found in zip(targets, resolved, strict=True):
            try:
                file_rel, new_dirs = self._plan_write(sandbox, shown, rel, found, planned)
            except WorkspacePathError as exc:
                refused = exc
                break
            for folder in new_dirs:
                planned[folder] = "d"
                entries.append((folder, None))
            planned[file_rel] = "f"
            entries.append((file_rel, data))
        if entries:
            api = await self._api()
            tar = _archive(entries, mode)
            await self._call(api.put_archive, sandbox.id, sandbox.workspace, tar, what="write files", sandbox=sandbox)
        if refused is not None:
            raise refused

    def _plan_write(
        self,
        sandbox: Sandbox,
        shown: str,
        rel: PurePosixPath,
        found: _Resolved,
        planned: dict[PurePosixPath, str],
    ) -> tuple[PurePosixPath, list[PurePosixPath]]:
        """Where one file goes (workspace-relative) and which folders must be made for it."""
        prefix = self._inside(sandbox, shown, found)
        rest = rel.parts[len(rel.parts) - found.missing :] if found.missing else ()
        if found.kind == "m":  # a dangling symlink inside the workspace: its target is the first missing part
            prefix, rest = prefix.parent, (prefix.name, *rest)
        elif found.kind == "d" and not rest:
            raise WorkspacePathError(shown, "a folder is where the file should be")
        elif found.kind == "o" and not rest:
            raise WorkspacePathError(shown, "something other than a file is at this path")
        elif found.kind in ("f", "o") and rest:
            raise WorkspacePathError(shown, "a file is where a folder should be")
        if not rest:
            target, folders = prefix, []
        else:
            folders = [prefix.joinpath(*rest[:i]) for i in range(1, len(rest))]
            target = prefix.joinpath(*rest)
        for folder in folders:
            if planned.get(folder) == "f":
                raise WorkspacePathError(shown, "a file is where a folder should be")
        if planned.get(target) == "d":
            raise WorkspacePathError(shown, "a folder is where the file should be")
        return target, [folder for folder in folders if folder not in planned]

    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        """Install executables into ``/opt/company/bin`` (first on ``PATH``); see ``Provider.install_commands``.

        Raises:
            ValueError: A name is not a plain file name.
            SandboxGone: The container no longer exists or is not running.
            ProviderUnavailable: The engine failed.
        """
        container = self._container(sandbox)
        for name in files:
            if not name or name in (".", "..") or "/" in name or "\0" in name:
                raise ValueError(f"command name must be a plain file name such as 'mail', got {name!r}")
        bin_dir = PurePosixPath(COMMANDS_DIR.lstrip("/"))
        folders = [PurePosixPath(*bin_dir.parts[:i]) for i in range(1, len(bin_dir.parts) + 1)]
        entries: list[tuple[PurePosixPath, bytes | None]] = [(folder, None) for folder in folders]
        entries += [(bin_dir / name, data) for name, data in files.items()]
        api = await self._api()
        await self._call(
            api.put_archive, container, "/", _archive(entries, 0o755), what="install commands", sandbox=sandbox
        )


def _explain(exc: docker.errors.APIError) -> str:
    return str(exc.explanation or exc)


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _check_env(variables: dict[str, str]) -> None:
    for key in variables:
        if not key or "=" in key or "\0" in key:
            raise ValueError(f"environment variable names must be non-empty without '=' or NUL, got {key!r}")


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


def _exec_quick(api: Any, container: str, cmd: list[str]) -> tuple[bytes, bytes]:
    """Run a short helper command and return its stdout and stderr (two engine calls, no exit code)."""
    created = api.exec_create(container, cmd)
    out, err = api.exec_start(created["Id"], demux=True)
    return out or b"", err or b""


def _fetch_archive(api: Any, container: str, path: str, max_bytes: int | None) -> tuple[bytes | None, int]:
    """``GET /containers/{id}/archive``: the tar and the file's size, or ``(None, size)`` over ``max_bytes``.

    The SDK's ``get_archive`` with its own response in hand, so that a file over the limit is
    refused on the stat header alone and its response closed unread; a stream that runs past
    ``max_bytes`` plus the tar overhead (the file grew meanwhile) is cut off the same way.
    """
    response = api._get(
        api._url("/containers/{0}/archive", container),
        params={"path": path}, stream=True, headers={"Accept-Encoding": "identity"},
    )  # fmt: skip
    try:
        api._raise_for_status(response)
        header = response.headers.get("X-Docker-Container-Path-Stat")
        size = int((decode_json_header(header) if header else {}).get("size", -1))
        if max_bytes is None:
            return response.content, size
        if size > max_bytes:
            return None, size
        bound = max_bytes + _TAR_OVERHEAD
        chunks, total = [], 0
        for chunk in response.iter_content(_READ_CHUNK, decode_unicode=False):
            total += len(chunk)
            if total > bound:
                return None, max(size, total - _TAR_OVERHEAD)
            chunks.append(chunk)
        return b"".join(chunks), size
    finally:
        response.close()


def _archive(entries: list[tuple[PurePosixPath, bytes | None]], mode: int) -> bytes:
    """A tar of ``(relative path, content)``; ``None`` content makes a folder (mode 0o755)."""
    buffer = io.BytesIO()
    now = time.time()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path, data in entries:
            info = tarfile.TarInfo(str(path))
            info.mtime = now
            if data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), mode
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()
