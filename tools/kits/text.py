"""Text helpers the apps share: forgiving comparison and required text parameters."""

from __future__ import annotations

from tools.kernel.exceptions import InvalidArgument

__all__ = ["fold", "require_text"]


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
