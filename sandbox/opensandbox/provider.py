"""The ``OpenSandboxProvider`` class.

execd's command stream is read in ``_exec``, its file errors in ``_files``; metadata rules live in ``_labels``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import secrets
import time
import warnings
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import PurePosixPath
from typing import TypeVar

import httpx
from opensandbox import Sandbox as SdkSandbox
from opensandbox import SandboxManager
from opensandbox.config import ConnectionConfig
from opensandbox.exceptions import SandboxApiException, SandboxException
from opensandbox.models.execd import RunCommandOpts
from opensandbox.models.filesystem import WriteEntry
from opensandbox.models.sandboxes import NetworkPolicy, NetworkRule, SandboxFilter
from opensandbox.transport import RetryAsyncTransport, RetryPolicy

from sandbox.base import COMMANDS_DIR, WORKSPACE, ExecResult, Provider, Sandbox, SandboxSpec, workspace_path
from sandbox.checks import (
    CWD_MISSING_REASON,
    FOLDER_IN_THE_WAY_REASON,
    check_command_names,
    check_env,
    check_exec,
    check_max_bytes,
    check_network,
    check_sandbox,
)
from sandbox.exceptions import FileMissing, FileTooLarge, ProviderUnavailable, SandboxGone, WorkspacePathError
from sandbox.opensandbox._exec import CommandStream, exit_status
from sandbox.opensandbox._files import error_code, in_the_way, octal
from sandbox.opensandbox._labels import OWNER_LABEL, check_label, check_label_value, egress_host

__all__ = ["DEFAULT_IMAGE", "OpenSandboxProvider"]

logger = logging.getLogger(__name__)

DEFAULT_IMAGE = "python:3.12"
"""Debian with Python, curl and a POSIX shell: what the app commands and the guide expect."""

ENTRYPOINT = ("tail", "-f", "/dev/null")
"""The sandbox's main process: sleeps until the sandbox is killed (busybox and coreutils alike)."""

_BASE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_MIN_TTL_S = 60  # specs/sandbox-lifecycle.yml, CreateSandboxRequest.timeout: minimum 60
_GONE_STATES = {"stopping", "terminated"}
_PAGE_SIZE = 100
# execd starts "-c"-less argv directly; a file given as stdin is opened, unlinked, then the command replaces the shell.
_STDIN_SCRIPT = 'exec 0<"$0" && rm -f -- "$0" && exec "$@"'

_now = time.monotonic  # module-level so tests can move time without sleeping
T = TypeVar("T")


