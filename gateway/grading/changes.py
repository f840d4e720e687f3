"""Differences between two snapshots, and the rule that every one of them was asked for (``collateral``).

What a session left behind, as JSON for ``/verify`` and ``regrade``, is in :mod:`gateway.grading.changeset`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.grading.operators import match_value, match_where
from gateway.grading.results import CheckResult
from gateway.grading.scope import Scope, blobs_in

__all__ = [
    "CHANGE_KINDS",
    "Change",
    "FILE_FIELDS",
    "RECIPIENT_FIELDS",
    "SHARING_FIELDS",
    "Scope",
    "collateral",
    "diff",
]

#: The kinds of change an allowed-change rule may name.
CHANGE_KINDS = {"add", "update", "delete"}
#: Fields of a new record naming who receives it or reaches it: addresses, or items with an ``email``.
RECIPIENT_FIELDS = ("to", "cc", "bcc", "forward_to", "recipients", "attendees", "members", "watchers", "email")
#: Fields of a new record that share it: ``permissions`` entries and a ``shared_link``.
SHARING_FIELDS = ("permissions", "shared_link")
#: Fields of a new record that carry files: items with a ``blob``.
FILE_FIELDS = ("attachments",)
#: Roles by how much they give, across the apps' words (a grant no stronger than an inherited one adds nothing).
_RANK = {
    "previewer": 0, "viewer": 1, "reader": 1, "read": 1, "uploader": 1, "commenter": 2,
    "contributor": 3, "contribute": 3, "writer": 3, "write": 3, "editor": 3, "edit": 3,
    "content_manager": 4, "manager": 5, "co-owner": 5, "full_control": 5, "organizer": 5, "owner": 6,
}  # fmt: skip
#: Shared-link access by reach.
_REACH = {"collaborators": 0, "company": 1, "organization": 1, "open": 2, "anyone": 2}


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


#: No record (a record may be None).
_ABSENT = object()


def diff(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every record added, removed or modified between two snapshots, sorted by place.

    An app or collection the two snapshots share as one object (a world's snapshot shares what it never
    wrote with its template's) is skipped unread.
    """
    changes: list[Change] = []
    for app in sorted(set(before) | set(after)):
        b_app, a_app = before.get(app, {}), after.get(app, {})
        if b_app is a_app:
            continue
        for coll in sorted(set(b_app) | set(a_app)):
            b_coll, a_coll = b_app.get(coll, {}), a_app.get(coll, {})
            if b_coll is a_coll:
                continue
            # a record both hold as one object is the same: only the others are sorted and compared
            ids = [rid for rid, a in a_coll.items() if b_coll.get(rid, _ABSENT) is not a]
            ids += [rid for rid in b_coll if rid not in a_coll]
            for rid in sorted(ids):
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


def collateral(changes: list[Change], allowed: list[dict[str, Any]], scope: Scope | None = None) -> CheckResult:
    """The ``no_unexpected_changes`` check: every change is asked for, by value.

    A change is allowed by a rule when it is in the rule's app and collection, of one of its
    ``kinds``, and its record matches ``where``; an update changes only ``fields``, each to a value
    ``values`` accepts, adding to a list field only items ``added`` accepts and removing only items
    ``removed`` accepts; and an add or delete rule covers at most ``count`` records (default 1).

    An add is bounded as a whole record (given the task's ``scope``): each field ``values`` names
    meets its matcher, and the fields the rule does not name hold only what the task involves: every
    address in a recipient field (:data:`RECIPIENT_FIELDS`) is one the task involves, every file in a
    file field (:data:`FILE_FIELDS`) one it involves or the row describes, and a created item is shared
    (:data:`SHARING_FIELDS`) only with its owner or as its folders already share it. ``added`` widens a
    list field explicitly: its items are allowed too. Without a scope only the rule's own terms apply.

    Returns:
        A passing result counting the changes, or a failing one listing the first five not allowed.
    """
    used = [0] * len(allowed)
    bad = []
    for change in changes:
        for n, rule in enumerate(allowed):
            if _allows(rule, change, scope) and (change.kind == "update" or used[n] < rule.get("count", 1)):
                used[n] += change.kind != "update"
                break
        else:
            bad.append(change)
    if not bad:
        return CheckResult("no_unexpected_changes", True, f"{len(changes)} change(s), all allowed")
    shown = [c.describe() + _why_not(c, allowed, scope) for c in bad[:5]]
    listed = "; ".join(shown) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
    return CheckResult("no_unexpected_changes", False, f"changes outside what was asked: {listed}")


def _why_not(change: Change, allowed: list[dict[str, Any]], scope: Scope | None) -> str:
    """For an add a rule would allow but for a field beyond the task: which field, e.g. `` (cc holds x@y)``."""
    if change.kind != "add" or scope is None:
        return ""
    for rule in allowed:
        if _allows(rule, change, None):
            why = _beyond(rule, change, scope)
            if why:
                return f" ({why})"
    return ""


def _allows(rule: dict[str, Any], change: Change, scope: Scope | None = None) -> bool:
    if rule["app"] != change.app or rule["collection"] != change.collection:
        return False
    if change.kind not in rule.get("kinds", sorted(CHANGE_KINDS)):
        return False
    record = change.before if change.kind == "delete" else change.after
    if not match_where(record or {}, rule.get("where", {})):
        return False
    if change.kind == "add":
        return scope is None or not _beyond(rule, change, scope)
    if change.kind != "update":
        return True
    if "fields" in rule and not set(change.fields) <= set(rule["fields"]):
        return False
    before, after = change.before or {}, change.after or {}
    for name, spec in rule.get("values", {}).items():
        if name in change.fields and not match_value(after.get(name), spec):
            return False
    for name in change.fields:
        if name not in rule.get("added", {}) and name not in rule.get("removed", {}):
            continue
        old, new = before.get(name) or [], after.get(name) or []
        if not isinstance(old, list) or not isinstance(new, list):
            return False
        added = [item for item in new if item not in old]
        removed = [item for item in old if item not in new]
        if added and not all(_item_ok(item, rule.get("added", {}).get(name)) for item in added):
            return False
        if removed and not all(_item_ok(item, rule.get("removed", {}).get(name)) for item in removed):
            return False
    return True


