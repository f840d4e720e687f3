"""What a task involves: the people and files a new record may reach without its rule naming them.

An allowed-change rule for an add names the record it allows (``where``), but a new record has more fields
than that: its recipients, its sharing, its attachments. Those take only what the task already involves
(:func:`scope_of`), so the right mail with a bcc to an outsider, or the right upload shared with one, is
still more than was asked. :mod:`gateway.grading.changes` applies the bound.

The people a task involves:

- the acting user;
- the people the instruction names (by email, full name, directory id, initial or unique first name) and
  any address written in it;
- every address the row's checks, and its allowed-change rules' ``where`` and ``values``, name (the
  grader's own expectations; a rule's ``added`` widens only the field it names);
- everyone on a record those checks and rules name by id, in the initial world (a message's sender and
  recipients, a ticket's requester and watchers, a file's collaborators), and on every message of that
  record's thread.

The files a task involves: the attachments and file contents (blob ids) of the records the row names by
id and of their threads, and the item specs the row gives a file field (``{"attachments": {"any": ...}}``
in a check or rule on the same collection).
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gateway.grading.answers import claims_of

__all__ = ["Scope", "addresses_in", "blobs_in", "scope_of"]

_EMAIL = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_WHOLE_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_Involved = tuple[frozenset[str], frozenset[str], dict[tuple[str, str, str], tuple[dict[str, Any], ...]]]


@dataclass(frozen=True)
class Scope:
    """What the task involves, for the fields of a new record its rule does not name.

    Attributes:
        people: Lower-case addresses the task involves.
        files: Blob ids of the files the task involves.
        specs: ``(app, collection, field)`` to the item specs the row gives that list field
            (``{"any": spec}`` in a check or rule on that collection).
        world: The final snapshot: where a created item's folders are found (what they already share).
        initial: The initial snapshot: the records a new one refers to (the message it forwards).
    """

    people: frozenset[str] = frozenset()
    files: frozenset[str] = frozenset()
    specs: Mapping[tuple[str, str, str], tuple[dict[str, Any], ...]] = field(default_factory=dict)
    world: Mapping[str, Any] = field(default_factory=dict)
    initial: Mapping[str, Any] = field(default_factory=dict)


def _leaves(value: Any) -> Iterator[str]:
    """Every string in a JSON value (dict keys not included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)


def addresses_in(value: Any) -> set[str]:
    """Every lower-case address a JSON value holds as a whole string (a sender, a recipient, a grantee)."""
    return {s.strip().lower() for s in _leaves(value) if _WHOLE_EMAIL.match(s.strip())}


def blobs_in(value: Any) -> set[str]:
    """Every blob id a JSON value holds (``blob`` fields, at any depth)."""
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "blob" and isinstance(v, str) and v:
                out.add(v)
            else:
                out |= blobs_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= blobs_in(v)
    return out


def _checks(checks: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for chk in checks:
        if chk.get("kind") == "any_of":
            yield from _checks(chk.get("checks", []))
        else:
            yield chk


def _named_records(snapshot: Mapping[str, Any], ids: set[str]) -> Iterator[dict[str, Any]]:
    """Records of ``snapshot`` named by id in ``ids``, and every record of their threads."""
    for app_state in snapshot.values():
        if not isinstance(app_state, dict):
            continue
        for records in app_state.values():
            if not isinstance(records, dict):
                continue
            named = [r for rid, r in records.items() if rid in ids and isinstance(r, dict)]
            threads = {str(r["thread_id"]) for r in named if r.get("thread_id")} | ids
            for rid, rec in records.items():
                if not isinstance(rec, dict):
                    continue
                if rid in ids or (rec.get("thread_id") and str(rec["thread_id"]) in threads):
                    yield rec


def scope_of(
    initial: Mapping[str, Any],
    final: Mapping[str, Any],
    checks: list[dict[str, Any]],
    allowed: list[dict[str, Any]],
    instruction: str = "",
    user: str = "",
    year: int = 2026,
) -> Scope:
    """What the task involves (see the module docstring), from its initial world, its request and its row.

    Args:
        initial: The snapshot taken at seed.
        final: The snapshot taken at verify.
        checks: The row's checks.
        allowed: The row's allowed-change rules.
        instruction: The request.
        user: The acting user's address.
        year: The world's year (for the instruction's dates; unused by people).
    """
    people, files, specs = _involved(initial, checks, allowed, instruction, user, year)
    return Scope(people=people, files=files, specs=specs, world=final, initial=initial)


#: The most tasks whose involved people and files :func:`_involved` keeps (each holds its initial snapshot).
_KEPT = 64
_INVOLVED: OrderedDict[tuple[Any, ...], tuple[Mapping[str, Any], _Involved]] = OrderedDict()
_INVOLVED_LOCK = threading.Lock()


def _involved(
    initial: Mapping[str, Any], checks: list[dict[str, Any]], allowed: list[dict[str, Any]],
    instruction: str, user: str, year: int,
) -> _Involved:  # fmt: skip
    """:func:`scope_of`'s people, files and specs: the same for every session of a task, so worked out once.

    Kept for the :data:`_KEPT` tasks used last, keyed by the initial snapshot's identity (it is a template's,
    never written, and the entry holds it, so the identity cannot be reused) and the row's text.
    """
    key = (id(initial), instruction, user, year, json.dumps([checks, allowed], sort_keys=True, default=str))
    with _INVOLVED_LOCK:
        known = _INVOLVED.get(key)
        if known is not None and known[0] is initial:
            _INVOLVED.move_to_end(key)
            return known[1]
    involved = _work_out(initial, checks, allowed, instruction, user, year)
    with _INVOLVED_LOCK:
        _INVOLVED[key] = (initial, involved)
        while len(_INVOLVED) > _KEPT:
            _INVOLVED.popitem(last=False)
    return involved


def _work_out(
    initial: Mapping[str, Any], checks: list[dict[str, Any]], allowed: list[dict[str, Any]],
    instruction: str, user: str, year: int,
) -> _Involved:  # fmt: skip
    people: set[str] = {user.lower()} if user else set()
    if instruction:
        people |= claims_of("person", instruction, {}, dict(initial), year)
        people |= {m.lower() for m in _EMAIL.findall(instruction)}
    flat = list(_checks(checks)) + list(allowed)
    # what the row expects: its checks, and the records its rules allow (a rule's ``added`` and ``removed``
    # widen or narrow one field explicitly, so they involve nobody elsewhere)
    strings = set(_leaves(list(_checks(checks)))) | set(_leaves([[r.get("where"), r.get("values")] for r in allowed]))
    for s in strings:
        people |= {m.lower() for m in _EMAIL.findall(s.replace("\\", ""))}
    files: set[str] = set()
    for rec in _named_records(initial, strings):
        people |= addresses_in(rec)
        files |= blobs_in(rec)
    specs: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for item in flat:
        app, coll = item.get("app"), item.get("collection")
        if item.get("kind") == "no_record" or not isinstance(app, str) or not isinstance(coll, str):
            continue
        for name, spec in item.get("where", {}).items():
            if isinstance(spec, dict) and isinstance(spec.get("any"), dict):
                specs.setdefault((app, coll, name), []).append(spec["any"])
    return frozenset(people), frozenset(files), {k: tuple(v) for k, v in specs.items()}
