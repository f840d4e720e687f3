"""Checking a task's checks and allowed changes when the task is loaded, before any session uses them."""

from __future__ import annotations

import re
import typing
from typing import Any

from gateway.grading.changes import CHANGE_KINDS
from gateway.grading.operators import OPS
from tools import REGISTRY

__all__ = ["validate_checks"]


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
    unknown = set(spec) - OPS
    if unknown:
        raise ValueError(
            f"{where_name}: unknown operators {sorted(unknown)}; operators: {sorted(OPS)} "
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
        if not set(rule.get("kinds", [])) <= CHANGE_KINDS:
            raise ValueError(f"{label}: kinds must be among {sorted(CHANGE_KINDS)}")
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