def _item_ok(item: Any, spec: Any) -> bool:
    """Whether one item added to (or removed from) a list field is one the rule names."""
    if spec is None:
        return False
    if isinstance(spec, dict) and isinstance(item, dict) and "any_of" not in spec:
        return match_where(item, spec)
    if isinstance(spec, dict) and "any_of" in spec:
        return any(_item_ok(item, option) for option in spec["any_of"])
    return match_value(item, spec)


def _items(value: Any) -> list[Any]:
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]


def _beyond(rule: dict[str, Any], change: Change, scope: Scope) -> str:
    """What the new record holds beyond its rule and the task's scope, in a few words; "" when nothing."""
    record = change.after or {}
    values, added = rule.get("values", {}), rule.get("added", {})
    for name, spec in values.items():
        if not match_value(record.get(name), spec):
            return f"{name} is {record.get(name)!r}"
    for name in RECIPIENT_FIELDS:
        if name in values:
            continue
        for item in _items(record.get(name)):
            if isinstance(item, dict) and item.get("resource"):
                continue  # a booked room: the rule's room, not a recipient
            address = item.get("email") if isinstance(item, dict) else item
            if not isinstance(address, str) or not address:
                continue
            if address.strip().lower() not in scope.people and not _item_ok(item, added.get(name)):
                return f"{name} holds {address}, whom the task does not involve"
    for name in FILE_FIELDS:
        items = [] if name in values else _items(record.get(name))
        carried = scope.files | _referred_files(record, scope) if items else frozenset()
        for item in items:
            blob = item.get("blob") if isinstance(item, dict) else None
            described = any(match_where(item, s) for s in scope.specs.get((change.app, change.collection, name), ()))
            if blob not in carried and not described and not _item_ok(item, added.get(name)):
                label = item.get("filename") or item.get("name") or blob if isinstance(item, dict) else item
                return f"{name} holds {label}, a file the task does not involve"
    if "permissions" not in values:
        for entry in _items(record.get("permissions")):
            if not isinstance(entry, dict) or _item_ok(entry, added.get("permissions")):
                continue
            email, role = str(entry.get("email", "")).lower(), str(entry.get("role", ""))
            if role == "owner" and email == str(record.get("owner", "")).lower():
                continue
            if not _inherited(change, email, role, scope):
                return f"permissions give {email} {role} on an item the task created, beyond what its folder gives"
    link = record.get("shared_link")
    if "shared_link" not in values and isinstance(link, dict) and not _link_inherited(change, link, scope):
        return f"shared_link opens it to {link.get('access')!r}, beyond what its folder gives"
    return ""


def _referred_files(record: dict[str, Any], scope: Scope) -> frozenset[str]:
    """Files of the initial records the new one names by id (the message it forwards), and of their threads."""
    ids = {v for k, v in record.items() if isinstance(v, str) and v and k != "id"}
    out: set[str] = set()
    for app_state in scope.initial.values():
        for records in app_state.values() if isinstance(app_state, dict) else ():
            if not isinstance(records, dict):
                continue
            for rid, rec in records.items():
                if isinstance(rec, dict) and (rid in ids or str(rec.get("thread_id", "")) in ids):
                    out |= blobs_in(rec)
    return frozenset(out)


def _ancestors(change: Change, scope: Scope) -> list[dict[str, Any]]:
    """The created item's folders, nearest first, in the final world (any collection of its app holding the id)."""
    app = scope.world.get(change.app, {})
    out: list[dict[str, Any]] = []
    seen = {change.id}
    current = change.after or {}
    while True:
        parent = next((str(current[k]) for k in ("parent_id", "folder_id") if current.get(k)), "")
        if not parent or parent in seen:
            break
        seen.add(parent)
        found = next((recs[parent] for recs in app.values() if isinstance(recs, dict) and parent in recs), None)
        if not isinstance(found, dict):
            break
        out.append(found)
        current = found
    drive = str((change.after or {}).get("drive_id", ""))
    # a shared drive: its members reach everything in it
    holders = [recs for recs in app.values() if drive and isinstance(recs, dict)]
    out += [recs[drive] for recs in holders if isinstance(recs.get(drive), dict)]
    return out


def _inherited(change: Change, email: str, role: str, scope: Scope) -> bool:
    """Whether ``email`` already has ``role`` (or more) on the created item through one of its folders."""
    want = _RANK.get(role, 99)
    for folder in _ancestors(change, scope):
        for entry in [*_items(folder.get("permissions")), *_items(folder.get("members"))]:
            same = isinstance(entry, dict) and str(entry.get("email", "")).lower() == email
            if same and _RANK.get(str(entry.get("role", "")), -1) >= want:
                return True
    return False


def _link_inherited(change: Change, link: dict[str, Any], scope: Scope) -> bool:
    """Whether one of the created item's folders already has a shared link reaching as far."""
    want = _REACH.get(str(link.get("access", "")), 99)
    for folder in _ancestors(change, scope):
        theirs = folder.get("shared_link")
        if isinstance(theirs, dict) and _REACH.get(str(theirs.get("access", "")), -1) >= want:
            return True
    return False
