"""A session's change set: what it changed against its seed, whole enough to rebuild its final world.

The change set (:func:`change_set`) is what a session left behind, as JSON: enough to rebuild its final
snapshot from its initial one (:func:`apply_change_set`) and grade it again without running it again::

    {"records": {app: {collection: {"added":   {id: record},
                                    "changed": {id: {field: {"before": value, "after": value}}},
                                    "removed": {id: record}}}},
     "files": {"sha256:<hex>": "<base64 of the bytes>"},
     "said": {"answer": text or null, "summary": text or null, "response": text or null},
     "counts": {"added": n, "changed": n, "removed": n},
     "complete": true,
     "left_out": {"changes": 0, "files": [], "texts": []}}

Records carry every field's value (an added or removed record whole; a changed one each changed field's
value before and after, a side left out when the field was absent). File content is never inline in a
record: a record holds the blob id, ``sha256:`` of the bytes. ``files`` holds the bytes of the files the
session created (blobs its world added) that an added or changed record names, so they can be read again.
``said`` is what grading read of the session's words (complete_task's answer and summary, the response
sent to /verify).

Bounds: the records at most :data:`CHANGE_SET_MAX_RECORD_BYTES` (1 MiB) of JSON, changes taken in order
(app, collection, id); file content at most :data:`CHANGE_SET_MAX_FILE_BYTES` (1 MiB of bytes, about
1.33 MiB of base64), files taken in id order; each text of ``said`` at most
:data:`CHANGE_SET_MAX_TEXT_CHARS` (65,536 characters). What does not fit is counted or named in
``left_out`` and ``complete`` is false: such a set is never applied as if it were whole.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from gateway.grading.answers import AnswerText
from gateway.grading.changes import Change
from gateway.grading.version import canonical_json
from tools.kernel.blobs import BlobStore

__all__ = [
    "CHANGE_SET_MAX_FILE_BYTES",
    "CHANGE_SET_MAX_RECORD_BYTES",
    "CHANGE_SET_MAX_TEXT_CHARS",
    "ChangeSetError",
    "apply_change_set",
    "blob_ids",
    "change_set",
]

#: Most bytes of JSON a change set's records take; the changes past it are left out (counted).
CHANGE_SET_MAX_RECORD_BYTES = 1024 * 1024

#: Most bytes of file content a change set carries (base64 in ``files``); the files past it are left out (named).
CHANGE_SET_MAX_FILE_BYTES = 1024 * 1024

#: Most characters of each text in a change set's ``said``; a longer text is cut there (named).
CHANGE_SET_MAX_TEXT_CHARS = 65536

_BLOB_ID = re.compile(r"sha256:[0-9a-f]{64}")


class ChangeSetError(ValueError):
    """A change set does not fit the snapshot it is applied to (the text names the record and why)."""


def blob_ids(value: Any) -> set[str]:
    """Every blob id (``sha256:<64 hex>``) among the strings of a JSON value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) == 71 and _BLOB_ID.fullmatch(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _sides(before: dict[str, Any], after: dict[str, Any], name: str) -> dict[str, Any]:
    """``{"before", "after"}`` of one changed field, a side left out where the record lacks the field."""
    out = {}
    if name in before:
        out["before"] = before[name]
    if name in after:
        out["after"] = after[name]
    return out


def change_set(changes: list[Change], blobs: BlobStore | None, said: AnswerText | None) -> dict[str, Any]:
    """The change set of a session (see the module docstring for its shape and bounds).

    Args:
        changes: :func:`diff` of the initial and final snapshots.
        blobs: The final world's blob store: the bytes of the blobs it added are saved; None saves none.
        said: What the session said at the end (None: nothing).
    """
    records: dict[str, Any] = {}
    counts = {"added": 0, "changed": 0, "removed": 0}
    left_out: dict[str, Any] = {"changes": 0, "files": [], "texts": []}
    named: set[str] = set()
    used = 0
    for n, change in enumerate(changes):
        before, after = change.before or {}, change.after or {}
        if change.kind == "add":
            part, entry = "added", after
        elif change.kind == "delete":
            part, entry = "removed", before
        else:
            part, entry = "changed", {name: _sides(before, after, name) for name in change.fields}
        size = len(canonical_json({change.id: entry}))
        if used + size > CHANGE_SET_MAX_RECORD_BYTES:
            left_out["changes"] = len(changes) - n
            break
        used += size
        records.setdefault(change.app, {}).setdefault(change.collection, {}).setdefault(part, {})[change.id] = entry
        counts[part] += 1
        if part == "added":
            named |= blob_ids(entry)
        elif part == "changed":
            named |= blob_ids([side.get("after") for side in entry.values()])
    files: dict[str, str] = {}
    saved = 0
    for key in sorted(named):
        if blobs is None or not blobs.added(key):
            continue  # the company's own content (or a row's documents): rebuilt with the initial world
        data = blobs.get(key)
        if saved + len(data) > CHANGE_SET_MAX_FILE_BYTES:
            left_out["files"].append(key)
            continue
        files[key] = base64.b64encode(data).decode("ascii")
        saved += len(data)
    texts: dict[str, str | None] = {}
    for name in ("answer", "summary", "response"):
        text = getattr(said, name) if said is not None else None
        if text is not None and len(text) > CHANGE_SET_MAX_TEXT_CHARS:
            text = text[:CHANGE_SET_MAX_TEXT_CHARS]
            left_out["texts"].append(name)
        texts[name] = text
    complete = not (left_out["changes"] or left_out["files"] or left_out["texts"])
    return {"records": records, "files": files, "said": texts, "counts": counts, "complete": complete,
            "left_out": left_out}  # fmt: skip


def apply_change_set(initial: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """The final snapshot: ``initial`` (left as it is) with a change set's records added, changed and removed.

    Raises:
        ChangeSetError: the change set does not fit ``initial``: an app or collection it lacks, a record to
            add that is there already, a record to change or remove that is not there or not as the change
            set found it.
    """
    final = dict(initial)
    for app, collections in changes.get("records", {}).items():
        if app not in initial:
            raise ChangeSetError(f"{app}: the initial world has no such app")
        state = final[app] = dict(initial[app])
        for collection, parts in collections.items():
            if collection not in state:
                raise ChangeSetError(f"{app}.{collection}: the initial world has no such collection")
            records = state[collection] = dict(state[collection])
            place = f"{app}.{collection}"
            for rid, record in parts.get("removed", {}).items():
                if records.get(rid) != record:
                    raise ChangeSetError(f"{place}[{rid}]: the record removed is not in the initial world as it was")
                del records[rid]
            for rid, fields in parts.get("changed", {}).items():
                old = records.get(rid)
                if old is None:
                    raise ChangeSetError(f"{place}[{rid}]: the record changed is not in the initial world")
                new = dict(old)
                for name, sides in fields.items():
                    if ("before" in sides) != (name in old) or old.get(name) != sides.get("before"):
                        raise ChangeSetError(f"{place}[{rid}].{name}: the initial world holds another value")
                    if "after" in sides:
                        new[name] = sides["after"]
                    else:
                        new.pop(name, None)
                records[rid] = new
            for rid, record in parts.get("added", {}).items():
                if rid in records:
                    raise ChangeSetError(f"{place}[{rid}]: the record added is in the initial world already")
                records[rid] = record
    return final
