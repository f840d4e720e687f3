"""Carry out an internal transfer from a People Ops ticket: the team it names decides everything that follows.

Long horizon: the reference reads the ticket (and its comments, and the directory), decides which team the
colleague joins, and that one decision picks the team channel they are invited to, the team site they get
access to, the department head who is mailed and who meets them, and what the resolution says: 12 calls over
helpdesk, directory, sharepoint, slack, calendar and gmail. Every outcome is checked, so stopping halfway
scores 0.

Scenario shapes (picked by the seed):

- ``stated``: the ticket names the new team.
- ``corrected``: the ticket names one team; a later comment by its requester corrects it to another.
- ``by_manager``: the ticket names only the new manager (a department head); the directory gives the team.

Varies: the colleague, the three teams on offer, the requester, the welcome meeting's day and time, the
phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import comment, queues, ticket
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import department_head
from gateway.tasks.kit.workplace import channel, site

__all__ = ["FAMILY"]

SHAPES = ("stated", "corrected", "by_manager")


def _slug(dept: str) -> str:
    return dept.lower().replace(" ", "-")


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    depts = sorted({p["department"] for p in inst.company.people.values()} - {"Executive"})
    heads = {d: department_head(inst, d) for d in depts}
    mover = inst.person(exclude=[h["email"] for h in heads.values()])
    options = [d for d in depts if d != mover["department"] and heads[d]["email"] != me]
    team, wrong, third = inst.rng.sample(options, 3)
    head = heads[team]
    requester = inst.person(exclude=[mover["email"], *(h["email"] for h in heads.values())])
    queues(inst, {"people_ops": [requester]})
    sites = {d: site(inst, f"{d} hub", [(heads[d]["email"], "full_control"), (me, "full_control")]) for d in depts}
    chans = {d: channel(inst, f"team-{_slug(d)}", [heads[d]["email"], me]) for d in (team, wrong, third)}
    start_day = inst.workday(inst.rng.randint(7, 14))
    named = {"stated": f"the {team} team", "corrected": f"the {wrong} team", "by_manager": f"{head['name']}'s team"}
    opened = inst.workday(-inst.rng.randint(3, 6), 10)
    tk = ticket(inst, "people_ops", f"Internal transfer: {mover['name']}",
                f"{mover['name']} moves to {named[shape]} on {start_day:%B} {start_day.day}. Please set up"
                " their team channel and team site access.", requester["email"], opened,
                category="Transfer")  # fmt: skip
    if shape == "corrected":
        comment(inst, tk["id"], requester["email"], f"Correction: {inst.first(mover)} joins the {team} team, not"
                f" {wrong}. Sorry for the mix-up.", opened + timedelta(days=1))  # fmt: skip
    else:
        comment(inst, tk["id"], requester["email"], "Any update on this one?", opened + timedelta(days=1))
    welcome = inst.workday(inst.rng.randint(2, 5), inst.rng.randint(10, 16), inst.pick((0, 30)))
    when = f"{welcome:%A %B} {welcome.day} at {welcome:%-I:%M %p}".replace(":00 ", " ")
    who = inst.pick((mover["name"], f"{inst.first(mover)} ({mover['department']})"))
    instruction = compose(
        inst,
        [
            (f"work out from {tk['id']} which team {who} is joining",
             f"read {tk['id']} (comments too) to see which team {who} moves to"),
            ("invite them to that team's Slack channel", "add them to the team's channel in Slack"),
            ("give them contribute access to the team's SharePoint hub", "grant them contribute on the team hub site"),
            ("email the team's department head to say who is joining",
             "let the head of that department know by mail who is joining"),
            (f"book a 30-minute welcome on {when} with them and the department head",
             f"set up a 30-minute welcome for {when}: the newcomer and the department head"),
            ("resolve the ticket with a note naming the team", "close the ticket out as resolved, naming the team"),
        ],  # fmt: skip
        (f"People Ops opened {tk['id']} for {who}'s transfer", f"{who} is changing teams", ""),
        by=requester["name"],
    )
    choice = {"kind": "choice", "value": team, "candidates": list(depts)}
    joins = {"kind": "person", "value": mover["email"], "ignore": [me, head["email"]]}  # the head is the reader
    # the head's mail may leave the team out; a team it names as the new one is theirs ("from Customer Success"
    # names the old one)
    told = {**choice, "required": False}
    end = welcome + timedelta(minutes=30)

    def plan(d: str, upto: int = 5) -> list[Any]:
        boss = heads[d]
        steps: list[dict[str, Any]] = [
            {"tool": "slack.invite_to_channel", "args": {"channel": f"#team-{_slug(d)}", "people": [mover["email"]]}},
            {"tool": "sharepoint.grant_access",
             "args": {"site": f"{d} hub", "person": mover["email"], "role": "contribute"}},
            {"tool": "gmail.send_message", "args": {"to": [boss["email"]], "subject": "Joining your team",
             "body": f"{mover['name']} is joining your team on {start_day:%B} {start_day.day}."}},
            {"tool": "calendar.create_event", "args": {"title": f"Welcome {mover['name']}",
             "start": welcome.isoformat(),
             "end": end.isoformat(), "attendees": [mover["email"], boss["email"]]}},
            {"tool": "helpdesk.change_status", "args": {"ticket_id": tk["id"], "status": "resolved",
             "resolution": f"Set up for the {d} team: channel, site access and a welcome meeting."}},
        ]  # fmt: skip
        return steps[:upto]

    done = {"tool": "complete_task", "args": {"summary": f"{mover['name']} is set up in {team}."}}
    reads = [
        {"tool": "helpdesk.search_tickets", "args": {"text": "Internal transfer"}},
        {"tool": "helpdesk.get_ticket", "args": {"ticket_id": tk["id"]}},
        {"tool": "helpdesk.list_comments", "args": {"ticket_id": tk["id"]}},
        {"tool": "directory.get_person", "args": {"person": mover["email"]}},
        {"tool": "directory.get_person", "args": {"person": head["email"]}},
        {"tool": "slack.list_channels", "args": {"query": "team-"}},
    ]
    hub = sites[team]
    return {
        "instruction": instruction,
        "checks": [
            {"name": "in_team_channel", "kind": "record", "app": "slack", "collection": "channels",
             "where": {"id": chans[team]["id"], "members": {"includes": [mover["email"]]}}},
            {"name": "team_site_access", "kind": "record", "app": "sharepoint", "collection": "sites",
             "where": {"id": hub["id"], "members": {"any": {"email": mover["email"], "role": "contribute"}}}},
            {"name": "head_mailed", "kind": "record", "app": "gmail", "collection": "messages", "new": True,
             "count": 1,
             "where": {"sender": me, "to": {"includes": [head["email"]]}, "body": {"claims": [joins, told]}}},
            {"name": "welcome_booked", "kind": "record", "app": "calendar", "collection": "events", "new": True,
             "count": 1, "where": {"organizer": me, "start": {"instant": welcome.isoformat()},
                                   "end": {"instant": end.isoformat()},
                                   "attendees": {"any": {"email": head["email"]}}}},
            {"name": "newcomer_at_welcome", "kind": "record", "app": "calendar", "collection": "events",
             "new": True, "where": {"organizer": me, "attendees": {"any": {"email": mover["email"]}}}},
            {"name": "resolved_naming_team", "kind": "record", "app": "helpdesk", "collection": "tickets",
             "where": {"id": tk["id"], "status": "resolved", "resolution": {"claims": choice}}},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "slack", "collection": "channels", "kinds": ["update"], "where": {"id": chans[team]["id"]},
             "fields": ["members"], "added": {"members": {"eq": mover["email"]}}},
            {"app": "sharepoint", "collection": "sites", "kinds": ["update"], "where": {"id": hub["id"]},
             "fields": ["members"], "added": {"members": {"email": mover["email"], "role": "contribute"}}},
            {"app": "gmail", "collection": "messages", "kinds": ["add"], "where": {"sender": me},
             "values": {"to": [head["email"]]}},
            {"app": "calendar", "collection": "events", "kinds": ["add"], "where": {"organizer": me},
             "values": {"attendees": {"len": 3}}},
            {"app": "helpdesk", "collection": "tickets", "kinds": ["update"], "where": {"id": tk["id"]},
             "fields": ["status", "resolution", "resolved_at", "updated"], "values": {"status": "resolved"}},
        ],  # fmt: skip
        "solution": [*reads, *plan(team), done],
        "negative_controls": [
            {"name": "wrong-team", "why": f"sets them up in {wrong} (the ticket's first word, or another team)",
             "steps": [*plan(wrong), done]},
            {"name": "stops-halfway", "why": "invites and grants access, then stops", "steps": [*plan(team, 2), done]},
            {"name": "no-resolution", "why": "does everything but resolve the ticket", "steps": [*plan(team, 4), done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="helpdesk-transfer-rollout",
    apps=("helpdesk", "directory", "slack", "sharepoint", "gmail", "calendar"),
    summary="read a transfer ticket for the new team, then invite, grant, mail the head, book a welcome, resolve",
    build=_build,
    decision=True,
    kind="long_horizon",
)
