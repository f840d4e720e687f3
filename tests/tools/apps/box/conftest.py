"""Helpers Box's tests share: the id of the Word agreement with three versions, result names, a blob's text."""

from typing import Any

from tools.kernel.documents import extract_text

#: The CT-2291 renewal agreement (.docx): three versions, the third Hannah Wood's redline.
DOCX = "file_ct2291_agreement_docx"


def names(results: list[dict[str, Any]]) -> list[str]:
    """The names of a list of items, in order."""
    return [r["name"] for r in results]


def text(c: Any, blob: str, name: str) -> str:
    """The text of a stored blob read as a file called ``name``."""
    return extract_text(c.blobs.get(blob), name)
