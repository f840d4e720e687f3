"""Deterministic grading: declarative checks on the final world, plus a collateral-damage check.

Grading compares two snapshots (``World.snapshot()``: ``{app: {collection:
{id: record}}}`` in JSON values) taken at seed and at verify. No model judges.

Checks (each has a ``name``)::

    {"kind": "record", "app", "collection", "where": {...}, "count": n or absent, "new": bool, "changed": bool}
        passes when the records matching ``where`` number exactly ``count`` (at least 1 when absent).
        ``new``: only records absent at seed; ``changed``: only records added or modified since seed.
    {"kind": "no_record", "app", "collection", "where": {...}, "new": bool, "changed": bool}
        passes when no record matches.
    {"kind": "answer", "match": {<op>: value, ...}}
        matches the final text: the summary given to complete_task, else the ``response`` sent to /verify.

``where`` maps a dotted field path (``"attendees"``, ``"permissions"``, ``"start"``) to
a plain value (exact equality) or to an object of operators, all of which must hold:

    eq, ne                 exact (in)equality
    ieq                    equal after folding case and white space
    contains, not_contains text contains (folded); on a list: some item equals (folded)
    regex                  Python regular expression, searched case-insensitively
    in                     value is one of a list (folded for text)
    instant, before, after compare ISO 8601 instants as instants (offsets normalised)
    set_eq, includes, excludes   a list compared as a set of folded values
    any, none              a list of objects: some / no item matches the nested ``where``
    len, gte, lte          length of a list or text; numeric comparison
    exists                 true: value present and not empty; false: absent or empty
    text                   the value is a blob id: the document's text (.docx, .xlsx, .pdf, CSV, plain)
                           matched by a nested matcher, e.g. {"text": {"contains": "INV-20417"}}
    cell                   a blob id of a workbook: {"sheet": "Q1", "ref": "B2", "match": matcher}
    csv_row                a blob id of a CSV file: some row matches {"column": matcher, ...}

Allowed changes (``allowed_changes``): every difference between the two snapshots must
match one rule ``{"app", "collection", "kinds": ["add", "update", "delete"], "where": {...},
"fields": [...]}`` (``where`` is matched on the record after an add/update and before a
delete; ``fields``, when given, lists the only fields an update may change). Any other
difference fails the ``no_unexpected_changes`` check.

The reward is 1.0 when every check passes, else 0.0.
"""

from __future__ import annotations

import contextvars
import re
import typing
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tools import REGISTRY
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import csv_rows, extract_text, read_cell

__all__ = ["CheckResult", "Grade", "diff", "grade", "validate_checks"]

_OPS = {
    "eq", "ne", "ieq", "contains", "not_contains", "regex", "in", "instant", "before", "after",
    "set_eq", "includes", "excludes", "any", "none", "len", "gte", "lte", "exists", "text", "cell", "csv_row",
}  # fmt: skip

#: The world's blobs while a grade runs, for the document operators.
_BLOBS: contextvars.ContextVar[BlobStore | None] = contextvars.ContextVar("grading_blobs", default=None)
_CHANGE_KINDS = {"add", "update", "delete"}


@dataclass(frozen=True)
class CheckResult:
    """One check's outcome, as reported by ``/verify``."""

    name: str
    passed: bool
    detail: str

    def as_dict(self) -> dict[str, Any]:
        """``{"name", "passed", "detail"}``."""
        return {"name": self.name, "passed": self.passed, "detail": self.detail}


@dataclass(frozen=True)
class Grade:
    """The reward and the checks behind it."""

    reward: float
    checks: list[CheckResult]


@dataclass(frozen=True)
class Change:
    """One difference between two snapshots."""

    app: str
    collection: str
    id: str
    kind: str  # add | update | delete
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    fields: tuple[str, ...]

    def describe(self) -> str:
        """e.g. ``gmail.messages[msg_n2] add`` or ``drive.files[f12] update (name, parent_id)``."""
        what = f" ({', '.join(self.fields)})" if self.kind == "update" else ""
        return f"{self.app}.{self.collection}[{self.id}] {self.kind}{what}"


