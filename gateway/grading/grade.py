"""Grade a session: run every check on the final snapshot and the collateral check on the diff."""

from __future__ import annotations

from typing import Any

from gateway.grading.changes import collateral, diff
from gateway.grading.operators import match_value, match_where, using_blobs
from gateway.grading.results import CheckResult, Grade
from tools.kernel.blobs import BlobStore

__all__ = ["grade"]


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
    with using_blobs(blobs):
        return _grade(checks, allowed, initial, final, answer)


def _grade(checks: list[dict[str, Any]], allowed: list[dict[str, Any]], initial: dict[str, Any],
           final: dict[str, Any], answer: str | None) -> Grade:  # fmt: skip
    changes = diff(initial, final)
    changed_ids = {(c.app, c.collection, c.id) for c in changes if c.kind != "delete"}
    results = [_run_check(chk, initial, final, changed_ids, answer) for chk in checks]
    results.append(collateral(changes, allowed))
    reward = 1.0 if all(r.passed for r in results) else 0.0
    return Grade(reward, results)


def _run_check(chk: dict[str, Any], initial: dict[str, Any], final: dict[str, Any],
               changed: set[tuple[str, str, str]], answer: str | None) -> CheckResult:  # fmt: skip
    name = chk["name"]
    if chk["kind"] == "answer":
        text = answer or ""
        ok = match_value(text, chk["match"])
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
        if match_where(rec, chk.get("where", {})):
            hits.append(rid)
    scope = "new " if chk.get("new") else "changed " if chk.get("changed") else ""
    if chk["kind"] == "no_record":
        ok = not hits
        return CheckResult(name, ok, f"{len(hits)} matching {scope}{app}.{coll} record(s), expected none")
    want = chk.get("count")
    ok = len(hits) == want if want is not None else len(hits) >= 1
    expect = f"exactly {want}" if want is not None else "at least 1"
    return CheckResult(name, ok, f"{len(hits)} matching {scope}{app}.{coll} record(s), expected {expect}")


