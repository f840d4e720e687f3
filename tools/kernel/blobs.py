"""File bytes, kept once by content: records hold a blob id, the world holds the bytes.

A blob id is ``"sha256:<hex>"`` of the bytes, so the same document stored twice
costs nothing and a world snapshot (what grading compares) carries only ids.
A world's :class:`BlobStore` layers the blobs it adds over a shared, read-only
base (the default company's documents), so a session costs only what it adds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from tools.kernel.exceptions import NotFound

__all__ = ["BlobStore", "blob_id"]


def blob_id(data: bytes) -> str:
    """The id of ``data``: ``"sha256:"`` and its hex digest."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


class BlobStore:
    """Content-addressed bytes over an optional shared base.

    Args:
        base: Blobs shared by every world built from the same company (never written).
    """

    def __init__(self, base: Mapping[str, bytes] | None = None) -> None:
        self._base: Mapping[str, bytes] = base if base is not None else {}
        self._own: dict[str, bytes] = {}  # in the order added (nothing is ever removed but by rollback)
        self._own_bytes = 0

    def put(self, data: bytes) -> str:
        """Store ``data`` and return its id (the same id for the same bytes)."""
        key = blob_id(data)
        if key not in self._base and key not in self._own:
            self._own[key] = bytes(data)
            self._own_bytes += len(data)
        return key

    def get(self, key: str) -> bytes:
        """The bytes of blob ``key``.

        Raises:
            NotFound: no such blob (parameter ``blob``).
        """
        data = self._own.get(key)
        if data is None:
            data = self._base.get(key)
        if data is None:
            raise NotFound(f"no stored content with id {key!r}", "blob")
        return data

    def __contains__(self, key: object) -> bool:
        return key in self._own or key in self._base

    def added(self, key: str) -> bool:
        """Whether ``key`` is a blob this store added (not one of its shared base's)."""
        return key in self._own

    def own_ids(self) -> list[str]:
        """The ids of the blobs this store added (not its shared base's), oldest first."""
        return list(self._own)

    def own_size(self) -> int:
        """Bytes held by this store beyond its shared base (kept as blobs are added: O(1))."""
        return self._own_bytes

    def mark(self) -> int:
        """A point to :meth:`rollback` to: how many blobs this store has added so far."""
        return len(self._own)

    def rollback(self, mark: int) -> None:
        """Forget the blobs added since :meth:`mark` returned ``mark`` (a write that failed)."""
        while len(self._own) > mark:
            _, data = self._own.popitem()  # the newest first
            self._own_bytes -= len(data)

    def copy(self) -> BlobStore:
        """An independent store over the same base, with a copy of the blobs this one added."""
        twin = BlobStore(self._base)
        twin._own = dict(self._own)
        twin._own_bytes = self._own_bytes
        return twin
