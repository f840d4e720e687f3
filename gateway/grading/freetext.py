"""The default reading of free text: what an agent writes beside its work must not disown that work.

A message check declares what a message must claim (:mod:`gateway.grading.messages`). Every other free
text of a record the session adds or changes (a forward's note, an event's description or an attendee's
comment, a reply to a file comment, a ticket comment, a chat message or file comment, a channel topic)
is read by default: it may say anything but disown the work the checks require. A text disowns it when
it takes itself back, tells the reader not to act on it, says it was not done, or calls it off
(:func:`gateway.grading.disowning.disowns`). So the right forward with the note "do NOT pay this", or the
right booking described as "cancelled", is not the work asked for; a note that adds honest context is.

Read: the fields named in :data:`FREE_TEXT_FIELDS`, at any depth of the record (``attendees[].comment``,
``replies[].body``), whose text is new (not the same text under the same field before the change).
A forward's note restates what it forwards: a date or clock time written in the note must be one the
forwarded message gives (its subject or text), so "the drill moved to March 14" on a notice for March 17
disowns it too.

The work's own polarity is read from the change: a change that sets a state such as ``declined``,
``cancelled`` or ``rejected`` (a declined invitation) agrees with a note saying "I can't make it", so only a
retraction disowns its text.

Not read: a field a check or rule of the row declares ``claims`` for on that app and collection (the
declared claim reads it, with its own polarity), text the seed world already holds under another record
(``Fwd: <the original subject>``), and text the request itself contains (the user's own words).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from gateway.grading import wording as w
from gateway.grading.answers import claims_of
from gateway.grading.changes import Change
from gateway.grading.disowning import disowns, retraction
from gateway.grading.kept import KeptByIdentity
from gateway.grading.messages import clock_times, contradictions, own_words
from gateway.grading.operators import OPS, current_world, match_where, resolved_claims

__all__ = ["FREE_TEXT_FIELDS", "NEGATIVE_STATES", "disowned", "summary_disowns"]

#: Fields holding free text a person reads: mail bodies and subjects, notes, comments, descriptions, topics,
#: and the names and titles of what the session makes ("VOID - do not use.pdf").
FREE_TEXT_FIELDS = frozenset(
    {"body", "text", "note", "comment", "message", "description", "topic", "purpose", "resolution", "subject", "title",
     "location", "name"}
)
#: States whose setting makes the work itself negative: a text saying so agrees with it.
NEGATIVE_STATES = frozenset({"declined", "cancelled", "canceled", "rejected", "withdrawn", "revoked", "archived"})
_PREFIX = re.compile(r"^(?:\s*(?:re|fwd?|aw|wg)\s*:\s*)+", re.IGNORECASE)


def _texts(value: Any, path: str = "") -> list[tuple[str, str]]:
    """``(dotted path, text)`` for every free-text string in a record, at any depth (``replies.body``), in order."""
    out: list[tuple[str, str]] = []
    _add_texts(value, path, out)
    return out


def _add_texts(value: Any, path: str, out: list[tuple[str, str]]) -> None:
    # strings are read in place (the field is the last part of the path: of the key's own, if it has dots)
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str):
                if f"{k}".rsplit(".", 1)[-1] in FREE_TEXT_FIELDS and v.strip():
                    out.append((f"{path}.{k}" if path else str(k), v))
            elif isinstance(v, dict | list):  # nothing else holds a text: no path made for it
                _add_texts(v, f"{path}.{k}" if path else str(k), out)
    elif isinstance(value, list):
        free = path.rsplit(".", 1)[-1] in FREE_TEXT_FIELDS
        for v in value:
            if isinstance(v, str):
                if free and v.strip():
                    out.append((path, v))
            elif isinstance(v, dict | list):
                _add_texts(v, path, out)
    elif isinstance(value, str) and path.rsplit(".", 1)[-1] in FREE_TEXT_FIELDS and value.strip():
        out.append((path, value))


def _values(value: Any, key: str = "") -> list[tuple[str, str]]:
    """``(field, value)`` for every string of a record outside its free-text fields (states, ids, names), in order."""
    out: list[tuple[str, str]] = []
    _add_values(value, key, out)
    return out


def _add_values(value: Any, key: str, out: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str | dict | list):  # nothing else holds a string
                _add_values(v, str(k), out)
    elif isinstance(value, list):
        for v in value:
            if isinstance(v, str | dict | list):
                _add_values(v, key, out)
    elif isinstance(value, str) and key not in FREE_TEXT_FIELDS:
        out.append((key, value))


Declared = dict[tuple[str, str, str], list[tuple[Any, dict[str, Any]]]]


def _declared(items: Iterable[dict[str, Any]]) -> Declared:
    """Every field a check or rule reads with ``claims``, at any depth, and what it must claim where.

    Returns:
        ``{(app, collection, dotted path): [(claims, scope)]}``; ``scope`` is the check's ``where`` without its
        ``claims``: the records the claim is about.
    """
    out: Declared = {}

    def walk(app: str, coll: str, value: Any, path: str, fields: bool, scope: dict[str, Any]) -> None:
        # ``fields``: the dict's keys are a record's fields (a rule's top level, an ``any`` item), never operators,
        # so a field named like an operator (a chat message's ``text``) is still a field
        if isinstance(value, dict):
            if "claims" in value and not fields:
                out.setdefault((app, coll, path), []).append((value["claims"], scope))
            for k, v in value.items():
                if k == "claims" and not fields:
                    continue
                op = k in OPS and not fields
                walk(app, coll, v, path if op else f"{path}.{k}" if path else str(k), k == "any" and op, scope)
        elif isinstance(value, list):
            for v in value:
                walk(app, coll, v, path, fields, scope)

    for item in items:
        if item.get("kind") == "any_of":
            for key, found in _declared(item.get("checks", [])).items():
                out.setdefault(key, []).extend(found)
        elif isinstance(item.get("app"), str) and isinstance(item.get("collection"), str):
            for part in (item.get("where"), item.get("values"), item.get("added")):
                scope = _without_claims(item.get("where") or {}) if part is item.get("where") else {}
                walk(item["app"], item["collection"], part, "", True, scope)
    return out


def _without_claims(where: Any) -> Any:
    """A ``where`` with every ``claims`` operator left out (a field holding nothing else is left out whole)."""
    if isinstance(where, list):
        return [_without_claims(v) for v in where]
    if not isinstance(where, dict):
        return where
    out = {}
    for k, v in where.items():
        if k == "claims":
            continue
        kept = _without_claims(v)
        if isinstance(v, dict) and v and not kept:
            continue
        out[k] = kept
    return out


def _contradicted(record: dict[str, Any], text: str, found: list[tuple[Any, dict[str, Any]]]) -> str:
    """How ``text`` (a declared field of ``record``) contradicts a claim about that record, or ``""``."""
    for claims, scope in found:
        if not match_where(record, scope):
            continue  # the claim is about another record (a channel post's, not the DM's)
        if said := contradictions(text, resolved_claims(claims), current_world()):
            return f"contradicts what it must say: {said[0]}"
    return ""


def summary_disowns(summary: Any, checks: list[dict[str, Any]], allowed: list[dict[str, Any]]) -> str:
    """How the closing summary of a session whose task asks no answer disowns the work, or ``""``.

    It may say anything but take itself back (``correction``), void itself (``test message, please ignore``),
    doubt the work (``not sure it worked``), or contradict what the row's messages must claim (``Approved
    HD-6933.`` beside a refusal, ``no-go`` beside a go). Run inside ``using_world(final)``.

    Args:
        summary: complete_task's ``summary`` (anything else than a string disowns nothing).
        checks: The row's checks; allowed: its allowed-change rules (where the claims are).
    """
    if not isinstance(summary, str) or not summary.strip():
        return ""
    if took_back := retraction(summary):
        return took_back
    if void := w.VOIDS.search(summary):
        return f"voids itself ({void.group(0).strip()!r})"
    if doubt := w.doubting(summary):
        return f"doubts it ({doubt!r})"
    for found in _declared([*checks, *allowed]).values():
        for claims, _ in found:
            if said := contradictions(summary, resolved_claims(claims), current_world()):
                return f"contradicts what the work must say: {said[0]}"
    return ""


#: ``_seeded``'s answers for the app worlds graded last. A task's sessions share its seed snapshot (never
#: changed), and tasks of one company often share an app's, so most grades read none; a few are kept alive
#: here (each a seed world an app's tools start from).
_SEEDED: KeptByIdentity[frozenset[str]] = KeptByIdentity(16)


def _seeded(initial: dict[str, Any], app: str) -> frozenset[str]:
    """Every free text of ``app`` in the seed world, without a reply or forward prefix, case folded."""
    world = initial.get(app)
    if not world:
        return frozenset()
    texts = _SEEDED.get(world)
    if texts is None:
        texts = frozenset(_PREFIX.sub("", t).strip().casefold() for _, t in _texts(world))
        _SEEDED.put(world, texts)
    return texts


def _misstated(change: Change, initial: dict[str, Any], year: int, instruction: str = "") -> str:
    """For a forward, how its note misstates it, or ``""``.

    It misstates it by a date or clock time that none of the messages the task involves gives, or by telling the
    readers it is not for them (``nothing to do here``, ``this will not affect any of you``). The messages the
    task involves: the forwarded message and its thread, the request itself, and the mail of the people the
    request names (a deadline the requester set in another mail may be cited beside the quote that meets it).
    """
    record = change.after or {}
    mails = initial.get(change.app, {}).get(change.collection, {})
    source = mails.get(str(record.get("forwarded_from") or ""))
    body = record.get("body")
    if not isinstance(source, dict) or not isinstance(body, str):
        return ""
    note, given = own_words(body), f"{source.get('subject', '')}\n{source.get('body', '')}"
    dismissed = w.DISMISSES.search(note)  # "nothing to do here": its readers told it is not for them
    if dismissed and not w.DISMISSES.search(given):  # unless the forwarded message says so itself
        return f"tells its readers the forwarded message is not for them ({dismissed.group(0)!r})"
    dates = claims_of("date", note, {}, {}, year) - claims_of("date", given, {}, {}, year)
    times = clock_times(note) - clock_times(given)
    if dates or times:  # not in the forwarded message: perhaps elsewhere in what the task involves
        named = claims_of("person", instruction, {}, initial, year) if instruction else set()
        thread = source.get("thread_id")
        involved = [instruction, *(f"{m.get('subject', '')}\n{m.get('body', '')}" for m in mails.values()
                                   if isinstance(m, dict) and m is not source and (
                                       (thread and m.get("thread_id") == thread)
                                       or str(m.get("sender", "")).lower() in named))]  # fmt: skip
        elsewhere = "\n".join(t for t in involved if t)
        dates -= claims_of("date", elsewhere, {}, {}, year)
        times -= clock_times(elsewhere)
    wrong = sorted(dates) + sorted(times)
    return f"gives {', '.join(wrong)}, which no message the task involves does" if wrong else ""


def disowned(
    changes: list[Change],
    checks: list[dict[str, Any]],
    allowed: list[dict[str, Any]],
    initial: dict[str, Any],
    instruction: str = "",
    year: int = 2026,
) -> list[str]:
    """Each new free text of an added or changed record that disowns the work, as ``app.coll[id].field why``.

    Args:
        changes: The session's changes (:func:`gateway.grading.changes.diff`).
        checks: The row's checks (fields they read with ``claims`` are theirs to read).
        allowed: The row's allowed-change rules (likewise).
        initial: The seed snapshot (text already there is not the session's).
        instruction: The request (its own words are the user's).
        year: The world's year (for dates written without one).
    """
    declared = _declared([*checks, *allowed])
    asked = " ".join(instruction.split()).casefold()
    seeded: dict[str, frozenset[str]] = {}
    out = []
    for change in changes:
        if change.kind == "delete":
            continue
        if change.kind == "add" and (misstated := _misstated(change, initial, year, instruction)):
            out.append(f"{change.app}.{change.collection}[{change.id}].body {misstated}")
        before = set(_texts(change.before or {}))
        states = set(_values(change.after or {})) - set(_values(change.before or {}))
        negative = any(v.casefold() in NEGATIVE_STATES for _, v in states)
        for key, text in _texts(change.after or {}):
            if (key, text) in before:
                continue
            found = declared.get((change.app, change.collection, key))
            if found:  # read by its claim: it may leave it unsaid here, but not say the opposite or take it back
                undone = disowns(text, True) if negative else retraction(text)
                why = _contradicted(change.after or {}, text, found) or undone
            else:
                why = disowns(text, negative)
            if not why:
                continue
            plain = " ".join(_PREFIX.sub("", text).split()).casefold()
            if plain in asked or plain in seeded.setdefault(change.app, _seeded(initial, change.app)):
                continue
            out.append(f"{change.app}.{change.collection}[{change.id}].{key} {why}")
    return out
