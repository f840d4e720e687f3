"""Text helpers the apps share: forgiving comparison, required text parameters and bounded long-text types."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from tools.kernel.exceptions import InvalidArgument

__all__ = ["FILE_TEXT_LIMIT", "LONG_TEXT_LIMIT", "FileText", "LongText", "fold", "require_text"]


def fold(text: str | None) -> str:
    """Lower-case and collapse white space, for forgiving text comparison."""
    return " ".join((text or "").lower().split())


def require_text(value: str, parameter: str) -> str:
    """Return ``value`` stripped.

    Raises:
        InvalidArgument: ``value`` is empty or only white space, naming ``parameter``.
    """
    if not value or not value.strip():
        raise InvalidArgument("must not be empty", parameter)
    return value.strip()


#: Most characters of prose a caller writes: message bodies, descriptions, comments, notes.
LONG_TEXT_LIMIT = 50_000
#: Most characters of a file's text pasted inline; larger files come from the workspace by path.
FILE_TEXT_LIMIT = 500_000

#: A parameter type for prose: message bodies, descriptions, comments (at most ``LONG_TEXT_LIMIT`` characters).
LongText = Annotated[str, Field(max_length=LONG_TEXT_LIMIT)]
#: A parameter type for a file's text given inline (at most ``FILE_TEXT_LIMIT`` characters).
FileText = Annotated[str, Field(max_length=FILE_TEXT_LIMIT)]
