"""Create a private Slack channel for a manager's team: the manager and everyone who reports to them.

The directory says who is on the team. Varies: the manager and so the team (two to six people), the
channel's name, the phrasing. Distractors: the manager's own manager, colleagues of the same department
outside the team, and an existing public channel with a similar name.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, project_names

__all__ = ["FAMILY"]

PURPOSES = ("planning", "standup", "launch", "handover", "hiring")


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    people = list(inst.company.people.values())
    teams = {
        p["email"]: sorted(q["email"] for q in people if q["manager"] == p["email"] and q["email"] != me)
        for p in people
        if p["email"] != me and p["manager"]
    }
    manager_email = inst.pick(sorted(m for m, team in teams.items() if 2 <= len(team) <= 6))
    manager = next(p for p in people if p["email"] == manager_email)
    boss = inst.manager_of(manager)
    team = teams[manager_email]
    (word,) = project_names(inst, 1)
    purpose = inst.pick(PURPOSES)
    name = f"{word.lower()}-{purpose}"
    outsider = inst.person(department=manager["department"], exclude=[*team, manager_email])
    channel(inst, f"{word.lower()}-{purpose}-social", [manager_email, me, outsider["email"]], purpose="Off-topic")
    everyone = [me, manager_email, *team]
    first = inst.first(manager)
    instruction = compose(
        inst,
        [
            (
                f"set up a private channel called {name} for {manager['name']}'s team",
                f"create a private Slack channel, #{name}, with {manager['name']} and all of {first}'s direct reports"
                " in it",
                f"make #{name} a private channel for {first} and everyone who reports to them",
            ),
        ],  # fmt: skip
        (
            f"{first} asked for a private channel for the team's {purpose} work",
            f"{first}'s team needs a place for {purpose}",
            "",
        ),
        by=first,
        tail=(f"{first} and their direct reports, no one else", "keep it private", ""),
    )
    members_rule = {"set_eq": everyone}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "team_channel",
                "kind": "record",
                "app": "slack",
                "collection": "channels",
                "new": True,
                "count": 1,
                "where": {"name": name, "kind": "private", "members": members_rule, "archived": False},
            }
        ],
        "allowed_changes": [
            {
                "app": "slack",
                "collection": "channels",
                "kinds": ["add"],
                "where": {"name": name, "kind": "private", "members": members_rule},
            }
        ],
        "solution": [
            {"tool": "directory.list_direct_reports", "args": {"person": manager["name"]}},
            {
                "tool": "slack.create_channel",
                "args": {"name": name, "private": True, "members": [manager_email, *team]},
            },
        ],
        "alternative_solutions": [
            [
                {"tool": "directory.search_people", "args": {"department": manager["department"]}},
                {"tool": "slack.create_channel", "args": {"name": name, "private": True, "members": [manager["name"]]}},
                {"tool": "slack.invite_to_channel", "args": {"channel": f"#{name}", "people": team}},
            ]
        ],
        "negative_controls": [
            {
                "name": "public-channel",
                "why": "makes the channel public",
                "steps": [{"tool": "slack.create_channel", "args": {"name": name, "members": [manager_email, *team]}}],
            },
            {
                "name": "reports-only",
                "why": "leaves the manager out",
                "steps": [{"tool": "slack.create_channel", "args": {"name": name, "private": True, "members": team}}],
            },
            {
                "name": "whole-department",
                "why": "adds a same-department colleague who is not on the team",
                "steps": [
                    {
                        "tool": "slack.create_channel",
                        "args": {"name": name, "private": True, "members": [manager_email, *team, outsider["email"]]},
                    }
                ],
            },
            *(
                [
                    {
                        "name": "adds-the-boss",
                        "why": "adds the manager's own manager",
                        "steps": [
                            {
                                "tool": "slack.create_channel",
                                "args": {
                                    "name": name,
                                    "private": True,
                                    "members": [boss["email"], manager_email, *team],
                                },
                            }
                        ],
                    }
                ]
                if boss is not None and boss["email"] != me
                else []
            ),
        ],
    }


FAMILY = Family(
    name="slack-team-channel",
    apps=("slack", "directory"),
    summary="create a private channel holding a manager and their direct reports, found in the directory",
    build=_build,
    decision=True,
)
