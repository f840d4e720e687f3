"""Errors raised by the office apps.

Every error an app action raises is meant for the caller (the agent) to read,
so its text names the parameter at fault and what to do instead.

Tree::

    AppError                 base of every app error
    ├── InvalidArgument      a parameter's value is wrong (bad date, unknown label, ...)
    │   └── NotFound         an id or path names nothing that exists
    └── Conflict             the request is valid but the world's state forbids it
"""

from __future__ import annotations

__all__ = ["AppError", "Conflict", "InvalidArgument", "NotFound"]


class AppError(Exception):
    """Base of every error an app action raises; its message is shown to the caller.

    Args:
        message: What went wrong and what to do instead, in plain words.
        parameter: The name of the parameter at fault, when there is one.
    """

    def __init__(self, message: str, parameter: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.parameter = parameter

    def __str__(self) -> str:
        if self.parameter:
            return f"{self.parameter}: {self.message}"
        return self.message


class InvalidArgument(AppError):
    """A parameter's value cannot be used (wrong format, out of range, unknown name)."""


class NotFound(InvalidArgument):
    """An id, address or path names nothing that exists in this company."""


class Conflict(AppError):
    """The request is well formed, but the current state does not allow it (e.g. sending a sent draft)."""
