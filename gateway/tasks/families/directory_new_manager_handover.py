"""Hand a manager's reports over to a new manager: who actually moves decides every step across five apps.

Long horizon: the reference reads the People Ops mail (and any later word on it) and the directory (the old
manager's direct reports), decides who moves, and that one decision picks whose approval tickets are
reassigned, whose 1:1 notes folders are shared with the new manager and which 1:1 series the new manager
joins; the team channel gains the new manager and is told who it is: 16 calls or more over directory,
gmail, slack, helpdesk, onedrive and calendar. Every outcome is checked, so stopping halfway scores 0.

Scenario shapes (picked by the seed):

- ``all_move``: every direct report moves to the new manager.
- ``one_stays``: the mail moves every report but one, who stays with the old manager.
- ``later_exception``: the mail moves everyone; a later reply from People Ops keeps one report back.

Varies: the old and new manager, the reports, People Ops' sender, the move date, the tickets' requests,
the 1:1 series' times, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import long_date, onedrive_folder
from gateway.tasks.kit.helpdesk import queues, ticket
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event, message
from gateway.tasks.kit.workplace import channel

__all__ = ["FAMILY"]

#: The channel is told who manages them, not only greeted ("Welcome Theo!" names him, and says nothing of it).
MANAGES = {"kind": "states", "detail": [r"\bmanag\w*|\breport(?:s|ing)? (?:in)?to\b|\bboss\b|\blead(?:s|ing)?\b"]}

SHAPES = ("all_move", "one_stays", "later_exception")
REQUESTS = ("training budget approval", "home office equipment approval", "conference travel approval",
            "certification fee approval", "flexible hours request")  # fmt: skip


def _teams(inst: Instance) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Managers (not the user) with three or four direct reports, none of them the user, in id order."""
    people = sorted(inst.company.people.values(), key=lambda p: p["id"])
    reports: dict[str, list[dict[str, Any]]] = {}
    for p in people:
        if p.get("manager"):
            reports.setdefault(p["manager"], []).append(p)
    me = inst.company.user
    return [(p, reports[p["email"]]) for p in people if 3 <= len(reports.get(p["email"], [])) <= 4
            and p["email"] != me and me not in {r["email"] for r in reports[p["email"]]}]  # fmt: skip


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    old, reports = inst.pick(_teams(inst))
    team = [old["email"], *(r["email"] for r in reports)]
    new = inst.person(exclude=team)
    hr = inst.person(exclude=[*team, new["email"]])
    stays = inst.pick(reports) if shape != "all_move" else None
    movers = [r for r in reports if r is not stays]
    when = inst.workday(inst.rng.randint(5, 12))
    sign = inst.first(hr)
    listed = ", ".join(r["name"] for r in reports)
    body = f"Hi,\n\nFrom {long_date(when.date())}, {old['name']}'s direct reports ({listed}) move to {new['name']}."
    if shape == "one_stays" and stays:
        body += f" The one exception is {stays['name']}, who stays with {inst.first(old)}."
    note = message(inst, sender=hr["email"], subject=f"Reporting change: {old['name']}'s team",
                   body=body + "\n\nPlease sort out the handover.\n\n" + sign,
                   when=inst.workday(-inst.rng.randint(3, 5), 10, 20))  # fmt: skip
    if shape == "later_exception" and stays:
        message(inst, sender=hr["email"], subject=f"Re: Reporting change: {old['name']}'s team",
                body=f"One change: {stays['name']} stays with {inst.first(old)} after all. Everyone else moves as"
                f" planned.\n\n{sign}", when=inst.workday(-1, 15, 5), thread=note["id"],
                in_reply_to=note["id"])  # fmt: skip
    queues(inst, {"people_ops": [old, new]})
    slug = inst.given_name(old).lower()
    chan = channel(inst, f"team-{slug}", [old["email"], me, *(r["email"] for r in reports)],
                   topic=f"{old['name']}'s team")  # fmt: skip
    opened = inst.workday(-inst.rng.randint(4, 8), 11)
    asks = inst.rng.sample(REQUESTS, len(reports))
    tickets, folders, series = {}, {}, {}
    people_dir = onedrive_folder(inst, "1-1 notes")
    for n, (r, ask) in enumerate(zip(reports, asks, strict=True)):
        tickets[r["email"]] = ticket(inst, "people_ops", f"{ask.capitalize()}: {r['name']}",
                                     f"{r['name']} asks for {ask}; needs their manager's sign-off.", r["email"],
                                     opened + timedelta(hours=n), assignee=old["email"])  # fmt: skip
        folders[r["email"]] = onedrive_folder(inst, r["name"], people_dir["id"])
        start = inst.workday(-inst.rng.randint(20, 40), 10 + n, 0)
        series[r["email"]] = event(inst, title=f"{inst.first(old)} / {inst.first(r)} 1:1", start=start,
                                   end=start + timedelta(minutes=30), organizer=me,
                                   attendees=[old["email"], r["email"]], recurrence="weekly",
                                   responses={old["email"]: "accepted", r["email"]: "accepted"})  # fmt: skip
    oname, nname = inst.pick((old["name"], inst.first(old))), inst.pick((new["name"], inst.first(new)))
    instruction = compose(
        inst,
        [
            (
                f"check People Ops' mail on {oname}'s team to see exactly who moves to {nname}",
                f"work out from People Ops' mails which of {oname}'s reports are moving to {nname}",
            ),
            (
                f"add {nname} to #team-{slug} and post there who their new manager is",
                f"invite {nname} into #team-{slug} and tell the channel about the new manager",
            ),
            (
                f"reassign the movers' open People Ops tickets from {oname} to {nname}",
                f"hand the approval tickets of everyone moving over to {nname}",
            ),
            (
                f"share each mover's folder in my OneDrive '1-1 notes' with {nname} (edit)",
                f"give {nname} write access to the movers' folders under 1-1 notes in my OneDrive",
            ),
            (
                f"add {nname} to the movers' weekly 1:1 series I run for {oname}",
                f"invite {nname} to every occurrence of the movers' 1:1s on my calendar",
            ),
        ],
        (f"{oname}'s team is being handed over to {nname}", f"People Ops is moving {oname}'s reports", ""),
        by=str(hr["name"]),
    )
    # anyone of the directory but the team and its people-ops sender: "Theo and Bianca are the managers" fails
    said = {"kind": "person", "value": new["email"], "ignore": [me, hr["email"], *(r["email"] for r in reports)]}

    def plan(who: list[dict[str, Any]], *, upto: int = 5, post: str = "") -> list[dict[str, Any]]:
        names = ", ".join(r["name"] for r in who)
        steps: list[list[dict[str, Any]]] = [
            [{"tool": "slack.invite_to_channel", "args": {"channel": f"#team-{slug}", "people": [new["email"]]}},
             {"tool": "slack.post_message", "args": {"channel": f"#team-{slug}", "text": post or
              f"From {long_date(when.date())}, {new['name']} is the manager for {names}. Welcome!"}}],
            [{"tool": "helpdesk.assign_ticket", "args": {"ticket_id": tickets[r["email"]]["id"],
              "assignee": new["email"]}} for r in who],
            [{"tool": "onedrive.grant_access", "args": {"item": folders[r["email"]]["id"],
              "recipients": [new["email"]], "role": "write"}} for r in who],
            [{"tool": "calendar.update_event", "args": {"event_id": series[r["email"]]["id"],
              "add_attendees": [new["email"]], "scope": "all"}} for r in who],
        ]  # fmt: skip
        return [s for group in steps[:upto] for s in group]

    reads = [
        {"tool": "gmail.search_messages", "args": {"query": "Reporting change"}},
        {"tool": "gmail.get_thread", "args": {"thread_id": note["thread_id"]}},
        {"tool": "directory.list_direct_reports", "args": {"person": old["email"]}},
        {"tool": "directory.get_person", "args": {"person": new["email"]}},
        {"tool": "helpdesk.search_tickets", "args": {"assignee": old["email"], "status": "active"}},
        {"tool": "onedrive.list_children", "args": {"folder": people_dir["id"]}},
        {"tool": "calendar.list_events", "args": {"query": "1:1"}},
    ]
    done = {"tool": "complete_task", "args": {"summary": f"Handed {len(movers)} reports over to {new['name']}."}}
    per_mover = []
    for n, r in enumerate(movers):
        per_mover += [
            {"name": f"ticket_{n}_reassigned", "kind": "record", "app": "helpdesk", "collection": "tickets",
             "where": {"id": tickets[r["email"]]["id"], "assignee": new["email"]}},
            {"name": f"folder_{n}_shared", "kind": "record", "app": "onedrive", "collection": "items",
             "where": {"id": folders[r["email"]]["id"],
                       "permissions": {"any": {"email": new["email"], "role": "write"}}}},
            {"name": f"one_on_one_{n}", "kind": "record", "app": "calendar", "collection": "events",
             "where": {"id": series[r["email"]]["id"], "attendees": {"any": {"email": new["email"]}}}},
        ]  # fmt: skip
    mover_ids = {k: [x[r["email"]]["id"] for r in movers] for k, x in (("t", tickets), ("f", folders), ("s", series))}
    return {
        "instruction": instruction,
        "checks": [
            {"name": "manager_in_channel", "kind": "record", "app": "slack", "collection": "channels",
             "where": {"id": chan["id"], "members": {"includes": [new["email"]]}}},
            {"name": "channel_told", "kind": "record", "app": "slack", "collection": "messages", "new": True,
             "count": 1, "where": {"channel_id": chan["id"], "user": me, "text": {"claims": [said, MANAGES]}}},
            *per_mover,
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "slack", "collection": "channels", "kinds": ["update"], "where": {"id": chan["id"]},
             "fields": ["members"], "added": {"members": {"eq": new["email"]}}},
            {"app": "slack", "collection": "messages", "kinds": ["add"],
             "where": {"channel_id": chan["id"], "user": me}},
            {"app": "helpdesk", "collection": "tickets", "kinds": ["update"], "where": {"id": {"in": mover_ids["t"]}},
             "fields": ["assignee", "updated", "status"], "values": {"assignee": new["email"]}},
            {"app": "onedrive", "collection": "items", "kinds": ["update"], "where": {"id": {"in": mover_ids["f"]}},
             "fields": ["permissions"], "added": {"permissions": {"email": new["email"], "role": "write"}}},
            {"app": "calendar", "collection": "events", "kinds": ["update"], "where": {"id": {"in": mover_ids["s"]}},
             "fields": ["attendees"], "added": {"attendees": {"email": new["email"]}}},
        ],  # fmt: skip
        "solution": [*reads, *plan(movers), done],
        "negative_controls": [
            {"name": "wrong-people", "why": "moves the report who stays too" if stays else "leaves one mover behind",
             "steps": [*plan(reports if stays else movers[1:]), done]},
            {"name": "stops-halfway", "why": "updates the channel and the tickets, then stops",
             "steps": [*plan(movers, upto=2), done]},
            {"name": "no-one-on-ones", "why": "does everything but add the new manager to the 1:1s",
             "steps": [*plan(movers, upto=3), done]},
            {"name": "old-manager-named", "why": "tells the channel the old manager still manages them",
             "steps": [*plan(movers, post=f"{old['name']} stays the manager for everyone for now."), done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="directory-new-manager-handover",
    apps=("directory", "gmail", "slack", "helpdesk", "onedrive", "calendar"),
    summary="move a manager's reports to a new manager: channel, tickets, folders and 1:1s for those who move",
    build=_build,
    decision=True,
    kind="long_horizon",
)
