"""Create a private Slack channel for a manager's team: the manager and everyone who reports to them.

The directory says who is on the team. Varies: the manager and so the team (two to six people), the
channel's name, the phrasing. Distractors: the manager's own manager, colleagues of the same department
outside the team, and an existing public channel with a similar name.

Scenario shapes (picked by the seed):

- ``social_lookalike``: the near-misses above (control: adds the same-department colleague off the team).
- ``stale_team_channel``: an old private channel of the manager's team still holds someone who has left the
  team (control: copies the old channel's members).
- ``second_level``: someone reports to one of the team (control: adds that second-level report too).

When the org chart has no second-level report, a same-department colleague off the team stands in.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, project_names

__all__ = ["FAMILY"]

SHAPES = ("social_lookalike", "stale_team_channel", "second_level")
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
    shape = SHAPES[inst.seed % len(SHAPES)]
    extra = ""
    if shape != "social_lookalike":
        pool = sorted(
            p["email"]
            for p in people
            if p["email"] not in (me, manager_email, *team, outsider["email"])
            and (p["manager"] in team if shape == "second_level" else p["department"] == manager["department"])
        )
        extra = inst.pick(pool) if pool else outsider["email"]
        if shape == "stale_team_channel":
            channel(inst, f"{manager['name'].split()[0].lower()}-team-old", [manager_email, me, *team, extra],
                    private=True, purpose="Our team (old)")  # fmt: skip
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
                [{"name": shape.replace("_", "-"),
                  "why": "copies the old team channel's members, someone who has left the team included"
                  if shape == "stale_team_channel"
                  else "adds someone who reports to one of the team",
                  "steps": [{"tool": "slack.create_channel",
                             "args": {"name": name, "private": True, "members": [manager_email, *team, extra]}}]}]
                if extra
                else []
            ),  # fmt: skip
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
