"""The opensandbox provider: sandboxes on an OpenSandbox server; see ``sandbox.opensandbox.provider``."""

from __future__ import annotations

from sandbox.opensandbox.provider import COMMANDS_DIR, DEFAULT_IMAGE, OWNER_LABEL, OpenSandboxProvider

__all__ = ["COMMANDS_DIR", "DEFAULT_IMAGE", "OWNER_LABEL", "OpenSandboxProvider"]
