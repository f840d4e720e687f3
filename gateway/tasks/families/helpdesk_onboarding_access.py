"""Work a new hire's onboarding ticket: share the team's Drive folder, add them to its Slack channel, resolve it.

Varies: the new hire and their team, the access level the ticket asks for (view, comment or edit), the
folder and channel names, dates, the phrasing. Distractors: the team's archived folder of the same name, the
team's social channel, and another hire's onboarding ticket for another team (with its own folder and
channel).

Scenario shapes (picked by the seed):

- ``archived_folder``: the near-misses above (control: shares the archived folder of the same name).
- ``copy_in_my_drive``: a newer "Copy of" the team's handbook folder sits in the user's Drive (control:
  shares the copy).
- ``second_ticket``: the new hire also has an IT ticket for their laptop, assigned to the user (control: does
  the setup but resolves the laptop ticket).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_folder
from gateway.tasks.kit.helpdesk import called, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

#: What the resolution note must state, affirmatively: the access was given.
GIVEN = r"\b(?:shared|granted|gave|given|added)\b"

ROLES = (("reader", "view"), ("commenter", "comment"), ("writer", "edit"))
SHAPES = ("archived_folder", "copy_in_my_drive", "second_ticket")
TEAMS = ("Marketing", "Sales", "Engineering", "Finance", "Legal", "Operations", "Customer Success", "People")


def _slug(team: str) -> str:
    return team.lower().replace(" ", "-")


def _channel(inst: Instance, name: str, members: list[str]) -> dict[str, Any]:
    return inst.add(
        "slack",
        "channels",
        inst.uid("ch"),
        {
            "name": name,
            "kind": "public",
            "topic": f"The {name} channel",
            "creator": members[0],
            "created": inst.day(-500).isoformat(),
            "members": members,
        },
    )


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.user["email"]
    hire, other_hire = inst.people(2)
    team = hire["department"] if hire["department"] in TEAMS else inst.pick(TEAMS)
    other_team = inst.pick([t for t in TEAMS if t != team])
    (role, verb), (other_role, _) = inst.rng.sample(ROLES, 2)
    manager = inst.manager_of(hire) or inst.person(exclude=[hire["email"]])
    queues(inst, {"people_ops": [inst.user]})
    start = inst.workday(inst.rng.randint(1, 7))
    crowd = [p["email"] for p in inst.people(4, exclude=[hire["email"], other_hire["email"]])]
    chan = _channel(inst, f"{_slug(team)}-team", [me, *crowd])
    social = _channel(inst, f"{_slug(team)}-social", [me, *crowd[:2]])
    other_chan = _channel(inst, f"{_slug(other_team)}-team", [me, *crowd[2:]])
    handbook = drive_folder(inst, f"{team} Handbook", created=inst.day(-90))
    archive = drive_folder(inst, "Archive", created=inst.day(-90))
    archived = drive_folder(inst, f"{team} Handbook", archive["id"], created=inst.day(-700))
    other_book = drive_folder(inst, f"{other_team} Handbook", created=inst.day(-90))
    target = ticket(
        inst,
        "people_ops",
        f"Onboarding: {hire['name']}",
        f"{hire['name']} joins {team} on {start:%B} {start.day}. Please set up: {verb} access to the"
        f" '{team} Handbook' folder on Drive, and add them to #{chan['name']} on Slack.",
        manager["email"],
        inst.workday(-inst.rng.randint(2, 6), 10),
        status="in_progress",
        assignee=me,
        category="Onboarding",
    )
    other = ticket(
        inst,
        "people_ops",
        f"Onboarding: {other_hire['name']}",
        f"{other_hire['name']} joins {other_team} next month. Please set up: {ROLES[0][1]} access to the"
        f" '{other_team} Handbook' folder on Drive, and add them to #{other_chan['name']} on Slack.",
        inst.person(exclude=[other_hire["email"]])["email"],
        inst.workday(-inst.rng.randint(1, 3), 15),
        assignee=me,
        category="Onboarding",
    )
    who = called(inst, hire, 0.6)
    boss = called(inst, manager, 0.3)
    shape = SHAPES[inst.seed % len(SHAPES)]
    copy: dict[str, Any] | None = None
    laptop: dict[str, Any] | None = None
    if shape == "copy_in_my_drive":
        copy = drive_folder(inst, f"Copy of {team} Handbook", created=inst.day(-inst.rng.randint(3, 20)))
    elif shape == "second_ticket":
        laptop = ticket(inst, "it", f"Laptop for {hire['name']}", f"New starter in {team}: please prepare a laptop.",
                        manager["email"], inst.workday(-inst.rng.randint(2, 6), 11), status="in_progress",
                        assignee=me, category="Hardware")  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                f"give {who} the access their onboarding ticket asks for",
                f"set up the Drive folder and Slack channel {who}'s onboarding ticket lists",
                f"work through the onboarding ticket {boss} opened for {who}",
                f"do the setup on {who}'s People Ops ticket",
            ),
            (
                "resolve the ticket with a short note",
                "mark the ticket resolved, saying what you set up",
                "close it out as resolved with a line on what was done",
            ),
        ],  # fmt: skip
        (f"{who} starts soon", f"{boss} asked for {who}'s setup", f"{who} is joining {team}", ""),
        by=boss,
        tail=("exactly the access the ticket names, nothing more", "only that hire's ticket", ""),
    )
    note = f"Shared the {team} Handbook folder ({verb}) and added {hire['name']} to #{chan['name']}."

    def share(fid: str, role_: str = role, email: str = hire["email"]) -> dict[str, Any]:
        return {"tool": "drive.share_file", "args": {"file_id": fid, "email": email, "role": role_}}

    def invite(channel: str, email: str = hire["email"]) -> dict[str, Any]:
        return {"tool": "slack.invite_to_channel", "args": {"channel": channel, "people": [email]}}

    def resolve(tid: str, resolution: str = note) -> dict[str, Any]:
        args = {"ticket_id": tid, "status": "resolved", "resolution": resolution}
        return {"tool": "helpdesk.change_status", "args": args}

    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "folder_shared",
                "kind": "record",
                "app": "drive",
                "collection": "files",
                "where": {"id": handbook["id"], "permissions": {"any": {"email": hire["email"], "role": role}}},
            },
            {
                "name": "added_to_channel",
                "kind": "record",
                "app": "slack",
                "collection": "channels",
                "where": {"id": chan["id"], "members": {"includes": [hire["email"]]}},
            },
            {
                "name": "ticket_resolved",
                "kind": "record",
                "app": "helpdesk",
                "collection": "tickets",
                "where": {  # the note must say the access was given, not that it was not
                    "id": target["id"],
                    "status": "resolved",
                    "resolution": {"claims": {"kind": "states", "detail": [GIVEN], "done": True}},
                },
            },
        ],
        "allowed_changes": [
            {
                "app": "drive",
                "collection": "files",
                "kinds": ["update"],
                "where": {"id": handbook["id"]},
                "fields": ["permissions", "modified", "modified_by"],
                "added": {"permissions": {"email": hire["email"], "role": role}},
            },
            {
                "app": "slack",
                "collection": "channels",
                "kinds": ["update"],
                "where": {"id": chan["id"]},
                "fields": ["members"],
                "added": {"members": {"eq": hire["email"]}},
            },
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["status", "resolution", "resolved_at", "updated"],
                "values": {"status": "resolved"},
            },
            {
                "app": "helpdesk",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"ticket_id": target["id"], "author": me},
            },
        ],
        "solution": [
            {
                "tool": "helpdesk.search_tickets",
                "args": {"text": f"onboarding {hire['name']}", "status": "active"},
                "save": {"tid": "results.0.id"},
            },
            {"tool": "helpdesk.get_ticket", "args": {"ticket_id": "{tid}"}},
            {
                "tool": "drive.search_files",
                "args": {"query": f"{team} Handbook", "kind": "folder"},
            },
            share(handbook["id"]),
            invite(f"#{chan['name']}"),
            resolve("{tid}"),
        ],
        "negative_controls": [
            {
                "name": "says-not-granted",
                "why": "does the work but resolves the ticket saying the access was not granted",
                "steps": [
                    share(handbook["id"]),
                    invite(chan["id"]),
                    resolve(target["id"], "Access NOT granted yet - still waiting on manager approval."),
                ],
            },
            {
                "name": "archived-folder",
                "why": "shares the archived folder of the same name",
                "steps": [share(archived["id"]), invite(chan["id"]), resolve(target["id"])],
            },
            {
                "name": "social-channel",
                "why": "adds them to the team's social channel instead",
                "steps": [share(handbook["id"]), invite(social["id"]), resolve(target["id"])],
            },
            {
                "name": "wrong-access",
                "why": "gives another access level than the ticket asks for",
                "steps": [share(handbook["id"], other_role), invite(chan["id"]), resolve(target["id"])],
            },
            *(
                [{"name": "shares-the-copy", "why": "shares the copy of the handbook folder in the user's Drive",
                  "steps": [share(copy["id"]), invite(chan["id"]), resolve(target["id"])]}]
                if copy
                else []
            ),
            *(
                [{"name": "resolves-laptop-ticket", "why": "does the setup but resolves the hire's laptop ticket",
                  "steps": [share(handbook["id"]), invite(chan["id"]), resolve(laptop["id"])]}]
                if laptop
                else []
            ),
            {
                "name": "other-hires-setup",
                "why": "sets up the other new hire's ticket",
                "steps": [
                    share(other_book["id"], "reader", other_hire["email"]),
                    invite(other_chan["id"], other_hire["email"]),
                    resolve(other["id"]),
                ],
            },
            {
                "name": "not-resolved",
                "why": "sets up the access but leaves the ticket open",
                "steps": [share(handbook["id"]), invite(chan["id"])],
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-onboarding-access",
    apps=("helpdesk", "drive", "slack"),
    summary="share the team folder, add to the team channel and resolve a new hire's onboarding ticket",
    build=_build,
)
