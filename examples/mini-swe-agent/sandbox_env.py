"""The agent's shell inside the session's sandbox: each command runs where the gateway runs its own sandbox commands.

The gateway lends a ``cli`` session a ``local`` sandbox: a folder under ``GATEWAY_SANDBOX_ROOT`` whose commands run
under bubblewrap with no network of their own, the company API on a unix socket (``$COMPANY_API_SOCKET``), on which
every control route answers 403, and the installed package's task data hidden. :class:`SandboxShell` runs a command
through that same provider (``gateway.control.workspace.make_provider`` with this process's ``GATEWAY_*``
settings), so the agent's bash sees what any sandbox command sees and nothing of the host: not the control routes,
not the gateway's files, not this process's environment (the model's key).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from gateway import Settings
from gateway.control.workspace import make_provider
from sandbox import Provider, Sandbox


@dataclass
class ShellResult:
    """One command's outcome: ``output`` is stdout then stderr (text), ``returncode`` its status (124: timed out)."""

    output: str
    returncode: int
    timed_out: bool


class SandboxShell:
    """Runs shell commands in one session's sandbox; one instance per episode (it owns an event loop).

    Args:
        sandbox_id: The seed response's ``sandbox.id``.
        settings: The gateway's settings: ``sandbox_provider`` must be ``"local"`` and ``sandbox_root`` and
            ``sandbox_owner`` the serving gateway's (default: read from ``GATEWAY_*`` variables).

    Raises:
        ValueError: The settings name no local sandbox root, or the sandbox is not there (another root or owner).
    """

    def __init__(self, sandbox_id: str, settings: Settings | None = None) -> None:
        settings = settings or Settings()
        if settings.sandbox_provider != "local" or not settings.sandbox_root:
            raise ValueError("GATEWAY_SANDBOX_ROOT: set it to the serving gateway's sandbox root (local provider)")
        self._loop = asyncio.new_event_loop()
        provider = make_provider(settings)
        assert provider is not None
        self._provider: Provider = provider
        owned = self._loop.run_until_complete(provider.list_owned())
        found = [s for s in owned if s.id == sandbox_id]
        if not found:
            self.close()
            raise ValueError(f"sandbox_id: no sandbox {sandbox_id!r} of owner {settings.sandbox_owner!r} "
                             f"under {settings.sandbox_root}")  # fmt: skip
        self._sandbox: Sandbox = found[0]

    def run(self, command: str, timeout_s: float, cwd: str = "") -> ShellResult:
        """Run ``bash -c command`` in the sandbox (``cwd`` inside its workspace; default the workspace), bounded."""
        result = self._loop.run_until_complete(
            self._provider.exec(self._sandbox, ["bash", "-c", command], timeout_s=timeout_s, cwd=cwd or None)
        )
        output = (result.stdout + result.stderr).decode(errors="replace")
        return ShellResult(output, result.exit_code, result.timed_out)

    def close(self) -> None:
        """Release the event loop (the sandbox itself is the gateway's: /verify and /close_session remove it)."""
        self._loop.close()
