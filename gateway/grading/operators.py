"""The ``where`` matcher: dotted field paths and the operators a check or an allowed-change rule uses.

See the package docstring for the list of operators. Document operators read file bytes from the blob
store set for the grade under way (:func:`using_blobs`); ``same_bytes_as`` finds its source in the seed
world set with it.

Files are judged by provenance: ``{"same_bytes_as": source}`` holds when the value (a blob id) carries the
bytes of ``source``, or a declared transform of them (:data:`TRANSFORMS`). A source is

- a blob id, ``"sha256:<hex>"`` (known when the row is built, e.g. a family's mailed document), or
  ``{"blob": "sha256:<hex>"}``;
- a record of the seed world, ``{"app", "collection", "id"}``, and in it ``"attachment"`` (the id or
  file name of an item of its ``attachments``) or ``"field"`` (a dotted path to a blob id; default
  ``"blob"``). It is read in the world as it was at seed, so changing the source later changes nothing;

plus ``"as"``: a transform (default ``"bytes"``: the same bytes). Typed text under a document's name never
carries its bytes, whatever the text says.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from gateway.grading.claimspec import resolve_value_of
from gateway.grading.messages import read_claims
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import blob_text, csv_rows, document_tables, extract_text, read_cell

__all__ = [
    "OPS", "TRANSFORMS", "check_source", "current_world", "match_value", "match_where", "resolved_claims",
    "using_blobs", "using_world", "value_at",
]  # fmt: skip

#: Every operator a matcher may use.
OPS = {
    "eq", "ne", "ieq", "contains", "not_contains", "regex", "in", "instant", "before", "after",
    "set_eq", "includes", "excludes", "within", "any", "none", "len", "gte", "lte", "exists", "text", "cell", "csv_row",
    "table_rows", "num", "claims",
    "same_bytes_as",
}  # fmt: skip

#: The declared transforms a file may carry of its source (``"as"`` of ``same_bytes_as``): ``bytes``, the
#: same bytes; ``text``, the source document's text as a UTF-8 text file (what Drive's read-file saves),
#: compared with white space folded.
TRANSFORMS = ("bytes", "text")

_BLOB_ID = re.compile(r"sha256:[0-9a-f]{64}")
_SOURCE_KEYS = {"blob", "app", "collection", "id", "attachment", "field", "as"}


#: The world's blobs while a grade runs, for the document operators.
_BLOBS: contextvars.ContextVar[BlobStore | None] = contextvars.ContextVar("grading_blobs", default=None)
#: The final world while a grade runs, for the ``claims`` operator (its directory gives the people).
_WORLD: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("grading_world", default=None)
#: The seed world's snapshot while a grade runs, where ``same_bytes_as`` finds its source.
_SEED: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("grading_seed", default=None)


@contextlib.contextmanager
def using_blobs(blobs: BlobStore | None, seed: dict[str, Any] | None = None) -> Iterator[None]:
    """Let the document operators read ``blobs``, and ``same_bytes_as`` the ``seed`` snapshot, while the block runs.

    Set per task, thread and coroutine.
    """
    token, seed_token = _BLOBS.set(blobs), _SEED.set(seed)
    try:
        yield
    finally:
        _SEED.reset(seed_token)
        _BLOBS.reset(token)


@contextlib.contextmanager
def using_world(world: dict[str, Any] | None) -> Iterator[None]:
    """Let the ``claims`` operator read people from ``world`` (a snapshot) while the block runs."""
    token = _WORLD.set(world)
    try:
        yield
    finally:
        _WORLD.reset(token)
def current_world() -> dict[str, Any] | None:
    """The final world of the grade under way (:func:`using_world`), or None outside one."""
    return _WORLD.get()


def resolved_claims(claims: Any) -> Any:
    """``claims`` with each ``value_of`` read from the records the session made (final world less seed world)."""

    def made(spec: dict[str, Any]) -> list[str]:
        final = (_WORLD.get() or {}).get(spec["app"], {}).get(spec["collection"], {})
        seed = (_SEED.get() or {}).get(spec["app"], {}).get(spec["collection"], {})
        return [
            str(rec[spec["field"]])
            for rid, rec in final.items()
            if rid not in seed and isinstance(rec, dict) and rec.get(spec["field"])
            and match_where(rec, spec.get("where", {}))
        ]  # fmt: skip

    return resolve_value_of(claims, made)


def check_source(source: Any, where_name: str) -> None:
    """Refuse a ``same_bytes_as`` source that is not one of the forms in the module docstring.

    Raises:
        ValueError: naming ``where_name`` and what is wrong.
    """
    label = f"{where_name}.same_bytes_as"
    if isinstance(source, str):
        if not _BLOB_ID.fullmatch(source):
            raise ValueError(f'{label}: a blob id is "sha256:<64 hex digits>", or name a record of the world')
        return
    if not isinstance(source, dict):
        raise ValueError(f"{label}: a blob id or {{'app', 'collection', 'id', ...}}")
    unknown = set(source) - _SOURCE_KEYS
    if unknown:
        raise ValueError(f"{label}: unknown keys {sorted(unknown)}; keys: {sorted(_SOURCE_KEYS)}")
    if source.get("as", "bytes") not in TRANSFORMS:
        raise ValueError(f"{label}: 'as' is one of {list(TRANSFORMS)}, not {source['as']!r}")
    if "blob" in source:
        if set(source) - {"blob", "as"}:
            raise ValueError(f"{label}: give either 'blob' or a record ('app', 'collection', 'id'), not both")
        check_source(source["blob"], where_name)
        return
    for key in ("app", "collection", "id"):
        if not isinstance(source.get(key), str) or not source[key]:
            raise ValueError(f"{label}: a record source names its 'app', 'collection' and 'id'")
    if "attachment" in source and "field" in source:
        raise ValueError(f"{label}: give 'attachment' or 'field', not both")
    for key in ("attachment", "field"):
        if key in source and (not isinstance(source[key], str) or not source[key]):
            raise ValueError(f"{label}: '{key}' is a non-empty string")


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
    if op in ("set_eq", "includes", "excludes", "within"):
        got_set, want = _as_set(value), {_fold(a) for a in arg}
        if got_set is None:
            return op in ("excludes", "within") and value is None
        if op == "within":
            return got_set <= want
        return got_set == want if op == "set_eq" else want <= got_set if op == "includes" else not (want & got_set)
    if op in ("any", "none"):
        items = value if isinstance(value, list) else []
        found = any(isinstance(i, dict) and match_where(i, arg) for i in items)
        return found if op == "any" else not found
    if op == "len":
        return isinstance(value, list | str) and len(value) == arg
    if op == "num":
        number = _number(value)
        return number is not None and abs(number - float(arg)) < _NUM_TOLERANCE
    if op in ("gte", "lte"):
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        return bool(value >= arg if op == "gte" else value <= arg)
    if op == "claims":
        return read_claims(value, resolved_claims(arg), _WORLD.get()).passed
    if op == "exists":
        present = value not in (None, "", [], {})
        return present == bool(arg)
    if op == "same_bytes_as":
        return _same_bytes(value, arg)
    return _document_op(op, value, arg)


def _source_blob(source: Any) -> str | None:
    """The blob id a ``same_bytes_as`` source names, read in the seed world; None when it names none."""
    if isinstance(source, str):
        return source
    if not isinstance(source, dict):
        return None
    if "blob" in source:
        return _source_blob(source["blob"])
    seed = _SEED.get() or {}
    app, collection, rid = (str(source.get(key, "")) for key in ("app", "collection", "id"))
    record = seed.get(app, {}).get(collection, {}).get(rid)
    if not isinstance(record, dict):
        return None
    if "attachment" in source:
        items = record.get("attachments")
        want = source["attachment"]
        hit = next(
            (a for a in items if isinstance(a, dict) and want in (a.get("id"), a.get("filename"), a.get("name"))), None
        ) if isinstance(items, list) else None  # fmt: skip
        blob = hit.get("blob") if hit is not None else None
    else:
        blob = value_at(record, source.get("field", "blob"))
    return blob if isinstance(blob, str) and _BLOB_ID.fullmatch(blob) else None


def _same_bytes(value: Any, source: Any) -> bool:
    """Whether blob id ``value`` carries the bytes of ``source`` (or its declared transform)."""
    origin = _source_blob(source)
    if origin is None or not isinstance(value, str):
        return False
    how = source.get("as", "bytes") if isinstance(source, dict) else "bytes"
    if how == "bytes":
        return value == origin  # blob ids are content hashes: the same id is the same bytes
    data, original = _blob(value), _blob(origin)
    if data is None or original is None:
        return False
    try:
        got = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    want = extract_text(original)
    return bool(want.strip()) and _fold(got) == _fold(want)


#: How far a ``num`` value may be from its argument: under half a cent, so 412.5 and "$412.50" match and 412.51 not.
_NUM_TOLERANCE = 0.005
_NUMBER_TEXT = re.compile(r"\s*([-+]?)\s*[$€£]?\s*([-+]?)(\d{1,3}(?:,\d{3})+|\d+)?(\.\d+)?\s*")


def _number(value: Any) -> float | None:
    """A number, or text that is one number (``"1,234.50"``, ``"$412.5"``, ``"-3"``); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    found = _NUMBER_TEXT.fullmatch(value)
    if found is None or not (found.group(3) or found.group(4)):
        return None
    sign = "-" if "-" in (found.group(1) + found.group(2)) else ""
    return float(sign + (found.group(3) or "0").replace(",", "") + (found.group(4) or ""))


