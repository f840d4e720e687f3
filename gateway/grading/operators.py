"""The ``where`` matcher: dotted field paths and the operators a check or an allowed-change rule uses.

See the package docstring for the list of operators. Document operators read file bytes from the blob
store set for the grade under way (:func:`using_blobs`).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from gateway.grading.messages import read_claims
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import csv_rows, extract_text, read_cell

__all__ = ["OPS", "match_value", "match_where", "using_blobs", "using_world", "value_at"]

#: Every operator a matcher may use.
OPS = {
    "eq", "ne", "ieq", "contains", "not_contains", "regex", "in", "instant", "before", "after",
    "set_eq", "includes", "excludes", "any", "none", "len", "gte", "lte", "exists", "text", "cell", "csv_row",
    "claims",
}  # fmt: skip


#: The world's blobs while a grade runs, for the document operators.
_BLOBS: contextvars.ContextVar[BlobStore | None] = contextvars.ContextVar("grading_blobs", default=None)
#: The final world while a grade runs, for the ``claims`` operator (its directory gives the people).
_WORLD: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("grading_world", default=None)

@contextlib.contextmanager
def using_blobs(blobs: BlobStore | None) -> Iterator[None]:
    """Let the document operators read ``blobs`` while the block runs (per task, thread and coroutine)."""
    token = _BLOBS.set(blobs)
    try:
        yield
    finally:
        _BLOBS.reset(token)


@contextlib.contextmanager
def using_world(world: dict[str, Any] | None) -> Iterator[None]:
    """Let the ``claims`` operator read people from ``world`` (a snapshot) while the block runs."""
    token = _WORLD.set(world)
    try:
        yield
    finally:
        _WORLD.reset(token)


def _fold(value: Any) -> Any:
    return " ".join(value.lower().split()) if isinstance(value, str) else value


def value_at(record: dict[str, Any], path: str) -> Any:
    """The value at a dotted path (``"vacation.body"``, ``"attendees.0.email"``); None when absent."""
    cur: Any = record
    for part in path.split("."):
        if isinstance(cur, dict):
            cur = cur.get(part)
        elif isinstance(cur, list) and part.isdigit():
            cur = cur[int(part)] if int(part) < len(cur) else None
        else:
            return None
    return cur


def match_where(record: dict[str, Any], where: dict[str, Any]) -> bool:
    """Whether ``record`` (JSON values) matches every ``{dotted path: value or matcher}`` of ``where``."""
    return all(match_value(value_at(record, path), spec) for path, spec in where.items())


def match_value(value: Any, spec: Any) -> bool:
    """Whether ``value`` equals ``spec``, or holds every operator of ``spec`` when it is an operator object."""
    if not isinstance(spec, dict) or not spec or not set(spec) <= OPS:
        return bool(value == spec)
    return all(_op(op, value, arg) for op, arg in spec.items())


def _instant(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else None


def _as_set(value: Any) -> set[Any] | None:
    if not isinstance(value, list):
        return None
    return {_fold(v) for v in value if not isinstance(v, dict | list)}


def _op(op: str, value: Any, arg: Any) -> bool:  # noqa: C901 - one branch per operator reads best
    if op == "eq":
        return bool(value == arg)
    if op == "ne":
        return bool(value != arg)
    if op == "ieq":
        return isinstance(value, str) and _fold(value) == _fold(arg)
    if op in ("contains", "not_contains"):
        if isinstance(value, list):
            found = any(_fold(v) == _fold(arg) for v in value)
        else:
            found = isinstance(value, str) and _fold(arg) in _fold(value)
        return found if op == "contains" else not found
    if op == "regex":
        return isinstance(value, str) and re.search(arg, value, re.IGNORECASE) is not None
    if op == "in":
        return _fold(value) in {_fold(a) for a in arg}
    if op in ("instant", "before", "after"):
        got, ref = _instant(value), _instant(arg)
        if got is None or ref is None:
            return False
        return got == ref if op == "instant" else got < ref if op == "before" else got > ref
    if op in ("set_eq", "includes", "excludes"):
        got_set, want = _as_set(value), {_fold(a) for a in arg}
        if got_set is None:
            return op == "excludes" and value is None
        return got_set == want if op == "set_eq" else want <= got_set if op == "includes" else not (want & got_set)
    if op in ("any", "none"):
        items = value if isinstance(value, list) else []
        found = any(isinstance(i, dict) and match_where(i, arg) for i in items)
        return found if op == "any" else not found
    if op == "len":
        return isinstance(value, list | str) and len(value) == arg
    if op in ("gte", "lte"):
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        return bool(value >= arg if op == "gte" else value <= arg)
    if op == "claims":
        return read_claims(value, arg, _WORLD.get()).passed
    if op == "exists":
        present = value not in (None, "", [], {})
        return present == bool(arg)
    return _document_op(op, value, arg)


def _blob(value: Any) -> bytes | None:
    blobs = _BLOBS.get()
    if blobs is None or not isinstance(value, str) or value not in blobs:
        return None
    return blobs.get(value)


def _document_op(op: str, value: Any, arg: Any) -> bool:
    data = _blob(value)
    if data is None:
        return False
    if op == "text":
        return match_value(extract_text(data), arg)
    if op == "cell":
        return match_value(read_cell(data, arg["sheet"], arg["ref"]), arg["match"])
    if op == "csv_row":
        return any(match_where(row, arg) for row in csv_rows(data))
    raise AssertionError(op)  # unreachable: OPS is checked before


