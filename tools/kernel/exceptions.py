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

import re
from itertools import islice
from typing import Any

__all__ = ["QUOTE_LIMIT", "AppError", "Conflict", "InvalidArgument", "NotFound", "quote", "shorten"]

#: Longest part of a caller's value an error message repeats (characters).
QUOTE_LIMIT = 80


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A caller's value as an error message shows it: its ``repr``, cut to ``limit`` characters plus "...".

    Errors repeat what was sent so the caller sees what was wrong, but never the whole of a long value:
    a 5 MB id comes back as its first ``limit`` characters.

    Args:
        value: Any value; strings are cut before ``repr`` so a huge string costs nothing to show.
        limit: Most characters of the value to show.

    Returns:
        ``repr(value)`` when short, else the first ``limit`` characters of it followed by ``...``
        (and for a string, ``(N characters)``).
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    shown = _short_repr(value) if isinstance(value, (list, tuple, dict)) else repr(value)
    return shown if len(shown) <= limit else shown[:limit] + "..."


#: A quoted name longer than :data:`QUOTE_LIMIT`, or a word longer than 100 characters (what :func:`quote`
#: shows stays whole): a caller's value the message repeats whole.
_LONG = re.compile(rf"(?<!\w)'[^'\n]{{{QUOTE_LIMIT + 1},}}'(?!\w)|\S{{101,}}")


def shorten(message: str) -> str:
    """``message`` with every long word or quoted name (see :data:`_LONG`) cut to its first characters + "...".

    A message quoting a caller's path or name whole (a 1,200-character path) comes back this short whatever raised it.
    """
    if len(message) <= QUOTE_LIMIT:
        return message

    def cut(match: re.Match[str]) -> str:
        text = match.group()
        if text.startswith("'") and text.endswith("'"):
            return text[: QUOTE_LIMIT + 1] + "...'"
        return text[:QUOTE_LIMIT] + "..."

    return _LONG.sub(cut, message)


def _short_repr(value: list[Any] | tuple[Any, ...] | dict[Any, Any]) -> str:
    """``repr`` of a container from its first items only, each quoted, so a huge container costs nothing."""
    if isinstance(value, dict):
        parts = [f"{quote(k)}: {quote(v)}" for k, v in islice(value.items(), 5)]
        return "{" + ", ".join(parts) + (", ...}" if len(value) > 5 else "}")
    parts = [quote(v) for v in islice(value, 5)]
    return "[" + ", ".join(parts) + (", ...]" if len(value) > 5 else "]")


class AppError(Exception):
    """Base of every error an app action raises; its message is shown to the caller.

    Args:
        message: What went wrong and what to do instead, in plain words.
        parameter: The name of the parameter at fault, when there is one.
    """

    def __init__(self, message: str, parameter: str | None = None) -> None:
        message = shorten(message)
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