def _table_rows(data: bytes, arg: dict[str, Any]) -> bool:
    """Whether one table of the document has a row of its own matching each of ``arg["rows"]``.

    Headings are matched with case and white space folded (``"total "`` is ``"Total"``). With ``arg["only"]``,
    no other row may be left but one matching each of ``arg["optional"]`` (a grand total the request did not
    rule out); ``arg["table"]`` names the table (a sheet's title), else any table counts. With
    ``arg["packed"]`` the file must be a real workbook or .docx (a zip), not CSV text under a workbook's name.
    """
    if arg.get("packed") and not data.startswith(b"PK"):
        return False
    for name, table in document_tables(data):
        if arg.get("table") is not None and _fold(name) != _fold(arg["table"]):
            continue
        free = [{_fold(k): v for k, v in row.items()} for row in table]
        for want in arg["rows"]:
            where = {_fold(k): v for k, v in want.items()}
            hit = next((row for row in free if match_where(row, where)), None)
            if hit is None:
                break
            free.remove(hit)
        else:
            for extra in arg.get("optional", []):  # a row that may be there too (a grand total), once each
                where = {_fold(k): v for k, v in extra.items()}
                hit = next((row for row in free if match_where(row, where)), None)
                if hit is not None:
                    free.remove(hit)
            if not (arg.get("only") and free):
                return True
    return False


def _blob(value: Any) -> bytes | None:
    blobs = _BLOBS.get()
    if blobs is None or not isinstance(value, str) or value not in blobs:
        return None
    return blobs.get(value)


def _document_op(op: str, value: Any, arg: Any) -> bool:
    data = _blob(value)
    if data is None:
        return False
    if op == "text":  # blob ids are content hashes: a blob's text is read once and shared (tools' text cache)
        return match_value(blob_text(_BLOBS.get(), value, ""), arg)
    if op == "cell":
        return match_value(read_cell(data, arg["sheet"], arg["ref"]), arg["match"])
    if op == "csv_row":
        return any(match_where(row, arg) for row in csv_rows(data))
    if op == "table_rows":
        return _table_rows(data, arg)
    raise AssertionError(op)  # unreachable: OPS is checked before
