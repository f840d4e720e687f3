"""Refusing a malformed message claim when a row loads: :func:`validate_claims` names the field that is wrong.

The claims themselves are read by :mod:`gateway.grading.messages` (its docstring says what each kind asserts).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gateway.grading import wording as w
from gateway.grading.patterns import check_pattern

__all__ = ["CLAIM_KINDS", "resolve_value_of", "validate_claims"]

#: The kinds of claim a message may be asked to make.
CLAIM_KINDS = ("choice", "person", "time", "fixed", "attached", "states", "declines")


def validate_claims(spec: Any, where_name: str) -> None:
    """Refuse a malformed ``claims`` spec, naming the field (``<where_name>.claims.value: ...``).

    Raises:
        ValueError: naming the field and what is wrong.
    """
    if isinstance(spec, list):
        if not spec:
            raise ValueError(f"{where_name}.claims: a claim or a non-empty list of claims")
        for n, claim in enumerate(spec):
            _validate_claim(claim, f"{where_name}.claims[{n}]")
        return
    _validate_claim(spec, f"{where_name}.claims")


def _validate_claim(claim: Any, name: str) -> None:
    if not isinstance(claim, dict) or claim.get("kind") not in CLAIM_KINDS:
        raise ValueError(f"{name}.kind: one of {list(CLAIM_KINDS)}")
    kind = claim["kind"]
    if kind == "declines":
        _validate_declines(claim, name)
        return
    keys = {"kind", "detail"} | ({"value_of", "done"} if kind == "states" else {"value", "against"})
    keys |= {"cues", "ignore", "required"} if kind in ("choice", "person", "time") else set()
    keys |= {"candidates"} if kind in ("choice", "person") else set()
    if set(claim) - keys:
        raise ValueError(f"{name}: unknown keys {sorted(set(claim) - keys)}; keys: {sorted(keys)}")
    for field in ("detail", "against", "cues", "ignore", *(("candidates",) if kind == "person" else ())):
        items = claim.get(field, [])
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise ValueError(f"{name}.{field}: a list of strings")
        for rx in items if field in ("detail", "against", "cues") else []:
            check_pattern(rx, f"{name}.{field}")
    if kind == "states" and not claim.get("detail") and "value_of" not in claim:
        raise ValueError(f"{name}.detail: what the message states, a non-empty list of regexes (or value_of)")
    if "value_of" in claim:
        spec = claim["value_of"]
        if not isinstance(spec, dict) or set(spec) - {"app", "collection", "field", "where"} or not all(
            isinstance(spec.get(k), str) and spec[k] for k in ("app", "collection", "field")
        ) or not isinstance(spec.get("where", {}), dict):
            raise ValueError(f"{name}.value_of: {{'app', 'collection', 'field', optional 'where'}}")
    if not isinstance(claim.get("done", False), bool):
        raise ValueError(f"{name}.done: true (said as done: a detail put off, 'will be approved', is not said) "
                         "or false")
    if not isinstance(claim.get("required", True), bool):
        raise ValueError(f"{name}.required: true (it must state the value) or false (only not contradict it)")
    if kind in (*w.STATES, "states"):
        if not isinstance(claim.get("value", True), bool):
            raise ValueError(f"{name}.value: true (it is {kind}) or false (it is not)")
        return
    value = claim.get("value")
    given = value if isinstance(value, list) else [value]
    if not given or not all(isinstance(v, str) and v for v in given):
        raise ValueError(f"{name}.value: a string or a non-empty list of strings")
    values = [str(v) for v in given]
    if kind == "time" and not all(re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", v) for v in values):
        raise ValueError(f"{name}.value: a clock time 'HH:MM' (24-hour)")
    if kind == "person" and not all("@" in v for v in values):
        raise ValueError(f"{name}.value: a person's email address")
    if kind == "choice":
        cands = claim.get("candidates")
        if not isinstance(cands, list) or not cands or not all(_is_candidate(c) for c in cands):
            raise ValueError(f"{name}.candidates: a list of names, each a string or [name, alias, ...]")
        names = {c if isinstance(c, str) else c[0] for c in cands}
        if set(values) - names:
            raise ValueError(f"{name}.value: {sorted(set(values) - names)} not among the candidates' names")


def _validate_declines(claim: dict[str, Any], name: str) -> None:
    keys = {"kind", "value", "reason", "detail"}
    if set(claim) - keys:
        raise ValueError(f"{name}: unknown keys {sorted(set(claim) - keys)}; keys: {sorted(keys)}")
    if not isinstance(claim.get("value", True), bool):
        raise ValueError(f"{name}.value: true (it declines) or false (it does not)")
    for field in ("reason", "detail"):
        items = claim.get(field, [])
        if not isinstance(items, list) or not all(isinstance(i, str) and i for i in items):
            raise ValueError(f"{name}.{field}: a list of regexes")
        for rx in items:
            check_pattern(rx, f"{name}.{field}")
    if claim.get("value", True) and not claim.get("reason"):
        raise ValueError(f"{name}.reason: why it is declined, a non-empty list of regexes ('legal hold')")
    if claim.get("value") is False and claim.get("reason"):
        raise ValueError(f"{name}.reason: only for a message that declines (value true)")


def _is_candidate(cand: Any) -> bool:
    if isinstance(cand, str):
        return bool(cand.strip())
    return isinstance(cand, list) and bool(cand) and all(isinstance(f, str) and f.strip() for f in cand)


def resolve_value_of(
    claims: dict[str, Any] | list[dict[str, Any]], values: Callable[[dict[str, Any]], list[str]]
) -> dict[str, Any] | list[dict[str, Any]]:
    """``claims`` with each ``value_of`` replaced by a ``detail`` stating one of the values it names.

    Args:
        claims: A validated claim or list of claims.
        values: Given a ``value_of`` spec, the values of its field on the records made in the session that
            match it (empty: nothing was made, so nothing the message says can state it).
    """
    out = []
    for claim in claims if isinstance(claims, list) else [claims]:
        if "value_of" in claim:
            found = sorted(values(claim["value_of"]))
            said = "(?:" + "|".join(re.escape(v) for v in found) + r")(?![\w-])" if found else r"(?!x)x"
            claim = {k: v for k, v in claim.items() if k != "value_of"}
            claim["detail"] = [*claim.get("detail", []), said]
        out.append(claim)
    return out if isinstance(claims, list) else out[0]
