"""Answer who a colleague's skip-level manager is and how many people report directly to that person.

Varies: the colleague (anyone two levels below someone: staff under a department's managers, or a manager
under the chief executive), hence the skip-level manager and their head count, the phrasing. Distractors: the
colleague's own manager and that manager's team size, the skip-level's whole organisation (direct and
indirect reports), all one directory look-up away (controls: ``direct-manager``, ``whole-organisation``).

Scenario shapes (picked by the seed):

- ``named``: the instruction names the colleague.
- ``namesake``: the colleague shares a first name with someone whose chain differs; the instruction names
  them in full with their department (control: ``namesake-chain`` answers for the other one).
- ``by_title``: the instruction names only the colleague's job title and department, which only they hold
  (control: ``direct-manager``, the answer of a reader who stops one level up).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("named", "namesake", "by_title")


def _build(inst: Instance) -> dict[str, Any]:
    people = inst.company.people.values()

    def reports(email: str) -> list[dict[str, Any]]:
        return [p for p in people if p.get("manager") == email]

    def under(email: str) -> int:
        return sum(1 + under(p["email"]) for p in reports(email))

    deep = [p for p in people if (m := inst.manager_of(p)) is not None and inst.manager_of(m) is not None]
    shape = SHAPES[inst.seed % len(SHAPES)]
    pool = sorted((p for p in deep if p["email"] != inst.company.user), key=lambda p: str(p["id"]))

    def top(person: dict[str, Any]) -> dict[str, Any]:
        boss = inst.manager_of(person)
        assert boss is not None
        return inst.manager_of(boss) or boss

    twins: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(people, key=lambda p: str(p["id"])):
        twins.setdefault(inst.given_name(p), []).append(p)
    roles: dict[tuple[str, str], int] = {}
    for p in people:
        key = (str(p.get("title", "")), str(p.get("department", "")))
        roles[key] = roles.get(key, 0) + 1
    if shape == "namesake":
        pairs = [(p, q) for p in pool for q in twins[inst.given_name(p)]
                 if q["email"] != p["email"] and q["email"] != inst.company.user and inst.manager_of(q) is not None
                 and top(q)["email"] != top(p)["email"]]  # fmt: skip
        shape = shape if pairs else "named"
    if shape == "by_title":
        titled = [p for p in pool if p.get("title") and roles[(str(p["title"]), str(p.get("department", "")))] == 1]
        shape = shape if titled else "named"
    twin = None
    if shape == "namesake":
        subject, twin = inst.pick(pairs)
    elif shape == "by_title":
        subject = inst.pick(titled)
    else:
        subject = inst.pick(pool)
    manager = inst.manager_of(subject)
    assert manager is not None
    skip = inst.manager_of(manager)
    assert skip is not None
    count = len(reports(skip["email"]))
    name = inst.pick((subject["name"], inst.first(subject)))
    if shape == "namesake":
        name = f"{subject['name']} in {subject['department']}"
    elif shape == "by_title":
        name = inst.pick((f"the {subject['title']} in {subject['department']}",
                          f"our {subject['department']} {subject['title']}"))  # fmt: skip
    extra = []
    if twin is not None:
        other = top(twin)
        extra.append({
            "name": "namesake-chain",
            "why": "answers for the colleague of the same first name in another part of the company",
            "steps": [{"tool": "complete_task",
                       "args": {"answer": f"{other['name']}, with {len(reports(other['email']))} direct reports"}}],
        })  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                f"tell me who {name}'s skip-level manager is",
                f"find out who {name}'s manager's manager is",
                f"look up who sits two levels above {name} in the directory",
                f"work out who {name}'s manager reports to",
            ),
            (
                "find out how many people report directly to them",
                "say how many direct reports that person has",
                "count that person's direct reports (not their whole organisation)",
            ),
        ],
        (
            f"I'm setting up an intro for {name}",
            "two quick ones from the directory",
            f"{name} asked who to escalate to above their manager",
            "",
        ),
        tail=("just the name and the number", "direct reports only, not everyone under them", ""),
    )  # fmt: skip
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "answer",
                "kind": "answer",
                "expect": [{"kind": "person", "value": skip["email"]}, {"kind": "number", "value": count}],
            }
        ],
        "allowed_changes": [],
        "solution": [
            {"tool": "directory.get_manager", "args": {"person": subject["email"]}, "save": {"m": "manager.email"}},
            {"tool": "directory.get_manager", "args": {"person": "{m}"}, "save": {"skip": "manager.email"}},
            {"tool": "directory.list_direct_reports", "args": {"person": "{skip}"}, "save": {"who": "manager"}},
            {
                "tool": "complete_task",
                "args": {
                    "summary": f"Looked up the chain above {subject['name']} in the directory.",
                    "answer": f"{skip['name']} ({{who}}), with {count} direct reports",
                },
            },
        ],
        "negative_controls": [
            {
                "name": "direct-manager",
                "why": "names the colleague's own manager and their team size",
                "steps": [
                    {
                        "tool": "complete_task",
                        "args": {"answer": f"{manager['name']}, with {len(reports(manager['email']))} direct reports"},
                    }
                ],
            },
            {
                "name": "whole-organisation",
                "why": "counts everyone under the skip-level manager, not just direct reports",
                "steps": [
                    {
                        "tool": "complete_task",
                        "args": {"answer": f"{skip['name']}, with {under(skip['email'])} people"},
                    }
                ],
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="directory-skip-level",
    apps=("directory",),
    summary="name a colleague's skip-level manager and count that person's direct reports",
    build=_build,
    split="test",
)
