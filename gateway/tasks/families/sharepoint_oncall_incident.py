"""Route an urgent ticket to whoever is really on call this week, and run the incident through five apps.

Long horizon: the reference reads the ticket, the on-call rota (a SharePoint list) and the on-call channel,
decides who is on call, and that one decision picks the ticket's assignee, the person a public comment and
the incidents channel name, the manager (a directory lookup) who is mailed and invited, and who sits in the
incident review: 12 calls over helpdesk, sharepoint, slack, directory, calendar and gmail. Every outcome is
checked, so stopping halfway scores 0.

Scenario shapes (picked by the seed):

- ``rota``: this week's row names the primary; last week's and next week's rows name others.
- ``backup_covers``: this week's row notes the primary is on leave, so the backup covers.
- ``swapped_in_chat``: the rota names the primary, but they posted in the on-call channel that they
  swapped with a colleague this week.

Varies: the team, the people on the rota, the system that is down, the requester, the review's day and
time, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import queues, ticket
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, list_item, site, sp_list
from gateway.tasks.kit.workplace import message as chat

__all__ = ["FAMILY"]

SYSTEMS = ("VPN gateway", "payroll portal", "build server", "shared printer fleet", "SSO login", "file sync service",
           "customer portal", "warehouse scanner network")  # fmt: skip
COLUMNS: list[dict[str, Any]] = [
    {"name": "Week of", "type": "date", "required": True},
    {"name": "Primary", "type": "person"},
    {"name": "Backup", "type": "person"},
    {"name": "Note", "type": "text"},
]
SHAPES = ("rota", "backup_covers", "swapped_in_chat")


def _has_manager(inst: Instance, person: dict[str, Any], skip: set[str]) -> bool:
    boss = inst.manager_of(person)
    return boss is not None and boss["email"] not in skip


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    pool = [p for p in inst.people(16) if _has_manager(inst, p, {me})]
    primary, backup, last_week, next_week, swap = pool[:5]
    oncall = {"rota": primary, "backup_covers": backup, "swapped_in_chat": swap}[shape]
    trap = {"rota": last_week, "backup_covers": primary, "swapped_in_chat": primary}[shape]
    boss = inst.manager_of(oncall)
    assert boss is not None
    requester = next(p for p in pool[5:] if p["email"] != boss["email"])
    staff = [oncall, trap, *(p for p in (primary, backup, swap) if p not in (oncall, trap))][:3]
    queues(inst, {"it": staff})
    system = inst.pick(SYSTEMS)
    monday = (inst.now - timedelta(days=inst.now.weekday())).date()
    home = site(inst, "IT Operations", [(primary["email"], "full_control"), (me, "edit")])
    rota = sp_list(inst, home, "On-call rota", COLUMNS)
    note = f"{inst.first(primary)} on leave - {inst.first(backup)} covers" if shape == "backup_covers" else ""
    weeks = [(-7, last_week, primary, ""), (0, primary, backup, note), (7, next_week, last_week, "")]
    for offset, first_p, second, text in sorted(weeks, key=lambda _: inst.rng.random()):
        values = {"Week of": (monday + timedelta(days=offset)).isoformat(), "Primary": first_p["email"],
                  "Backup": second["email"], "Note": text}  # fmt: skip
        list_item(inst, rota, values, primary["email"], inst.rng.randint(3, 20))
    crew = [primary, backup, last_week, next_week, swap]
    oncall_chan = channel(inst, "it-oncall", [primary["email"], me, *(p["email"] for p in crew[1:])])
    if shape == "swapped_in_chat":
        chat(inst, oncall_chan, primary["email"], f"Heads up: I swapped this week with {swap['name']}, so"
             f" {inst.first(swap)} is on call; I take their week later.", inst.workday(-3, 17))  # fmt: skip
    else:
        chat(inst, oncall_chan, next_week["email"], "Reminder: check the rota on the IT Operations site.",
             inst.workday(-4, 10))  # fmt: skip
    incidents = channel(inst, "incidents", [me, primary["email"], requester["email"], boss["email"]])
    opened = inst.now - timedelta(minutes=inst.rng.randint(20, 90))
    tk = ticket(inst, "it", f"{system} is down", f"The {system} stopped working for my whole team.",
                requester["email"], opened, priority="urgent", category="Incident")  # fmt: skip
    review = inst.workday(inst.rng.randint(1, 4), inst.rng.randint(10, 16), inst.pick((0, 30)))
    when = f"{review:%A %B} {review.day} at {review:%-I:%M %p}".replace(":00 ", " ")
    req = inst.pick((requester["name"], "the requester"))
    instruction = compose(
        inst,
        [
            (
                f"assign {tk['id']} to whoever is actually on call this week",
                f"give ticket {tk['id']} to this week's on-call engineer (check the rota and the on-call channel)",
            ),
            (
                "add a public comment telling the requester who is on it",
                "let the requester know on the ticket who has it",
            ),
            ("post in #incidents who is handling it", "tell #incidents who the on-call engineer is"),
            ("email the on-call engineer's manager about the incident", "send a mail to their manager so they know"),
            (
                f"book a 30-minute incident review on {when} with the on-call engineer, their manager and {req}",
                f"set up a 30-minute review for {when}: on-call, their manager, {req}",
            ),
        ],  # fmt: skip
        (f"the {system} is down and {tk['id']} just came in", f"{requester['name']} reported the {system} outage"),
        by=requester["name"],
    )
    fixed = {"kind": "person", "value": oncall["email"], "ignore": [requester["email"], me]}  # a greeting names them
    fin = review + timedelta(minutes=30)

    def plan(who: dict[str, Any], *, mgr: dict[str, Any] | None = None, post: str = "", upto: int = 5) -> list[Any]:
        their = mgr or inst.manager_of(who) or boss
        steps: list[dict[str, Any]] = [
            {"tool": "helpdesk.assign_ticket", "args": {"ticket_id": tk["id"], "assignee": who["email"]}},
            {"tool": "helpdesk.add_comment", "args": {"ticket_id": tk["id"],
             "body": f"{who['name']} is on call and is handling this now."}},
            {"tool": "slack.post_message", "args": {"channel": "#incidents",
             "text": post or f"{tk['id']} ({system} down): {who['name']} is on call and handling it."}},
            {"tool": "gmail.send_message", "args": {"to": [their["email"]], "subject": f"{tk['id']}: {system} down",
             "body": f"{who['name']} is on call and is handling the {system} outage ({tk['id']})."}},
            {"tool": "calendar.create_event", "args": {"title": f"Incident review: {system}",
             "start": review.isoformat(), "end": fin.isoformat(),
             "attendees": [who["email"], their["email"], requester["email"]]}},
        ]  # fmt: skip
        return steps[:upto]

    done = {"tool": "complete_task", "args": {"summary": f"{tk['id']} is with {oncall['name']}."}}
    reads = [
        {"tool": "helpdesk.search_tickets", "args": {"text": system}},
        {"tool": "helpdesk.get_ticket", "args": {"ticket_id": tk["id"]}},
        {"tool": "sharepoint.query_items", "args": {"site": home["name"], "list_name": "On-call rota"}},
        {"tool": "slack.get_history", "args": {"channel": "#it-oncall"}},
        {"tool": "directory.get_person", "args": {"person": oncall["email"]}},
        {"tool": "directory.get_manager", "args": {"person": oncall["email"]}},
    ]
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "assigned_to_oncall",
                "kind": "record",
                "app": "helpdesk",
                "collection": "tickets",
                "where": {"id": tk["id"], "assignee": oncall["email"]},
            },
            {
                "name": "requester_told",
                "kind": "record",
                "app": "helpdesk",
                "collection": "comments",
                "new": True,
                "count": 1,
                "where": {"ticket_id": tk["id"], "author": me, "internal": False, "body": {"claims": fixed}},
            },
            {
                "name": "incidents_told",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"channel_id": incidents["id"], "user": me, "text": {"claims": fixed}},
            },
            {
                "name": "manager_mailed",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"sender": me, "to": {"includes": [boss["email"]]}, "body": {"claims": fixed}},
            },
            {
                "name": "review_booked",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {
                    "organizer": me,
                    "start": {"instant": review.isoformat()},
                    "end": {"instant": fin.isoformat()},
                    "attendees": {"any": {"email": oncall["email"]}},
                },
            },
            {
                "name": "manager_at_review",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "where": {"organizer": me, "attendees": {"any": {"email": boss["email"]}}},
            },
            {
                "name": "requester_at_review",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "where": {"organizer": me, "attendees": {"any": {"email": requester["email"]}}},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": tk["id"]},
                "fields": ["assignee", "status", "updated"],
                "values": {"assignee": oncall["email"]},
            },
            {"app": "helpdesk", "collection": "comments", "kinds": ["add"], "where": {"ticket_id": tk["id"]}},
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": incidents["id"], "user": me},
            },
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": me},
                "values": {"to": [boss["email"]]},
            },
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["add"],
                "where": {"organizer": me},
                "values": {"attendees": {"len": 4}},
            },
        ],  # fmt: skip
        "solution": [*reads, *plan(oncall), done],
        "negative_controls": [
            {
                "name": "wrong-oncall",
                "why": f"routes everything to {trap['name']}, not on call this week",
                "steps": [*plan(trap), done],
            },
            {
                "name": "stops-halfway",
                "why": "assigns and comments, then stops",
                "steps": [*plan(oncall, upto=2), done],
            },
            {"name": "no-review", "why": "does everything but book the review", "steps": [*plan(oncall, upto=4), done]},
            {
                "name": "hedged-post",
                "why": "tells #incidents two names without saying which",
                "steps": [*plan(oncall, post=f"{tk['id']}: {oncall['name']} or {trap['name']} will pick it up."), done],
            },
            {
                "name": "requester-manager",
                "why": "mails and invites the requester's manager instead",
                "steps": [*plan(oncall, mgr=inst.manager_of(requester)), done],
            }
            if (inst.manager_of(requester) or boss)["email"] not in (boss["email"], oncall["email"])
            else {
                "name": "no-mail",
                "why": "skips the manager's mail",
                "steps": [*plan(oncall, upto=3), plan(oncall)[4], done],
            },
        ],  # fmt: skip
    }


FAMILY = Family(
    name="sharepoint-oncall-incident",
    apps=("helpdesk", "sharepoint", "slack", "directory", "gmail", "calendar"),
    summary="find who is really on call, then assign, comment, post, mail their manager and book the review",
    build=_build,
    decision=True,
    kind="long_horizon",
)
