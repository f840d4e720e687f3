"""Paging: the parameter types every list or search action takes, and one way to cut a page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from pydantic import Field

__all__ = ["Page", "PageSize", "page_of"]

#: Page number, 1 to 10,000.
Page = Annotated[int, Field(ge=1, le=10_000)]
#: Items per page, 1 to 100.
PageSize = Annotated[int, Field(ge=1, le=100)]


def page_of(
    items: Sequence[Any],
    page: int,
    page_size: int,
    key: str = "results",
    view: Callable[[Any], Any] | None = None,
) -> dict[str, Any]:
    """Cut one page out of ``items``.

    Args:
        items: Everything that matched, in order.
        page: Page number, starting at 1.
        page_size: Items per page.
        key: The name of the list in the answer.
        view: Turns an item into what the answer shows; applied to the page's items only, so a search
            matching thousands of records costs one page of views.

    Returns:
        ``{key: [...], "page": n, "page_size": k, "total": N, "next_page": n+1 or None}``.
    """
    start = (page - 1) * page_size
    chunk = [view(i) if view else i for i in items[start : start + page_size]]
    more = start + page_size < len(items)
    return {
        key: chunk,
        "page": page,
        "page_size": page_size,
        "total": len(items),
        "next_page": page + 1 if more else None,
    }
