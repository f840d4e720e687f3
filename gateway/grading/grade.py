"""Grade a session: run every check on the final snapshot and the collateral check on the diff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.grading.answers import AnswerText, grade_answer
from gateway.grading.changes import Change, collateral, diff
from gateway.grading.freetext import disowned, summary_disowns
from gateway.grading.messages import contradictions, read_claims
from gateway.grading.operators import match_value, match_where, resolved_claims, using_blobs, using_world, value_at
from gateway.grading.results import CheckResult, Grade
from gateway.grading.scope import scope_of
from tools import REGISTRY
from tools.kernel.blobs import BlobStore

__all__ = ["Request", "grade"]


@dataclass(frozen=True)
class Request:
    """What the grade needs to know of the request: its words, the acting user, the world's year."""

    instruction: str = ""
    user: str = ""
    year: int = 2026


def grade(
    checks: list[dict[str, Any]],
    allowed: list[dict[str, Any]],
    initial: dict[str, Any],
    final: dict[str, Any],
    said: AnswerText | str | None,
    blobs: BlobStore | None = None,
    request: Request | None = None,
    changes: list[Change] | None = None,
) -> Grade:
    """Run every check on the final snapshot and the collateral check on the diff.

    Args:
        checks: The task's checks (validated by :func:`validate_checks`).
        allowed: The task's allowed-change rules.
        initial: Snapshot taken at seed.
        final: Snapshot taken at verify.
        said: What the session said at the end (answer, summary, response); a plain string is a summary.
        blobs: The final world's file bytes, for the document operators.
        request: The instruction, user and year, for answer checks (values the request names are its
            subjects, never extra claims) and for what a new record may hold beyond its rule (the people
            the request names and the acting user are involved; see :mod:`gateway.grading.scope`).
        changes: ``diff(initial, final)`` when the caller already has it (it is worked out here otherwise).

    Returns:
        The reward (1.0 or 0.0) and one result per check, collateral check last.
    """
    if not isinstance(said, AnswerText):
        said = AnswerText(summary=said)
    with using_blobs(blobs, initial), using_world(final):
        changes = diff(initial, final) if changes is None else changes
        changed_ids = {(c.app, c.collection, c.id) for c in changes if c.kind != "delete"}
        request = request or Request()
        results = [_run_check(chk, initial, final, changed_ids, said, request) for chk in checks]
        scope = None  # what the task involves bounds new records only
        if any(c.kind == "add" for c in changes):
            scope = scope_of(initial, final, checks, allowed, request.instruction, request.user, request.year)
        results.append(collateral(changes, allowed, scope))
        said_against = disowned(changes, checks, allowed, initial, request.instruction, request.year)
        if not any(c["kind"] == "answer" for c in checks) and (why := summary_disowns(said.summary, checks, allowed)):
            said_against.append(f"the summary {why}")  # "Approved HD-6933." beside a refusal
        if said_against:  # free text beside the work that disowns it: not the work asked for
            last = results[-1]
            more = f"; and {len(said_against) - 3} more" if len(said_against) > 3 else ""
            shown = "; ".join(said_against[:3]) + more
            detail = f"{last.detail}; " if not last.passed else ""
            results[-1] = CheckResult(last.name, False, f"{detail}text written beside the work disowns it: {shown}")
    reward = 1.0 if all(r.passed for r in results) else 0.0
    return Grade(reward, results)


def _run_check(chk: dict[str, Any], initial: dict[str, Any], final: dict[str, Any],
               changed: set[tuple[str, str, str]], said: AnswerText, request: Request) -> CheckResult:  # fmt: skip
    name = chk["name"]
    if chk["kind"] == "answer":
        if "expect" in chk:
            return grade_answer(chk, said, request.instruction, final, request.user, request.year)
        text, source = said.graded()
        ok = match_value(text, chk["match"])
        shown = (text[:80] + "...") if len(text) > 80 else text
        claims = chk["match"].get("claims") if isinstance(chk["match"], dict) else None
        against = contradictions(said.summary, resolved_claims(claims), final) if claims and source == "answer" else []
        if ok and against:  # the summary may not say the opposite of the answer
            return CheckResult(name, False, f"the summary contradicts the answer: {against[0]}")
        return CheckResult(name, ok, f"final answer {'matches' if ok else 'does not match'}: {shown!r}")
    if chk["kind"] == "outcome":
        return _outcome(chk, final)
    if chk["kind"] == "any_of":
        results = [_run_check(sub, initial, final, changed, said, request) for sub in chk["checks"]]
        passed = [r for r in results if r.passed]
        first = passed[0] if passed else results[0]
        return CheckResult(name, bool(passed), f"one of {len(results)} ways: {first.detail}")
    app, coll = chk["app"], chk["collection"]
    records = final.get(app, {}).get(coll, {})
    before = initial.get(app, {}).get(coll, {})
    hits, eligible = [], []
    where = chk.get("where", {})
    named = where.get("id")
    # a record's key is its id (every app stores it so): a check naming one id reads that record alone
    keys = ([named] if named in records else []) if isinstance(named, str) else records
    if records is before and (chk.get("new") or chk.get("changed")):
        keys = []  # the collection is the template's own (never written): nothing in it is new or changed
    for rid in keys:
        rec = records[rid]
        if chk.get("new") and rid in before:
            continue
        if chk.get("changed") and (app, coll, rid) not in changed:
            continue
        eligible.append(rid)
        if match_where(rec, where):
            hits.append(rid)
    scope = "new " if chk.get("new") else "changed " if chk.get("changed") else ""
    if chk["kind"] == "no_record":
        ok = not hits
        return CheckResult(name, ok, f"{len(hits)} matching {scope}{app}.{coll} record(s), expected none")
    want = chk.get("count")
    ok = len(hits) == want if want is not None else len(hits) >= 1
    expect = f"exactly {want}" if want is not None else "at least 1"
    why = "" if ok else _claims_missed(where, records, eligible, final)
    return CheckResult(name, ok, f"{len(hits)} matching {scope}{app}.{coll} record(s), expected {expect}{why}")


def _claims_missed(where: dict[str, Any], records: dict[str, Any], eligible: list[str], final: dict[str, Any]) -> str:
    """Why the messages that match everything but their ``claims`` fail them (at most three)."""
    claimed = {path: spec["claims"] for path, spec in where.items() if isinstance(spec, dict) and "claims" in spec}
    rest = {path: spec for path, spec in where.items() if path not in claimed}
    notes = []
    for rid in eligible:
        if match_where(records[rid], rest):
            for path, claims in claimed.items():
                verdict = read_claims(value_at(records[rid], path), resolved_claims(claims), final)
                if not verdict.passed:
                    notes.append(f"{rid}.{path} {verdict.reason}")
    return "".join(f"; {note}" for note in notes[:3])




def _outcome(chk: dict[str, Any], final: dict[str, Any]) -> CheckResult:
    """An outcome the user wants, computed by the app from its final state (e.g. effective access)."""
    app, name = chk["app"], chk["outcome"]
    registered = REGISTRY.apps[app]
    value = registered.outcomes[name](registered.state_from(final.get(app, {})), **chk.get("args", {}))
    ok = match_value(value, chk["match"])
    return CheckResult(chk["name"], ok, f"{app} {name} is {value!r}; {'as' if ok else 'not as'} wanted")
