"""The local provider: a workspace folder on the host, commands under bubblewrap; see ``sandbox.local.provider``."""

from __future__ import annotations

from sandbox.local.provider import COMMANDS_DIR, LocalProvider

__all__ = ["COMMANDS_DIR", "LocalProvider"]
