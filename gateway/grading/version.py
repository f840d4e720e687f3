"""Which grader scored a session: one short hash of the grading code and of the row's checks and allowed changes.

``grader_version(checks, allowed)`` is the first 16 hex digits of the SHA-256 of the source of every
``gateway/grading`` module (its ``.py`` files, read as bytes in file-name order, each preceded by its name)
and of the canonical JSON of ``{"checks", "allowed_changes"}`` (keys sorted, no spaces, UTF-8). The same code
and the same row give the same string in every process; a change to either gives another. Code outside
``gateway/grading`` that a grade reads (the apps' outcomes, the document text readers) is not in the hash.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

__all__ = ["canonical_json", "grader_version", "grading_source_digest"]


def canonical_json(value: Any) -> bytes:
    """``value`` as canonical JSON: keys sorted, no spaces, UTF-8 (what the hashes here are taken over)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


@functools.cache
def grading_source_digest() -> str:
    """SHA-256 (hex) of the ``gateway/grading`` modules' source, read once per process in file-name order."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py"), key=lambda p: p.name):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def grader_version(checks: list[dict[str, Any]], allowed: list[dict[str, Any]]) -> str:
    """The grader version of a row: 16 hex digits over the grading code and its checks and allowed changes."""
    digest = hashlib.sha256(grading_source_digest().encode())
    digest.update(canonical_json({"checks": checks, "allowed_changes": allowed}))
    return digest.hexdigest()[:16]
