"""Errors raised by sandbox providers.

Two kinds of failure, handled differently by callers:

* the provider failed (``ProviderUnavailable`` and its subclass
  ``SandboxGone``): infrastructure, not the model's doing. Its message may
  name host paths, engine errors or ids, so it goes to the log, never to the
  model; a caller masks the result it was computing.
* the request does not fit the workspace (``FileMissing``, ``FileTooLarge``,
  ``WorkspacePathError``): the model asked for something that is not there,
  too large, or not allowed. Their messages name only workspace-relative paths and are safe
  to show to the model.

Tree::

    SandboxError                 base of every sandbox error
    ├── ProviderUnavailable      the provider itself failed (timeout, engine error, I/O error)
    │   └── SandboxGone          the sandbox no longer exists (expired, killed, destroyed)
    ├── FileMissing              the path holds no regular file
    ├── FileTooLarge             the file is larger than the caller's limit (its content was not read)
    └── WorkspacePathError       the path leaves the workspace, or the workspace's shape blocks it

``SandboxGone`` is a ``ProviderUnavailable`` because a caller treats both the
same way (the session's sandbox cannot serve it; mask and log). Catch
``SandboxGone`` first when a vanished sandbox needs its own handling, e.g.
``destroy`` treating it as done.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "FileMissing",
    "FileTooLarge",
    "ProviderUnavailable",
    "SandboxError",
    "SandboxGone",
    "TooManyEntries",
    "WorkspacePathError",
]


class SandboxError(Exception):
    """Base of every error a sandbox provider raises."""


class ProviderUnavailable(SandboxError):
    """The provider itself failed: a timeout, an engine error, an I/O error on the host.

    The message is for logs and operators; it may name host paths and engine
    details and must never be shown to the model.
    """


class SandboxGone(ProviderUnavailable):
    """The sandbox no longer exists: it expired, was killed or was destroyed."""


class FileMissing(SandboxError):
    """The path holds no regular file (nothing there, a folder, or a special file).

    Args:
        path: The workspace-relative path as the caller gave it.
        kind: What is there instead: ``"nothing"``, ``"folder"``, or ``"special"`` (a pipe, socket or device).
    """

    def __init__(self, path: str, kind: Literal["nothing", "folder", "special"] = "nothing") -> None:
        shown = {"nothing": "no file at {!r}", "folder": "{!r} is a folder, not a file,",
                 "special": "{!r} is not a regular file (a pipe, socket or device)"}[kind]  # fmt: skip
        super().__init__(f"{shown.format(path)} in the workspace")
        self.path = path
        self.kind = kind


class FileTooLarge(SandboxError):
    """The file holds more bytes than the caller's ``max_bytes``; its content was not read.

    Args:
        path: The workspace-relative path as the caller gave it.
        size: The file's size in bytes, as the provider saw it (at least ``limit + 1``).
        limit: The caller's limit in bytes.
    """

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(f"the file {path!r} is {size} bytes, over the limit of {limit} bytes")
        self.path = path
        self.size = size
        self.limit = limit


class WorkspacePathError(SandboxError):
    """The path leaves the workspace, or the workspace's shape blocks the request.

    Raised for ``..`` climbing above the workspace, absolute paths outside it,
    symlinks pointing out of it, a folder where a file should go, or a file
    where a folder should be. The message names only the caller's path.

    Args:
        path: The path as the caller gave it.
        reason: What is wrong with it, in plain words.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"path {path!r}: {reason}")
        self.path = path
        self.reason = reason


class TooManyEntries(SandboxError):
    """The workspace holds more files and folders than a count of its size walks (its size was not counted).

    Args:
        limit: Most entries the count walks.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(f"the workspace holds more than {limit} files and folders")
        self.limit = limit
