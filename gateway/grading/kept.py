"""Answers kept by the identity of a read-only object (a seed world, a snapshot): the last few, thread-safe."""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

__all__ = ["KeptByIdentity"]

V = TypeVar("V")


class KeptByIdentity(Generic[V]):
    """The last ``kept`` answers about objects that are never changed once made, by ``id`` (and a key).

    Each object is held with its answer, so its address cannot be reused by another object while kept;
    the oldest answer goes first. Only for immutable answers (callers copy a mutable one themselves).

    Args:
        kept: How many answers are kept.
    """

    def __init__(self, kept: int) -> None:
        self._kept = kept
        self._answers: dict[tuple[int, Hashable], tuple[Any, V]] = {}
        self._lock = threading.Lock()

    def get(self, owner: Any, key: Hashable = None) -> V | None:
        """The answer kept for ``owner`` (this very object) and ``key``, else None."""
        with self._lock:
            known = self._answers.get((id(owner), key))
        return known[1] if known is not None and known[0] is owner else None

    def put(self, owner: Any, answer: V, key: Hashable = None) -> None:
        """Keep ``answer`` for ``owner`` and ``key``, dropping the oldest past the bound."""
        with self._lock:
            if len(self._answers) >= self._kept:
                del self._answers[next(iter(self._answers))]
            self._answers[(id(owner), key)] = (owner, answer)
