"""Files on OpenSandbox: what execd's errors say about a path, and the mode field it takes."""

from __future__ import annotations

from opensandbox.exceptions import SandboxApiException

from sandbox.checks import FILE_IN_THE_WAY_REASON, FOLDER_IN_THE_WAY_REASON

__all__ = ["error_code", "in_the_way", "octal"]


def error_code(exc: SandboxApiException) -> str | None:
    return exc.error.code if exc.error else None


def in_the_way(exc: SandboxApiException) -> str | None:
    """What blocks a path, read from execd's error text (Go's errno wording), or ``None``."""
    message = str(exc).lower()
    if "is a directory" in message:
        return FOLDER_IN_THE_WAY_REASON
    if "not a directory" in message:
        return FILE_IN_THE_WAY_REASON
    return None


def octal(mode: int) -> int:
    """The mode field of execd: the octal digits read as a decimal number (0o755 -> 755), per specs/execd-api.yaml."""
    return int(f"{mode & 0o7777:o}")
