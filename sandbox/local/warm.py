"""``WarmLocalProvider``: local sandboxes emptied and lent again instead of made anew."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from sandbox.base import WORKSPACE, Sandbox, SandboxSpec
from sandbox.checks import check_env, check_network
from sandbox.local import _exec, _files
from sandbox.local.provider import LocalProvider

__all__ = ["WarmLocalProvider"]


class WarmLocalProvider(LocalProvider):
    """A :class:`LocalProvider` whose destroyed sandboxes are emptied and lent again to the next ``create``.

    For one trusted user who makes and drops many short-lived sandboxes in turn (``tasks prove`` plays 15-25
    times a task): a new sandbox costs a folder, its metadata, its command scripts and an ``rm`` process
    (about 4 ms of CPU on a 2-core machine). Only the workspace and the command folder outlive a command
    under this provider (each command gets its own ``/tmp``), so a sandbox whose workspace was emptied, whose
    command folder holds what ``install_commands`` was last given and that takes its labels and environment
    from the new spec is what a new one would be. Never share one between users: a command still running is
    killed, but what it did outside the workspace is not undone.

    The sandbox metadata on disk keeps the first spec's labels (``list_owned`` reports them); a sandbox whose
    workspace cannot be emptied is removed as :meth:`LocalProvider.destroy` does.
    """

    def __init__(self, root: Path, owner: str, tools: Path | None) -> None:
        super().__init__(root, owner, tools=tools)
        self._idle: list[str] = []
        self._commands: dict[str, dict[str, bytes]] = {}  # what each sandbox's command folder holds

    def host_workspace(self, sandbox: Sandbox) -> Path:
        """The host folder that is ``sandbox``'s workspace (``/workspace`` inside it)."""
        return self._home(sandbox) / "workspace"

    async def create(self, spec: SandboxSpec) -> Sandbox:
        """An emptied sandbox with ``spec``'s labels, environment and network, or a new one; see ``LocalProvider``."""
        check_network(spec.network)
        check_env(spec.env)
        if not self._idle:
            return await super().create(spec)
        return Sandbox(
            id=self._idle.pop(), provider=self.name, workspace=WORKSPACE, labels=dict(spec.labels),
            private={"env": dict(spec.env), "network": spec.network, "sockets": self.socket_binds,
                     **({"disk_bytes": spec.disk_bytes} if spec.disk_bytes else {})},
        )  # fmt: skip

    async def install_commands(self, sandbox: Sandbox, files: dict[str, bytes]) -> None:
        """Make the command folder hold exactly ``files`` (nothing written when it already does)."""
        if self._commands.get(sandbox.id) == files:
            return
        bin_dir = self.root / sandbox.id / "bin"
        for entry in await asyncio.to_thread(os.listdir, bin_dir):
            if entry not in files:
                await asyncio.to_thread(os.unlink, bin_dir / entry)
        await super().install_commands(sandbox, files)
        self._commands[sandbox.id] = dict(files)

    async def destroy(self, sandbox: Sandbox) -> None:
        """Kill the sandbox's commands and empty its workspace for the next ``create`` (else remove it).

        Destroying it again before it is lent again does nothing (it is lent once).
        """
        if sandbox.id in self._idle:
            return
        for proc in self._running.pop(sandbox.id, set()):
            _exec.kill(proc)
        try:
            await asyncio.to_thread(_empty_workspace, self.root / sandbox.id / "workspace")
        except OSError:
            self._commands.pop(sandbox.id, None)
            await super().destroy(sandbox)
            return
        self._idle.append(sandbox.id)

    async def list_owned(self) -> list[Sandbox]:
        """The sandboxes lent now (not the emptied ones waiting for the next ``create``); see ``LocalProvider``."""
        return [sb for sb in await super().list_owned() if sb.id not in self._idle]


def _empty_workspace(folder: Path) -> None:
    _files.empty_folder(folder)
    os.chmod(folder, 0o755)  # as made: a command may have changed it