def diff(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every record added, removed or modified between two snapshots, sorted by place."""
    changes: list[Change] = []
    for app in sorted(set(before) | set(after)):
        b_app, a_app = before.get(app, {}), after.get(app, {})
        for coll in sorted(set(b_app) | set(a_app)):
            b_coll, a_coll = b_app.get(coll, {}), a_app.get(coll, {})
            for rid in sorted(set(b_coll) | set(a_coll)):
                b, a = b_coll.get(rid), a_coll.get(rid)
                if b == a:
                    continue
                if b is None:
                    changes.append(Change(app, coll, rid, "add", None, a, ()))
                elif a is None:
                    changes.append(Change(app, coll, rid, "delete", b, None, ()))
                else:
                    fields = tuple(sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k)))
                    changes.append(Change(app, coll, rid, "update", b, a, fields))
    return changes


def grade(checks: list[dict[str, Any]], allowed: list[dict[str, Any]], initial: dict[str, Any],
          final: dict[str, Any], answer: str | None, blobs: BlobStore | None = None) -> Grade:  # fmt: skip
    """Run every check on the final snapshot and the collateral check on the diff.

    Args:
        checks: The task's checks (validated by :func:`validate_checks`).
        allowed: The task's allowed-change rules.
        initial: Snapshot taken at seed.
        final: Snapshot taken at verify.
        answer: The final text (complete_task summary or the verify response), if any.
        blobs: The final world's file bytes, for the document operators.

    Returns:
        The reward (1.0 or 0.0) and one result per check, collateral check last.
    """
    token = _BLOBS.set(blobs)
    try:
        return _grade(checks, allowed, initial, final, answer)
    finally:
        _BLOBS.reset(token)


def _grade(checks: list[dict[str, Any]], allowed: list[dict[str, Any]], initial: dict[str, Any],
           final: dict[str, Any], answer: str | None) -> Grade:  # fmt: skip
    changes = diff(initial, final)
    changed_ids = {(c.app, c.collection, c.id) for c in changes if c.kind != "delete"}
    results = [_run_check(chk, initial, final, changed_ids, answer) for chk in checks]
    results.append(_collateral(changes, allowed))
    reward = 1.0 if all(r.passed for r in results) else 0.0
    return Grade(reward, results)


def _run_check(chk: dict[str, Any], initial: dict[str, Any], final: dict[str, Any],
               changed: set[tuple[str, str, str]], answer: str | None) -> CheckResult:  # fmt: skip
    name = chk["name"]
    if chk["kind"] == "answer":
        text = answer or ""
        ok = _match_value(text, chk["match"])
        shown = (text[:80] + "...") if len(text) > 80 else text
        return CheckResult(name, ok, f"final answer {'matches' if ok else 'does not match'}: {shown!r}")
    app, coll = chk["app"], chk["collection"]
    records = final.get(app, {}).get(coll, {})
    before = initial.get(app, {}).get(coll, {})
    hits = []
    for rid, rec in records.items():
        if chk.get("new") and rid in before:
            continue
        if chk.get("changed") and (app, coll, rid) not in changed:
            continue
        if _match_where(rec, chk.get("where", {})):
            hits.append(rid)
    scope = "new " if chk.get("new") else "changed " if chk.get("changed") else ""
    if chk["kind"] == "no_record":
        ok = not hits
        return CheckResult(name, ok, f"{len(hits)} matching {scope}{app}.{coll} record(s), expected none")
    want = chk.get("count")
    ok = len(hits) == want if want is not None else len(hits) >= 1
    expect = f"exactly {want}" if want is not None else "at least 1"
    return CheckResult(name, ok, f"{len(hits)} matching {scope}{app}.{coll} record(s), expected {expect}")


def _collateral(changes: list[Change], allowed: list[dict[str, Any]]) -> CheckResult:
    bad = [c for c in changes if not any(_allows(rule, c) for rule in allowed)]
    if not bad:
        return CheckResult("no_unexpected_changes", True, f"{len(changes)} change(s), all allowed")
    listed = "; ".join(c.describe() for c in bad[:5]) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
    return CheckResult("no_unexpected_changes", False, f"changes outside what was asked: {listed}")


def _allows(rule: dict[str, Any], change: Change) -> bool:
    if rule["app"] != change.app or rule["collection"] != change.collection:
        return False
    if change.kind not in rule.get("kinds", sorted(_CHANGE_KINDS)):
        return False
    if change.kind == "update" and "fields" in rule and not set(change.fields) <= set(rule["fields"]):
        return False
    record = change.before if change.kind == "delete" else change.after
    return _match_where(record or {}, rule.get("where", {}))


# ---- matching ---------------------------------------------------------------------------------


def _fold(value: Any) -> Any:
    return " ".join(value.lower().split()) if isinstance(value, str) else value


def _get(record: dict[str, Any], path: str) -> Any:
    cur: Any = record
    for part in path.split("."):
        if isinstance(cur, dict):
            cur = cur.get(part)
        elif isinstance(cur, list) and part.isdigit():
            cur = cur[int(part)] if int(part) < len(cur) else None
        else:
            return None
    return cur


def _match_where(record: dict[str, Any], where: dict[str, Any]) -> bool:
    return all(_match_value(_get(record, path), spec) for path, spec in where.items())


def _match_value(value: Any, spec: Any) -> bool:
    if not isinstance(spec, dict) or not spec or not set(spec) <= _OPS:
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
        found = any(isinstance(i, dict) and _match_where(i, arg) for i in items)
        return found if op == "any" else not found
    if op == "len":
        return isinstance(value, list | str) and len(value) == arg
    if op in ("gte", "lte"):
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        return value >= arg if op == "gte" else value <= arg
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
        return _match_value(extract_text(data), arg)
    if op == "cell":
        return _match_value(read_cell(data, arg["sheet"], arg["ref"]), arg["match"])
    if op == "csv_row":
        return any(_match_where(row, arg) for row in csv_rows(data))
    raise AssertionError(op)  # unreachable: _OPS is checked before


# ---- validation of a task's checks ----------------------------------------------------------


def _record_fields(app: str, collection: str) -> set[str] | None:
    """Field names of records in ``app.collection``; None when the collection does not exist."""
    state = REGISTRY.apps[app].state
    if collection == "_settings":
        return {n for n, f in state.model_fields.items() if typing.get_origin(f.annotation) is not dict}
    field = state.model_fields.get(collection)
    if field is None or typing.get_origin(field.annotation) is not dict:
        return None
    record_type = typing.get_args(field.annotation)[1]
    return set(record_type.model_fields)


def _validate_where(where: Any, fields: set[str] | None, where_name: str) -> None:
    if not isinstance(where, dict):
        raise ValueError(f"{where_name}: 'where' must be an object of field -> matcher")
    for path, spec in where.items():
        head = path.split(".")[0]
        if fields is not None and head not in fields:
            raise ValueError(f"{where_name}: unknown field {head!r}; fields: {sorted(fields)}")
        _validate_matcher(spec, f"{where_name}.{path}")


def _validate_matcher(spec: Any, where_name: str) -> None:
    """Refuse unknown operators (compare with an object through ``{"eq": {...}}``) and bad arguments."""
    if not isinstance(spec, dict) or not spec:
        return
    unknown = set(spec) - _OPS
    if unknown:
        raise ValueError(
            f"{where_name}: unknown operators {sorted(unknown)}; operators: {sorted(_OPS)} "
            '(to compare with an object, write {"eq": {...}})'
        )
    if "regex" in spec:
        try:
            re.compile(spec["regex"])
        except (re.error, TypeError) as exc:
            raise ValueError(f"{where_name}: regex {spec['regex']!r} does not compile ({exc})") from None
    for nested in ("any", "none", "csv_row"):
        if nested in spec:
            _validate_where(spec[nested], None, f"{where_name}.{nested}")
    for matcher_op in ("text",):
        if matcher_op in spec:
            _validate_matcher(spec[matcher_op], f"{where_name}.{matcher_op}")
    if "cell" in spec:
        cell = spec["cell"]
        if not isinstance(cell, dict) or not {"sheet", "ref", "match"} <= set(cell):
            raise ValueError(f'{where_name}.cell: write {{"sheet": ..., "ref": "B2", "match": ...}}')
        _validate_matcher(cell["match"], f"{where_name}.cell.match")


def validate_checks(task: Any) -> None:
    """Check that every check and allowed-change rule names real apps, collections, fields and operators.

    Raises:
        ValueError: naming the check and what is wrong.
    """
    known_apps = {*task.apps, "directory"}
    names: set[str] = set()
    for n, chk in enumerate(task.checks):
        label = f"checks[{n}]"
        name = chk.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"{label}: every check needs a 'name'")
        if name in names:
            raise ValueError(f"{label}: check name {name!r} repeats")
        names.add(name)
        kind = chk.get("kind")
        if kind == "answer":
            if set(chk) - {"name", "kind", "match"} or not isinstance(chk.get("match"), dict):
                raise ValueError(f"{label}: an answer check has 'name', 'kind' and a 'match' object")
            _validate_matcher(chk["match"], f"{label}.match")
            continue
        if kind not in ("record", "no_record"):
            raise ValueError(f"{label}: kind must be 'record', 'no_record' or 'answer', not {kind!r}")
        extra = set(chk) - {"name", "kind", "app", "collection", "where", "count", "new", "changed"}
        if extra:
            raise ValueError(f"{label}: unknown keys {sorted(extra)}")
        _validate_place(chk, known_apps, label)
    for n, rule in enumerate(task.allowed_changes):
        label = f"allowed_changes[{n}]"
        extra = set(rule) - {"app", "collection", "kinds", "where", "fields"}
        if extra:
            raise ValueError(f"{label}: unknown keys {sorted(extra)}")
        if not set(rule.get("kinds", [])) <= _CHANGE_KINDS:
            raise ValueError(f"{label}: kinds must be among {sorted(_CHANGE_KINDS)}")
        fields = _validate_place(rule, known_apps, label)
        if fields is not None and not set(rule.get("fields", [])) <= fields:
            raise ValueError(f"{label}: unknown fields {sorted(set(rule['fields']) - fields)}")


def _validate_place(item: dict[str, Any], known_apps: set[str], label: str) -> set[str] | None:
    app, coll = item.get("app"), item.get("collection")
    if app not in known_apps:
        raise ValueError(f"{label}: app {app!r} is not enabled by the task ({sorted(known_apps)})")
    fields = _record_fields(app, coll) if isinstance(coll, str) else None
    if fields is None:
        raise ValueError(f"{label}: {app} has no collection {coll!r}")
    _validate_where(item.get("where", {}), fields, label)
    return fields
