"""The docker provider's engine connection: the SDK client, its thread pool, and the mapping of its errors.

Every SDK call is synchronous: it runs on the engine's own thread pool, at most
``max_concurrency`` at a time (a running command holds one slot), and the engine's errors
become ``ProviderUnavailable``, or ``SandboxGone`` for a container that is gone or stopped.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import docker
import docker.errors
import requests
from docker.utils import parse_host

from sandbox.base import Sandbox
from sandbox.exceptions import ProviderUnavailable, SandboxGone

__all__ = ["Engine", "exec_quick"]

T = TypeVar("T")


class Engine:
    """One Docker Engine API, reached on first use.

    Args:
        client: A ready ``docker.DockerClient``; the engine then neither configures nor closes it.
        base_url: The engine's address; with neither ``client`` nor ``base_url``, ``DOCKER_HOST`` and
            the other ``DOCKER_*`` variables decide.
        max_concurrency: Engine calls in flight at once; also the size of the HTTP connection pool
            and of the thread pool.
        api_timeout_s: Seconds before an ordinary engine call fails.
        api_version: The Engine API version spoken; ``None`` asks the engine first.
    """

    def __init__(
        self,
        client: docker.DockerClient | None,
        base_url: str | None,
        max_concurrency: int,
        api_timeout_s: float,
        api_version: str | None,
    ) -> None:
        self._client = client
        self._own_client = client is None
        self._base_url = base_url
        self._max = max_concurrency
        self._api_timeout_s = api_timeout_s
        self._api_version = api_version
        self._slots = asyncio.Semaphore(max_concurrency)
        self._client_lock = asyncio.Lock()
        # asyncio.to_thread's default pool has min(32, cores + 4) threads: too few for 64-wide fan-out.
        self._pool = ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="docker-sandbox")

    @property
    def is_local(self) -> bool:
        """Whether the engine is reached over a unix socket (see ``DockerProvider.engine_is_local``)."""
        if self._client is not None:
            return str(getattr(self._client.api, "base_url", "")) == "http+docker://localhost"
        address = self._base_url or os.environ.get("DOCKER_HOST") or None
        try:
            url: str = parse_host(address, False)
        except docker.errors.DockerException:
            return False
        return url.startswith("http+unix://")

    async def api(self) -> Any:
        """The low-level API client, connecting on first use (version detection is a blocking request)."""
        if self._client is None:
            async with self._client_lock:
                if self._client is None:
                    connected = await self.call(self._connect, what="connect to the engine", connect=False)
                    self._client = connected
                    return connected.api
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

    async def call(
        self, fn: Callable[..., T], *args: Any, what: str, sandbox: Sandbox | None = None, connect: bool = True
    ) -> T:
        """Run one blocking SDK call on the pool, mapping the engine's errors to the provider's."""
        if connect:
            await self.api()
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

    async def running(self, sandbox: Sandbox) -> bool:
        """Whether the container exists and runs (``ProviderUnavailable`` when the engine cannot say)."""
        api = await self.api()
        try:
            info = await self.call(api.inspect_container, sandbox.id, what="inspect the container", sandbox=sandbox)
        except SandboxGone:
            return False
        return bool((info.get("State") or {}).get("Running"))

    async def exists(self, sandbox: Sandbox) -> bool:
        """Whether the container exists, running or not."""
        api = await self.api()
        try:
            await self.call(api.inspect_container, sandbox.id, what="inspect the container", sandbox=sandbox)
        except SandboxGone:
            return False
        return True

    def close(self) -> None:
        """Close the HTTP connections (unless the client was given) and the thread pool."""
        if self._client is not None and self._own_client:
            self._client.close()
            self._client = None
        self._pool.shutdown(wait=False, cancel_futures=True)


def _explain(exc: docker.errors.APIError) -> str:
    return str(exc.explanation or exc)


def exec_quick(api: Any, container: str, cmd: list[str]) -> tuple[bytes, bytes]:
    """Run a short helper command and return its stdout and stderr (two engine calls, no exit code)."""
    created = api.exec_create(container, cmd)
    out, err = api.exec_start(created["Id"], demux=True)
    return out or b"", err or b""
