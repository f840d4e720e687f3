"""The argument checks every provider makes, written once so that each error reads the same everywhere.

Each ``check_*`` raises ``ValueError`` with one wording; the ``*_REASON`` strings are the reasons
a ``WorkspacePathError`` gives when the workspace's shape blocks a request, whichever provider saw it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from sandbox.base import Sandbox

__all__ = [
    "CWD_MISSING_REASON",
    "CWD_OUTSIDE_REASON",
    "FILE_IN_THE_WAY_REASON",
    "FOLDER_IN_THE_WAY_REASON",
    "NOT_A_FILE_REASON",
    "SYMLINK_OUT_REASON",
    "check_command_names",
    "check_env",
    "check_exec",
    "check_max_bytes",
    "check_network",
    "check_sandbox",
    "check_socket_inside",
]

FOLDER_IN_THE_WAY_REASON = "a folder is where the file should be"
FILE_IN_THE_WAY_REASON = "a file is where a folder should be"
NOT_A_FILE_REASON = "something other than a file is at this path"
SYMLINK_OUT_REASON = "a symlink on the path leads out of the workspace"
CWD_MISSING_REASON = "the working folder does not exist in the workspace"
CWD_OUTSIDE_REASON = "the working folder leads out of the workspace through a symlink"


def check_env(variables: Iterable[str]) -> None:
    """Refuse environment variable names that are empty or hold ``=`` or NUL.

    Args:
        variables: The names (a ``{name: value}`` mapping iterates over its names).
    """
    for key in variables:
        if not key or "=" in key or "\0" in key:
            raise ValueError(f"environment variable names must be non-empty without '=' or NUL, got {key!r}")


def check_network(network: str) -> None:
    """Refuse a ``SandboxSpec.network`` other than ``"none"`` or ``"host"``."""
    if network not in ("none", "host"):
        raise ValueError(f"network must be 'none' or 'host', got {network!r}")


def check_exec(argv: list[str], timeout_s: float) -> None:
    """Refuse an empty ``argv`` or a ``timeout_s`` that is not positive (``Provider.exec``)."""
    if not argv:
        raise ValueError("argv must name a program, e.g. ['ls', '-la']")
    if timeout_s <= 0:
        raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")


def check_max_bytes(max_bytes: int | None) -> None:
    """Refuse a negative ``max_bytes`` (``Provider.read_file``)."""
    if max_bytes is not None and max_bytes < 0:
        raise ValueError(f"max_bytes must be a number of bytes >= 0 or None, got {max_bytes!r}")


def check_command_names(names: Iterable[str]) -> None:
    """Refuse command names that are not plain file names (``Provider.install_commands``)."""
    for name in names:
        if not name or name in (".", "..") or "/" in name or "\0" in name:
            raise ValueError(f"command name must be a plain file name such as 'mail', got {name!r}")


def check_sandbox(sandbox: Sandbox, provider: str, ids: re.Pattern[str] | None = None) -> None:
    """Refuse a sandbox another provider made: its provider name differs, or its id does not match ``ids``."""
    if sandbox.provider != provider or (ids is not None and not ids.fullmatch(sandbox.id)):
        raise ValueError(f"sandbox {sandbox.id!r} was not created by a {provider!r} provider")


def check_socket_inside(inside: str) -> None:
    """Refuse a socket path inside the sandbox that is not a normalised absolute path under ``/run``."""
    path = PurePosixPath(inside)
    if str(path) != inside or ".." in path.parts or path.parts[:2] != ("/", "run") or len(path.parts) < 3:
        raise ValueError(f"inside must be an absolute path under /run, e.g. /run/company/api.sock; got {inside!r}")
