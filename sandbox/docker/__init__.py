"""The docker provider: one container per sandbox, through the ``docker`` SDK; see ``sandbox.docker.provider``."""

from __future__ import annotations

from sandbox.docker.provider import COMMANDS_DIR, DEFAULT_IMAGE, OWNER_LABEL, DockerProvider

__all__ = ["COMMANDS_DIR", "DEFAULT_IMAGE", "OWNER_LABEL", "DockerProvider"]
