"""Helpers the drive's tests share."""

from __future__ import annotations

from typing import Any

from tools.kernel.world import Context

#: The content type of an Excel workbook.
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def names(results: list[dict[str, Any]]) -> list[str]:
    """The names of the items in a list answer."""
    return [r["name"] for r in results]


def content(c: Context[Any], file_id: str) -> bytes:
    """The stored bytes of file ``file_id``."""
    return bytes(c.blobs.get(c.state.files[file_id].blob))
