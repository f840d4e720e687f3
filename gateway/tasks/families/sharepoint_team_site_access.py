"""Make sure everyone who reports to a manager can at least contribute on a project's SharePoint site.

The directory says who is on the team; the site's members say who already has enough access. Varies: the
manager and so the team (two to six people), the project, who of the team is already a reader, an editor or
absent, the phrasing. Distractors: a team member who already edits (granting contribute would lower them),
the manager (not on their own team), colleagues of the same department outside the team, and a second
project site.

Scenario shapes (picked by the seed):

- ``editor_and_outsider``: the near-misses above (control: raises the same-department reader off the team).
- ``manager_peer``: one of the manager's peers (who reports to the manager's own manager) reads the site
  (control: raises the peer too).
- ``second_level``: someone who reports to one of the team reads the site (control: raises that
  second-level report too).

When the org chart has no such person, the reader is another same-department colleague off the team.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import project_names, site

__all__ = ["FAMILY"]

SHAPES = ("editor_and_outsider", "manager_peer", "second_level")


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    people = inst.company.people.values()
    teams = {
        p["email"]: sorted(q["email"] for q in people if q["manager"] == p["email"] and q["email"] != me)
        for p in people
        if p["email"] != me
    }
    choices = sorted(m for m, team in teams.items() if 3 <= len(team) <= 6)
    manager_email = inst.pick(choices)
    manager = next(p for p in people if p["email"] == manager_email)
    team = list(teams[manager_email])
    inst.rng.shuffle(team)
    editor, *rest = team
    readers = rest[: max(1, len(rest) - inst.rng.randint(0, 1))]
    absent = [e for e in rest if e not in readers]
    outsiders = [p["email"] for p in inst.people(3, department=manager["department"], exclude=[*team, manager_email])]
    project, other_project = project_names(inst, 2)
    members = [(me, "full_control"), (editor, "edit"), *((r, "read") for r in readers), (outsiders[0], "read")]
    home = site(inst, f"Project {project}", members)
    site(inst, f"Project {other_project}", [(me, "full_control"), *((r, "read") for r in readers)])
    to_grant = [*readers, *absent]
    shape = SHAPES[inst.seed % len(SHAPES)]
    near = ""
    if shape != "editor_and_outsider":
        above = manager["manager"]
        pool = sorted(
            p["email"]
            for p in people
            if p["email"] not in (me, manager_email, *team, *outsiders)
            and (p["manager"] == above if shape == "manager_peer" else p["manager"] in team)
        )
        near = inst.pick(pool) if pool else outsiders[1]
        home["members"].append({"email": near, "role": "read"})
    name, first = manager["name"], inst.first(manager)
    instruction = compose(
        inst,
        [
            (
                f"make sure everyone on {name}'s team can contribute on the Project {project} SharePoint site",
                f"give {name}'s direct reports contribute access to the Project {project} site",
                f"sort out Project {project} site access for everyone who reports to {first}",
                f"get each of {first}'s direct reports to at least contribute on the {project} project site",
            ),
        ],  # fmt: skip
        (
            f"{first}'s team is joining Project {project}",
            f"everyone on {name}'s team needs to work on the {project} site from Monday",
            f"{first} is moving their whole team onto Project {project}",
            "",
        ),
        by=first,
        tail=(
            "don't take anything away from anyone",
            "people who already have more can keep it",
            "just the team, not the wider department",
            "",
        ),
    )
    checks: list[dict[str, Any]] = [
        {
            "name": f"contributes_{email.split('@')[0].replace('.', '_')}",
            "kind": "record",
            "app": "sharepoint",
            "collection": "sites",
            "count": 1,
            "where": {
                "id": home["id"],
                "members": {"any": {"email": email, "role": {"in": ["contribute", "edit", "full_control"]}}},
            },
        }
        for email in to_grant
    ]
    checks.append(
        {
            "name": "editor_keeps_edit",
            "kind": "record",
            "app": "sharepoint",
            "collection": "sites",
            "count": 1,
            "where": {"id": home["id"], "members": {"any": {"email": editor, "role": "edit"}}},
        }
    )
    grants = [
        {"tool": "sharepoint.grant_access", "args": {"site": home["name"], "person": e, "role": "contribute"}}
        for e in to_grant
    ]
    return {
        "instruction": instruction,
        "checks": checks,
        "allowed_changes": [
            {
                "app": "sharepoint",
                "collection": "sites",
                "kinds": ["update"],
                "where": {"id": home["id"]},
                "fields": ["members"],
                "added": {"members": {"email": {"in": to_grant}, "role": "contribute"}},
                "removed": {"members": {"email": {"in": readers}, "role": "read"}},
            }
        ],
        "solution": [
            {"tool": "directory.list_direct_reports", "args": {"person": manager["name"]}},
            {"tool": "sharepoint.list_members", "args": {"site": home["name"]}},
            *grants,
        ],
        "alternative_solutions": [
            [
                {"tool": "directory.get_person", "args": {"person": manager_email}},
                {"tool": "directory.search_people", "args": {"department": manager["department"]}},
                *reversed(grants),
            ]
        ],
        "negative_controls": [
            {
                "name": "lowers-the-editor",
                "why": "grants contribute to the whole team, taking edit away from the editor",
                "steps": [
                    *grants,
                    {
                        "tool": "sharepoint.grant_access",
                        "args": {"site": home["name"], "person": editor, "role": "contribute"},
                    },
                ],
            },
            {
                "name": "misses-one",
                "why": "leaves one team member out",
                "steps": grants[1:],
            },
            {
                "name": "adds-the-manager",
                "why": "also gives the manager access",
                "steps": [
                    *grants,
                    {
                        "tool": "sharepoint.grant_access",
                        "args": {"site": home["name"], "person": manager_email, "role": "contribute"},
                    },
                ],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "also raises a peer of the manager who reads the site"
                  if shape == "manager_peer"
                  else "also raises a reader who reports to one of the team",
                  "steps": [*grants, {"tool": "sharepoint.grant_access",
                                      "args": {"site": home["name"], "person": near, "role": "contribute"}}]}]
                if near
                else []
            ),  # fmt: skip
            {
                "name": "whole-department",
                "why": "raises a same-department reader who is not on the team",
                "steps": [
                    *grants,
                    {
                        "tool": "sharepoint.grant_access",
                        "args": {"site": home["name"], "person": outsiders[0], "role": "contribute"},
                    },
                ],
            },
        ],
    }


FAMILY = Family(
    name="sharepoint-team-site-access",
    apps=("sharepoint", "directory"),
    summary="give a manager's direct reports contribute on a project site, lowering no one",
    build=_build,
    decision=True,
)
