"""A provider that holds no real resources and takes 100 ms to destroy a sandbox (for the shutdown figure)."""

from __future__ import annotations

import asyncio
import secrets

from sandbox import ExecResult, FileMissing, Provider, Sandbox, SandboxSpec

__all__ = ["SlowDestroyProvider"]


class SlowDestroyProvider(Provider):
    """Lends in-memory sandboxes; ``destroy`` sleeps ``destroy_s`` (default 0.1 s) on the event loop.

    Attributes:
        live: Ids of sandboxes created and not yet destroyed.
        destroyed: How many ``destroy`` calls completed.
    """

    name = "fake"

    def __init__(self, destroy_s: float = 0.1) -> None:
        self.destroy_s = destroy_s
        self.live: set[str] = set()
        self.destroyed = 0
        self.peak_concurrent_destroys = 0
        self._destroying = 0

    async def create(self, spec: SandboxSpec) -> Sandbox:
        sandbox = Sandbox(id=secrets.token_hex(8), provider=self.name, labels=dict(spec.labels))
        self.live.add(sandbox.id)
        return sandbox

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
        return ExecResult(0, b"", b"")

    async def write_files(self, sandbox: Sandbox, files: dict[str, bytes], mode: int = 0o644) -> None:
        return None

    async def read_file(self, sandbox: Sandbox, path: str, *, max_bytes: int | None = None) -> bytes:
        raise FileMissing(path)

    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        return None

    async def destroy(self, sandbox: Sandbox) -> None:
        self._destroying += 1
        self.peak_concurrent_destroys = max(self.peak_concurrent_destroys, self._destroying)
        try:
            await asyncio.sleep(self.destroy_s)
        finally:
            self._destroying -= 1
        self.live.discard(sandbox.id)
        self.destroyed += 1

    async def list_owned(self) -> list[Sandbox]:
        return [Sandbox(id=i, provider=self.name) for i in sorted(self.live)]
