"""Differences between two snapshots, and the rule that every one of them was asked for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.grading.operators import match_value, match_where
from gateway.grading.results import CheckResult

__all__ = ["CHANGE_KINDS", "Change", "collateral", "diff"]

#: The kinds of change an allowed-change rule may name.
CHANGE_KINDS = {"add", "update", "delete"}


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


def collateral(changes: list[Change], allowed: list[dict[str, Any]]) -> CheckResult:
    """The ``no_unexpected_changes`` check: every change is asked for, by value.

    A change is allowed by a rule when it is in the rule's app and collection, of one of its
    ``kinds``, and its record matches ``where``; an update changes only ``fields``, each to a value
    ``values`` accepts, adding to a list field only items ``added`` accepts and removing only items
    ``removed`` accepts; and an add or delete rule covers at most ``count`` records (default 1).

    Returns:
        A passing result counting the changes, or a failing one listing the first five not allowed.
    """
    used = [0] * len(allowed)
    bad = []
    for change in changes:
        for n, rule in enumerate(allowed):
            if _allows(rule, change) and (change.kind == "update" or used[n] < rule.get("count", 1)):
                used[n] += change.kind != "update"
                break
        else:
            bad.append(change)
    if not bad:
        return CheckResult("no_unexpected_changes", True, f"{len(changes)} change(s), all allowed")
    listed = "; ".join(c.describe() for c in bad[:5]) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
    return CheckResult("no_unexpected_changes", False, f"changes outside what was asked: {listed}")


def _allows(rule: dict[str, Any], change: Change) -> bool:
    if rule["app"] != change.app or rule["collection"] != change.collection:
        return False
    if change.kind not in rule.get("kinds", sorted(CHANGE_KINDS)):
        return False
    record = change.before if change.kind == "delete" else change.after
    if not match_where(record or {}, rule.get("where", {})):
        return False
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
