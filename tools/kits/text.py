"""Text helpers the apps share: forgiving comparison, required text parameters and bounded long-text types."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from tools.kernel.exceptions import InvalidArgument

__all__ = [
    "FILE_TEXT_LIMIT",
    "PART_CHARS",
    "LONG_TEXT_LIMIT",
    "SEARCH_TERMS_LIMIT",
    "SEARCH_TEXT_LIMIT",
    "FileText",
    "LongText",
    "SearchText",
    "clip",
    "fold",
    "require_text",
]


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

#: Most words (white-space separated terms, operators included) a search query may hold.
SEARCH_TERMS_LIMIT = 32
#: Most characters of a search query.
SEARCH_TEXT_LIMIT = 500


def _few_terms(query: str) -> str:
    count = len(query.split())
    if count > SEARCH_TERMS_LIMIT:
        raise ValueError(
            f"has {count:,} terms; a search takes at most {SEARCH_TERMS_LIMIT}: keep the most telling words "
            "(every term must match, so more terms rarely find more)"
        )
    return query


#: A parameter type for search words: at most ``SEARCH_TEXT_LIMIT`` characters and ``SEARCH_TERMS_LIMIT`` terms,
#: so a search's cost (terms x records) stays bounded. The registry states both bounds in the description.
SearchText = Annotated[
    str,
    Field(max_length=SEARCH_TEXT_LIMIT, json_schema_extra={"x-maxTerms": SEARCH_TERMS_LIMIT}),
    AfterValidator(_few_terms),
]


#: Longest part of a long text one answer shows, in characters; the rest comes with an offset.
PART_CHARS = 20_000


def clip(text: str, offset: int = 0, limit: int = PART_CHARS) -> tuple[str, int | None]:
    """One part of a long text: ``limit`` characters from ``offset``, and where the next part starts.

    Returns:
        ``(part, next_offset)``; ``next_offset`` is None when the part reaches the end.
    """
    part = text[offset : offset + limit]
    end = offset + len(part)
    return part, (end if end < len(text) else None)
