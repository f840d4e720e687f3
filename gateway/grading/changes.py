"""Differences between two snapshots, and the rule that every one of them was asked for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.grading.operators import match_where
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
    """The ``no_unexpected_changes`` check: every change matches some allowed-change rule.

    Returns:
        A passing result counting the changes, or a failing one listing the first five not allowed.
    """
    bad = [c for c in changes if not any(_allows(rule, c) for rule in allowed)]
    if not bad:
        return CheckResult("no_unexpected_changes", True, f"{len(changes)} change(s), all allowed")
    listed = "; ".join(c.describe() for c in bad[:5]) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
    return CheckResult("no_unexpected_changes", False, f"changes outside what was asked: {listed}")


def _allows(rule: dict[str, Any], change: Change) -> bool:
    if rule["app"] != change.app or rule["collection"] != change.collection:
        return False
    if change.kind not in rule.get("kinds", sorted(CHANGE_KINDS)):
        return False
    if change.kind == "update" and "fields" in rule and not set(change.fields) <= set(rule["fields"]):
        return False
    record = change.before if change.kind == "delete" else change.after
    return match_where(record or {}, rule.get("where", {}))


