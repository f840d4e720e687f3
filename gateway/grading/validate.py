"""Checking a task's checks and allowed changes when the task is loaded, before any session uses them."""

from __future__ import annotations

import typing
from types import SimpleNamespace
from typing import Any

from gateway.grading.answers import ANSWER_KINDS
from gateway.grading.changes import CHANGE_KINDS
from gateway.grading.messages import validate_claims
from gateway.grading.operators import OPS, check_source
from gateway.grading.patterns import check_pattern
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
        check_pattern(spec["regex"], f"{where_name}.regex")
    if "claims" in spec:
        validate_claims(spec["claims"], where_name)
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
    if "table_rows" in spec:
        table = spec["table_rows"]
        rows = table.get("rows") if isinstance(table, dict) else None
        optional = table.get("optional", []) if isinstance(table, dict) else []
        if (not isinstance(rows, list) or not rows or not isinstance(optional, list)
                or set(table) - {"table", "rows", "only", "packed", "optional"}):  # fmt: skip
            raise ValueError(
                f'{where_name}.table_rows: write {{"rows": [{{"column": matcher, ...}}, ...], "table": optional sheet '
                'or table name, "only": optional true (no other rows), "packed": optional true (a real workbook or '
                '.docx, not CSV text), "optional": optional rows that may be there too}'
            )
        for n, where in enumerate(rows):
            _validate_where(where, None, f"{where_name}.table_rows.rows[{n}]")
        for n, where in enumerate(optional):
            _validate_where(where, None, f"{where_name}.table_rows.optional[{n}]")
    if "num" in spec and (not isinstance(spec["num"], int | float) or isinstance(spec["num"], bool)):
        raise ValueError(f"{where_name}.num: give a number, e.g. 412.5")
    if "same_bytes_as" in spec:
        check_source(spec["same_bytes_as"], where_name)


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
            if "expect" in chk:
                _validate_answer(chk, known_apps, label)
                continue
            if set(chk) - {"name", "kind", "match"} or not isinstance(chk.get("match"), dict):
                raise ValueError(f"{label}: an answer check has 'name', 'kind' and 'expect' (or a 'match' object)")
            _validate_matcher(chk["match"], f"{label}.match")
            continue
        if kind == "outcome":
            _validate_outcome(chk, known_apps, label)
            continue
        if kind == "any_of":
            subs = chk.get("checks")
            if set(chk) - {"name", "kind", "checks"} or not isinstance(subs, list) or len(subs) < 2:
                raise ValueError(f"{label}: an any_of check has 'name', 'kind' and 'checks' (two or more ways)")
            inner = SimpleNamespace(apps=list(known_apps), checks=subs, allowed_changes=[])
            validate_checks(inner)
            continue
        if kind not in ("record", "no_record"):
            kinds = "'record', 'no_record', 'outcome', 'any_of' or 'answer'"
            raise ValueError(f"{label}: kind must be {kinds}, not {kind!r}")
        extra = set(chk) - {"name", "kind", "app", "collection", "where", "count", "new", "changed"}
        if extra:
            raise ValueError(f"{label}: unknown keys {sorted(extra)}")
        _validate_place(chk, known_apps, label)
    for n, rule in enumerate(task.allowed_changes):
        label = f"allowed_changes[{n}]"
        extra = set(rule) - {"app", "collection", "kinds", "where", "fields", "values", "added", "removed", "count"}
        if extra:
            raise ValueError(f"{label}: unknown keys {sorted(extra)}")
        count = rule.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValueError(f"{label}: count must be a whole number of records, at least 1")
        for key in ("values", "added", "removed"):
            if not isinstance(rule.get(key, {}), dict):
                raise ValueError(f"{label}: {key} maps field names to matchers")
            for field_name, spec in rule.get(key, {}).items():
                if key == "values":
                    _validate_matcher(spec, f"{label}.{key}.{field_name}")
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


def _validate_answer(chk: dict[str, Any], known_apps: set[str], label: str) -> None:
    extra = set(chk) - {"name", "kind", "expect", "candidates", "pairs", "order"}
    if extra:
        raise ValueError(f"{label}: unknown keys {sorted(extra)}")
    expect = chk["expect"]
    values = [item.get("value") for item in expect if isinstance(item, dict)]
    for pair in chk.get("pairs", []):
        if not isinstance(pair, list) or len(pair) != 2 or not all(v in values for v in pair):
            raise ValueError(f"{label}.pairs: each pair is [value, value] of two expected values")
    if "order" in chk and (not isinstance(chk["order"], list) or not all(v in values for v in chk["order"])):
        raise ValueError(f"{label}.order: a list of expected values")
    if not isinstance(expect, list) or not expect:
        raise ValueError(f"{label}: expect is a non-empty list of {{'kind', 'value'}}")
    candidates = chk.get("candidates", {})
    for m, item in enumerate(expect):
        if not isinstance(item, dict) or set(item) != {"kind", "value"} or item["kind"] not in ANSWER_KINDS:
            raise ValueError(f"{label}.expect[{m}]: {{'kind': one of {list(ANSWER_KINDS)}, 'value': ...}}")
        if item["kind"] == "number" and (not isinstance(item["value"], int | float) or isinstance(item["value"], bool)):
            raise ValueError(f"{label}.expect[{m}]: a number's value is a JSON number")
        if item["kind"] in ("id", "text") and not candidates.get(item["kind"]):
            kind = item["kind"]
            raise ValueError(f"{label}: expecting an {kind} needs candidates.{kind} (pattern, values or from)")
    for kind, spec in candidates.items():
        keys = {"pattern", "values", "from", "unit", "role_words"}
        if kind not in ANSWER_KINDS or not isinstance(spec, dict) or set(spec) - keys:
            kinds = list(ANSWER_KINDS)
            raise ValueError(f"{label}.candidates.{kind}: {{'pattern', 'values' or 'from'}} for one of {kinds}")
        if spec.get("unit", "") not in ("", "%", "$") or ("unit" in spec and kind != "number"):
            raise ValueError(f"{label}.candidates.{kind}.unit: '%' or '$', for numbers only")
        if "pattern" in spec:
            check_pattern(spec["pattern"], f"{label}.candidates.{kind}.pattern")
        if "from" in spec:
            source = spec["from"]
            fields = _validate_place(source, known_apps, f"{label}.candidates.{kind}.from")
            if fields is not None and source.get("field") not in fields:
                raise ValueError(f"{label}.candidates.{kind}.from: unknown field {source.get('field')!r}")


def _validate_outcome(chk: dict[str, Any], known_apps: set[str], label: str) -> None:
    extra = set(chk) - {"name", "kind", "app", "outcome", "args", "match"}
    if extra:
        raise ValueError(f"{label}: unknown keys {sorted(extra)}")
    app = chk.get("app")
    if app not in known_apps:
        raise ValueError(f"{label}: app {app!r} is not enabled by the task ({sorted(known_apps)})")
    outcomes = REGISTRY.apps[app].outcomes
    if chk.get("outcome") not in outcomes:
        raise ValueError(f"{label}: {app} has no outcome {chk.get('outcome')!r}; outcomes: {sorted(outcomes)}")
    if not isinstance(chk.get("args", {}), dict) or "match" not in chk:
        raise ValueError(f"{label}: an outcome check has 'args' (an object) and a 'match'")
    _validate_matcher(chk["match"], f"{label}.match")