class OpenSandboxProvider(Provider):
    """Sandboxes on an OpenSandbox server.

    Args:
        domain: The lifecycle server, ``"host:port"`` or a URL such as ``"https://sandbox.example.com"``;
            ``None`` uses ``OPEN_SANDBOX_DOMAIN`` (the SDK's default, ``localhost:8080``).
        api_key: Sent as ``OPEN-SANDBOX-API-KEY``; ``None`` uses ``OPEN_SANDBOX_API_KEY``.
        owner: Stored as the ``company-gateway/owner`` metadata of every sandbox; a Kubernetes
            label value such as ``"company-gateway"``.
        image: Container image when ``SandboxSpec.image`` is ``None``.
        default_ttl_s: Lifetime in seconds when ``SandboxSpec.ttl_s`` is ``None`` (at least 60);
            ``None`` asks for no expiry (not every OpenSandbox runtime accepts that).
        block_internet: Create every sandbox with a deny-by-default egress policy that allows only
            ``gateway_host`` and ``allowed_hosts``.
        gateway_host: Domain name of this gateway as sandboxes reach it; required with ``block_internet``.
        allowed_hosts: Further domain names (e.g. model APIs, ``"*.openai.com"``) allowed with
            ``block_internet``. OpenSandbox's egress rules match names, not IP addresses.
        resources: Default ``resourceLimits``, e.g. ``{"cpu": "1", "memory": "2Gi"}``;
            ``SandboxSpec.cpus`` and ``memory_mb`` override them.
        request_timeout_s: Seconds one HTTP call may take.
        ready_timeout_s: Seconds a new sandbox may take to answer its first health check.
        exec_grace_s: Seconds a command's stream may run past its own timeout before the
            command is interrupted and reported as timed out.
        use_server_proxy: Reach execd through the lifecycle server (one address; a sandbox gone
            answers 404) rather than at the sandbox's own endpoint.
        max_retries: Retries of idempotent calls (GET, DELETE) on 429/502/503/504 and connection
            errors, with the SDK's backoff; ``0`` fails fast.

    Raises:
        ValueError: ``owner`` is not a label value, ``block_internet`` lacks ``gateway_host``, a host
            is not a domain name, or a number is out of range.
    """

    name = "opensandbox"
    supports_egress_policy = True

    def __init__(
        self,
        domain: str | None = None,
        api_key: str | None = None,
        *,
        owner: str,
        image: str = DEFAULT_IMAGE,
        default_ttl_s: float | None = 3600.0,
        block_internet: bool = False,
        gateway_host: str | None = None,
        allowed_hosts: Sequence[str] = (),
        resources: Mapping[str, str] | None = None,
        request_timeout_s: float = 30.0,
        ready_timeout_s: float = 60.0,
        exec_grace_s: float = 10.0,
        use_server_proxy: bool = True,
        max_retries: int = 2,
    ) -> None:
        check_label_value("owner", owner)
        if default_ttl_s is not None and default_ttl_s < _MIN_TTL_S:
            raise ValueError(
                f"default_ttl_s must be at least {_MIN_TTL_S} seconds (OpenSandbox's minimum), got {default_ttl_s!r}"
            )
        for label, value in (("request_timeout_s", request_timeout_s), ("ready_timeout_s", ready_timeout_s)):
            if value <= 0:
                raise ValueError(f"{label} must be a positive number of seconds, got {value!r}")
        if exec_grace_s < 0 or max_retries < 0:
            raise ValueError("exec_grace_s and max_retries must not be negative")
        if block_internet and not gateway_host:
            raise ValueError("block_internet needs gateway_host (the domain name sandboxes use to reach this gateway)")
        self.owner = owner
        self.image = image
        self.default_ttl_s = default_ttl_s
        self.block_internet = block_internet
        hosts = [gateway_host] if gateway_host else []
        self.egress_hosts: list[str] = list(dict.fromkeys(egress_host(host) for host in [*hosts, *allowed_hosts]))
        self.resources = dict(resources) if resources is not None else {"cpu": "1", "memory": "2Gi"}
        self.request_timeout_s = request_timeout_s
        self.ready_timeout_s = ready_timeout_s
        self.exec_grace_s = exec_grace_s

        policy = RetryPolicy(max_retries=max_retries)
        inner = httpx.AsyncHTTPTransport()
        self._transport: httpx.AsyncBaseTransport = (
            RetryAsyncTransport(inner, policy, owns_inner=True) if max_retries else inner
        )
        secure = bool(domain and domain.startswith("https://"))
        # A transport given here is ours: the SDK never closes it, close() does. The server proxy is deprecated
        # since opensandbox 1.2 (maintenance mode, still served); it is what lets the gateway reach one address.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "use_server_proxy is deprecated", DeprecationWarning)
            self._config = ConnectionConfig(
                api_key=api_key,
                domain=domain.rstrip("/") if domain else None,
                protocol="https" if secure else "http",
                request_timeout=timedelta(seconds=request_timeout_s),
                use_server_proxy=use_server_proxy,
                disable_metrics=True,
                retry_policy=policy,
                transport=self._transport,
            )
        self._manager: SandboxManager | None = None
        self._handles: dict[str, SdkSandbox] = {}

    # -- lifecycle -------------------------------------------------------------------------------

    async def create(self, spec: SandboxSpec) -> Sandbox:
        """Create a sandbox running ``ENTRYPOINT`` with an empty ``/workspace``.

        The request carries the image, the entrypoint, the env (plus ``HOME`` and a ``PATH``
        starting with ``/opt/company/bin``), ``timeout`` (the TTL), metadata (the labels plus
        ``company-gateway/owner``), ``resourceLimits`` and, with ``block_internet`` or
        ``network="none"``, a deny-by-default egress policy.

        Raises:
            ValueError: ``spec.network`` is unknown, a label is not a Kubernetes label, an env
                name is invalid, or the TTL is under 60 seconds.
            ProviderUnavailable: The server refused or failed (its words in the message), or the
                sandbox did not become ready in time.
        """
        check_network(spec.network)
        check_env(spec.env)
        for key, value in spec.labels.items():
            check_label(key, value)
        ttl = spec.ttl_s if spec.ttl_s is not None else self.default_ttl_s
        if ttl is not None and ttl < _MIN_TTL_S:
            raise ValueError(f"ttl_s must be at least {_MIN_TTL_S} seconds (OpenSandbox's minimum), got {ttl!r}")
        limit = self.ready_timeout_s + 2 * self.request_timeout_s
        handle = await self._call(
            "create a sandbox",
            None,
            lambda: SdkSandbox.create(
                spec.image or self.image,
                timeout=None if ttl is None else timedelta(seconds=math.ceil(ttl)),
                ready_timeout=timedelta(seconds=self.ready_timeout_s),
                env=self._sandbox_env(spec.env),
                metadata={**spec.labels, OWNER_LABEL: self.owner},
                resource=self._resources(spec),
                network_policy=self._network_policy(spec),
                entrypoint=list(ENTRYPOINT),
                connection_config=self._config,
            ),
            limit_s=limit,
        )
        sandbox = Sandbox(id=handle.id, provider=self.name, workspace=WORKSPACE, labels=dict(spec.labels))
        self._handles[handle.id] = handle
        try:
            await self._call(
                "create the workspace",
                sandbox,
                lambda: handle.files.create_directories([WriteEntry(path=WORKSPACE, mode=octal(0o755))]),
            )
        except BaseException:
            with contextlib.suppress(ProviderUnavailable):
                await self.destroy(sandbox)
            raise
        return sandbox

    async def renew(self, sandbox: Sandbox, ttl_s: float) -> datetime:
        """Push the sandbox's expiry to ``ttl_s`` seconds from now.

        Returns:
            The new expiry (UTC) as the server recorded it.

        Raises:
            ValueError: ``ttl_s`` is not positive.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The server failed.
        """
        if ttl_s <= 0:
            raise ValueError(f"ttl_s must be a positive number of seconds, got {ttl_s!r}")
        self._check(sandbox)
        manager = await self._get_manager()
        renewed = await self._call(
            "renew the sandbox", sandbox, lambda: manager.renew_sandbox(sandbox.id, timedelta(seconds=ttl_s))
        )
        return renewed.expires_at

    async def destroy(self, sandbox: Sandbox) -> None:
        """Kill the sandbox (``DELETE /v1/sandboxes/{id}``); one already gone (404) counts as done.

        Raises:
            ProviderUnavailable: The server failed to kill it.
        """
        self._check(sandbox)
        self._handles.pop(sandbox.id, None)
        manager = await self._get_manager()
        with contextlib.suppress(SandboxGone):
            await self._call("kill the sandbox", sandbox, lambda: manager.kill_sandbox(sandbox.id))

    async def list_owned(self) -> list[Sandbox]:
        """Every sandbox whose ``company-gateway/owner`` metadata is this provider's owner, not stopping or gone.

        Raises:
            ProviderUnavailable: The server could not list them.
        """
        manager = await self._get_manager()
        owned: list[Sandbox] = []
        page = 1
        while True:
            query = SandboxFilter(metadata={OWNER_LABEL: self.owner}, page=page, page_size=_PAGE_SIZE)
            batch = await self._call("list sandboxes", None, functools.partial(manager.list_sandbox_infos, query))
            for info in batch.sandbox_infos:
                metadata = dict(info.metadata or {})
                if metadata.pop(OWNER_LABEL, None) != self.owner or info.status.state.lower() in _GONE_STATES:
                    continue
                owned.append(Sandbox(id=info.id, provider=self.name, workspace=WORKSPACE, labels=metadata))
            if not batch.pagination.has_next_page:
                return owned
            page += 1

    async def close(self) -> None:
        """Close the HTTP connections; sandboxes are left for ``destroy`` or their TTL."""
        self._handles.clear()
        self._manager = None
        await self._transport.aclose()

    # -- commands --------------------------------------------------------------------------------

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
        """Run one command through execd's ``POST /command`` and rebuild its output from the stream.

        The server kills the command at ``timeout_s`` (``timeout`` in the request, ms); the
        result is then exit code 124 with ``timed_out``. Should the stream outlive
        ``timeout_s + exec_grace_s``, the command is interrupted and reported the same way.
        A program that cannot start gives 127 (not found) or 126, its reason on stderr.

        Raises:
            ValueError: ``argv`` is empty, ``timeout_s`` is not positive, or an env name is invalid.
            WorkspacePathError: ``cwd`` leaves the workspace or is not a folder in it.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The server failed, or the stream ended without a result.
        """
        check_exec(argv, timeout_s)
        check_env(env or {})
        workdir = PurePosixPath(sandbox.workspace, workspace_path(cwd or ".", sandbox.workspace))
        handle = await self._handle(sandbox)
        command = list(argv)
        if stdin is not None:
            feed = f"/tmp/.company-stdin-{secrets.token_hex(8)}"
            await self._upload(sandbox, handle, [WriteEntry(path=feed, data=stdin, mode=octal(0o600))], "pass stdin")
            command = ["sh", "-c", _STDIN_SCRIPT, feed, *argv]

        stream = CommandStream()
        opts = RunCommandOpts(working_directory=str(workdir), timeout=timedelta(seconds=timeout_s), envs=env or None)
        started = _now()
        try:
            async with asyncio.timeout(timeout_s + self.exec_grace_s):
                execution = await handle.commands.run(command, opts=opts, handlers=stream.handlers())
        except TimeoutError:
            await self._interrupt(sandbox, handle, stream.execution_id)
            return ExecResult(124, stream.stdout(), stream.stderr(), True, _now() - started)
        except SandboxException as exc:
            refused = isinstance(exc, SandboxApiException) and exc.status_code in (400, 500)
            if cwd is not None and refused and "cwd" in str(exc):
                raise WorkspacePathError(cwd, CWD_MISSING_REASON) from exc
            raise self._failure(exc, "run a command", sandbox) from exc
        duration = _now() - started
        if execution.error is not None:
            code, timed_out, reason = exit_status(execution.error, duration, timeout_s)
            return ExecResult(code, stream.stdout(), stream.stderr() + reason, timed_out, duration)
        if execution.complete is None:
            raise ProviderUnavailable(f"OpenSandbox sandbox {sandbox.id}: the command's stream ended without a result")
        return ExecResult(0, stream.stdout(), stream.stderr(), False, duration)

    async def _interrupt(self, sandbox: Sandbox, handle: SdkSandbox, execution_id: str | None) -> None:
        """Best effort: stop a command whose stream outlived its timeout."""
        if not execution_id:
            logger.warning("OpenSandbox sandbox %s: command outlived its timeout before it had an id", sandbox.id)
            return
        try:
            await self._call("interrupt a command", sandbox, lambda: handle.commands.interrupt(execution_id))
        except ProviderUnavailable:
            logger.exception("OpenSandbox sandbox %s: could not interrupt command %s", sandbox.id, execution_id)

    # -- files -----------------------------------------------------------------------------------

    async def write_files(self, sandbox: Sandbox, files: dict[str, bytes], mode: int = 0o644) -> None:
        """Upload files into the workspace in one ``POST /files/upload``; execd creates parent folders.

        Every path is checked before any call.

        Raises:
            WorkspacePathError: A path leaves the workspace, or a file/folder is in the way.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The upload failed for another reason.
        """
        entries: list[WriteEntry] = []
        shown: dict[str, str] = {}
        for path, data in files.items():
            rel = workspace_path(path, sandbox.workspace)
            if rel == PurePosixPath("."):
                raise WorkspacePathError(path, "the path is the workspace itself; name a file inside it")
            target = str(PurePosixPath(sandbox.workspace, rel))
            shown[target] = path
            entries.append(WriteEntry(path=target, data=bytes(data), mode=octal(mode)))
        if not entries:
            return
        handle = await self._handle(sandbox)
        await self._upload(sandbox, handle, entries, "write files", shown=shown)

    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        """Upload executables (mode 0755) into ``/opt/company/bin``, which is first on ``PATH``.

        Raises:
            ValueError: A name is not a plain file name.
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The upload failed.
        """
        check_command_names(files)
        if not files:
            return
        entries = [WriteEntry(path=f"{COMMANDS_DIR}/{n}", data=bytes(d), mode=octal(0o755)) for n, d in files.items()]
        handle = await self._handle(sandbox)
        try:
            await self._upload(sandbox, handle, entries, "install commands")
        except WorkspacePathError as exc:
            raise ProviderUnavailable(f"could not install command in sandbox {sandbox.id}: {exc}") from exc

    async def read_file(self, sandbox: Sandbox, path: str, *, max_bytes: int | None = None) -> bytes:
        """Download one workspace file (``GET /files/download``), bytes exact.

        With ``max_bytes``, the file's size and type come first from ``GET /files/info``, and the
        download asks only for the first ``max_bytes + 1`` bytes (``Range: bytes=0-<max_bytes>``);
        more than ``max_bytes`` in the answer (the file grew meanwhile, or a server ignoring the
        range) is refused as well.

        Raises:
            ValueError: ``max_bytes`` is negative.
            FileMissing: Nothing is there (execd's 404 ``FILE_NOT_FOUND``), or it is a folder.
            FileTooLarge: The file holds more than ``max_bytes`` bytes.
            WorkspacePathError: The path leaves the workspace (checked before any call).
            SandboxGone: The sandbox no longer exists.
            ProviderUnavailable: The download failed for another reason.
        """
        check_max_bytes(max_bytes)
        rel = workspace_path(path, sandbox.workspace)
        if rel == PurePosixPath("."):
            raise FileMissing(path, "folder")
        handle = await self._handle(sandbox)
        target = str(PurePosixPath(sandbox.workspace, rel))
        try:
            if max_bytes is None:
                return await self._call("read a file", sandbox, lambda: handle.files.read_bytes(target), raw=True)
            infos = await self._call("stat a file", sandbox, lambda: handle.files.get_file_info([target]), raw=True)
            info = infos.get(target)
            if info is None or info.entry_type in ("directory", "other"):
                raise FileMissing(path, "nothing" if info is None else "folder" if info.entry_type == "directory"
                                  else "special")  # fmt: skip
            # A symlink's size is its own (execd follows it on download): the range still bounds the read.
            if info.size > max_bytes:
                raise FileTooLarge(path, info.size, max_bytes)
            data = await self._call(
                "read a file", sandbox,
                lambda: handle.files.read_bytes(target, range_header=f"bytes=0-{max_bytes}"), raw=True,
            )  # fmt: skip
        except SandboxApiException as exc:
            if error_code(exc) == "FILE_NOT_FOUND" or in_the_way(exc) == FOLDER_IN_THE_WAY_REASON:
                raise FileMissing(path, "nothing" if error_code(exc) == "FILE_NOT_FOUND" else "folder") from exc
            raise self._failure(exc, "read a file", sandbox) from exc
        if len(data) > max_bytes:
            raise FileTooLarge(path, len(data), max_bytes)
        return data

    async def _upload(
        self,
        sandbox: Sandbox,
        handle: SdkSandbox,
        entries: list[WriteEntry],
        action: str,
        *,
        shown: Mapping[str, str] | None = None,
    ) -> None:
        try:
            await self._call(action, sandbox, lambda: handle.files.write_files(entries), raw=True)
        except SandboxApiException as exc:
            reason = in_the_way(exc)
            if reason is None or exc.status_code == 404:
                raise self._failure(exc, action, sandbox) from exc
            message = str(exc)
            paths = shown or {e.path: e.path for e in entries}
            culprit = next((p for target, p in paths.items() if target in message), next(iter(paths.values())))
            raise WorkspacePathError(culprit, reason) from exc

    # -- plumbing --------------------------------------------------------------------------------

    async def _call(
        self,
        action: str,
        sandbox: Sandbox | None,
        call: Callable[[], Awaitable[T]],
        *,
        limit_s: float | None = None,
        raw: bool = False,
    ) -> T:
        """Await one SDK call, bounded in time, its failures turned into ``ProviderUnavailable``/``SandboxGone``.

        With ``raw``, ``SandboxApiException`` is re-raised as is for the caller to map.
        """
        limit = limit_s if limit_s is not None else 2 * self.request_timeout_s
        where = f" for sandbox {sandbox.id}" if sandbox else ""
        try:
            async with asyncio.timeout(limit):
                return await call()
        except TimeoutError as exc:
            raise ProviderUnavailable(f"OpenSandbox did not {action}{where} within {limit:g} s") from exc
        except SandboxException as exc:
            if raw and isinstance(exc, SandboxApiException):
                raise
            raise self._failure(exc, action, sandbox) from exc

    def _failure(self, exc: SandboxException, action: str, sandbox: Sandbox | None) -> ProviderUnavailable:
        where = f" for sandbox {sandbox.id}" if sandbox else ""
        if isinstance(exc, SandboxApiException) and exc.status_code == 404 and sandbox is not None:
            self._handles.pop(sandbox.id, None)
            return SandboxGone(f"OpenSandbox could not {action}{where}: the sandbox no longer exists: {exc}")
        return ProviderUnavailable(f"OpenSandbox could not {action}{where}: {exc}")

    async def _get_manager(self) -> SandboxManager:
        if self._manager is None:
            self._manager = await SandboxManager.create(self._config)
        return self._manager

    async def _handle(self, sandbox: Sandbox) -> SdkSandbox:
        """The SDK's handle on a sandbox (its execd endpoint), connecting on first use."""
        self._check(sandbox)
        handle = self._handles.get(sandbox.id)
        if handle is None:
            handle = await self._call(
                "connect to the sandbox",
                sandbox,
                lambda: SdkSandbox.connect(
                    sandbox.id,
                    connection_config=self._config,
                    connect_timeout=timedelta(seconds=self.request_timeout_s),
                    skip_health_check=True,
                ),
            )
            self._handles[sandbox.id] = handle
        return handle

    def _check(self, sandbox: Sandbox) -> None:
        check_sandbox(sandbox, self.name)

    def _sandbox_env(self, env: Mapping[str, str]) -> dict[str, str]:
        merged = {"HOME": WORKSPACE, "PATH": f"{COMMANDS_DIR}:{_BASE_PATH}", **env}
        if COMMANDS_DIR not in merged["PATH"].split(":"):
            merged["PATH"] = f"{COMMANDS_DIR}:{merged['PATH']}"
        return merged

    def _resources(self, spec: SandboxSpec) -> dict[str, str]:
        limits = dict(self.resources)
        if spec.cpus is not None:
            limits["cpu"] = f"{max(1, round(spec.cpus * 1000))}m"
        if spec.memory_mb is not None:
            limits["memory"] = f"{spec.memory_mb}Mi"
        if spec.disk_bytes is not None:  # Kubernetes' name for a container's writable disk
            limits["ephemeral-storage"] = f"{max(1, spec.disk_bytes // 2**20)}Mi"
        return limits

    def _network_policy(self, spec: SandboxSpec) -> NetworkPolicy | None:
        if spec.network == "none":
            return NetworkPolicy(default_action="deny", egress=[])
        if self.block_internet:
            rules = [NetworkRule(action="allow", target=host) for host in self.egress_hosts]
            return NetworkPolicy(default_action="deny", egress=rules)
        return None
