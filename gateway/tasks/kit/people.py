"""People a scenario needs that the plain draws of :meth:`Instance.people` do not give: namesakes, managed people.

Everything reads the company's directory (``inst.company.people``) in id order and draws from ``inst.rng``,
so the same instance picks the same people in every process.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Instance

__all__ = ["managed_person", "namesakes"]


def namesakes(inst: Instance, exclude: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two colleagues who share a first name and work in different departments (never the user), in random order.

    Args:
        inst: The instance.
        exclude: Emails not to pick.

    Raises:
        ValueError: the company has no two such people.
    """
    skip = {inst.company.user, *exclude}
    by_first: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(inst.company.people.values(), key=lambda p: p["id"]):
        if p["email"] not in skip:
            by_first.setdefault(inst.given_name(p), []).append(p)
    pairs = [
        (a, b)
        for group in by_first.values()
        for i, a in enumerate(group)
        for b in group[i + 1 :]
        if a["department"] != b["department"]
    ]
    if not pairs:
        raise ValueError(f"{inst.company.key}: no two people share a first name across departments")
    a, b = inst.pick(pairs)
    return (a, b) if inst.rng.random() < 0.5 else (b, a)


def managed_person(inst: Instance, exclude: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """A colleague with a manager who is neither the user nor in ``exclude``: ``(person, manager)``.

    Raises:
        ValueError: the company has no such colleague.
    """
    skip = {inst.company.user, *exclude}
    pool = []
    for p in sorted(inst.company.people.values(), key=lambda p: p["id"]):
        boss = inst.manager_of(p)
        if p["email"] not in skip and boss is not None and boss["email"] not in skip:
            pool.append((p, boss))
    if not pool:
        raise ValueError(f"{inst.company.key}: no colleague with a manager outside {sorted(skip)}")
    person, boss = inst.pick(pool)
    return person, boss
