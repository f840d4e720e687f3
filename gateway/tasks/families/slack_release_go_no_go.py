"""Call go or no-go on a release from its checklist and its blocker tickets, then carry the call through four apps.

Long horizon: the reference reads the release channel (the pinned checklist and its thread), the helpdesk's
release-blocker tickets and the SharePoint release tracker, decides go or no-go (go only when every checklist
item is ticked and no blocker for this release is still open), and that one decision picks what the channel
is told, what the tracker's status becomes and what the release manager's manager is mailed; the retro is
booked either way: 13 calls over slack, helpdesk, sharepoint, directory, gmail and calendar. Every outcome is
checked, so stopping halfway scores 0.

Scenario shapes (picked by the seed):

- ``go``: every item is ticked (the last one by a later reply in the checklist's thread) and this release's
  blockers are resolved; another release's blocker is still open.
- ``open_blocker``: the checklist is complete, but one blocker ticket for this release is still open.
- ``checklist_gap``: the blockers are resolved, but one checklist item is unticked and its thread says it
  is still pending.

Varies: the project and release number, the release manager and QA lead, the checklist's items, the
blockers, the retro's day and time, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import queues, ticket
from gateway.tasks.kit.people import managed_person
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, list_item, message, project_names, site, sp_list

__all__ = ["FAMILY"]

ITEMS = ("Code freeze in place", "Regression suite green", "Release notes drafted", "Rollback plan reviewed",
         "Security review signed off", "Support team briefed", "Migration dry run done")  # fmt: skip
BLOCKERS = ("Login fails for SSO users", "Export times out on large files", "Crash when saving drafts offline",
            "Wrong totals on the invoice page", "Search returns stale results")  # fmt: skip
COLUMNS: list[dict[str, Any]] = [
    {"name": "Release", "type": "text", "required": True},
    {"name": "Owner", "type": "person"},
    {"name": "Status", "type": "choice", "choices": ["Planned", "Go", "No-go", "Shipped"]},
]
SHAPES = ("go", "open_blocker", "checklist_gap")
DECISIONS = {True: "Go", False: "No-go"}


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    manager, boss = managed_person(inst)
    qa = inst.person(exclude=[manager["email"], boss["email"]])
    project, other_project = project_names(inst, 2)
    release = f"{project} {inst.rng.randint(2, 6)}.{inst.rng.randint(0, 9)}"
    other_release = f"{other_project} {inst.rng.randint(1, 4)}.{inst.rng.randint(0, 9)}"
    go = shape == "go"
    decision, wrong = DECISIONS[go], DECISIONS[not go]
    slug = project.lower()
    extra = inst.people(2, exclude=[manager["email"], qa["email"]])
    chan = channel(inst, f"release-{slug}", [manager["email"], me, qa["email"], *(p["email"] for p in extra)])
    items = inst.rng.sample(ITEMS, 4)
    pending = items[-1]
    ticks = [f"[x] {i}" for i in items[:-1]] + [f"[{' ' if shape == 'checklist_gap' else 'x'}] {pending}"]
    posted = inst.workday(-inst.rng.randint(3, 5), 10, 15)
    checklist = message(inst, chan, manager["email"], f"Release checklist for {release}:\n" + "\n".join(ticks),
                        posted)  # fmt: skip
    pinned = {"pinned_by": manager["email"], "pinned_at": posted.isoformat()}
    inst.overrides["slack"]["messages"][checklist["id"]].update(pinned)
    later = inst.workday(-1, inst.rng.randint(10, 16), inst.pick((5, 40)))
    if shape == "checklist_gap":
        reply = f"{pending}: still pending, I'll tick it when it lands."
    else:
        reply = f"{pending}: signed off this morning, so that's everything ticked."
    message(inst, chan, qa["email"] if shape != "checklist_gap" else manager["email"], reply, later, checklist["id"])
    handed = f"Go/no-go call on {release} is with {inst.given_name(inst.user)}."
    message(inst, chan, manager["email"], handed, later + timedelta(hours=1))
    queues(inst)
    opened = inst.workday(-inst.rng.randint(6, 9), 11)
    titles = inst.rng.sample(BLOCKERS, 3)
    blockers = []
    for n, title in enumerate(titles[:2]):
        still_open = shape == "open_blocker" and n == 1
        blockers.append(
            ticket(inst, "it", f"{release}: {title}", f"Blocks the {release} release.", qa["email"],
                   opened + timedelta(hours=n), status="open" if still_open else "resolved", priority="high",
                   category="Release blocker", assignee="",
                   resolution="" if still_open else "Fixed and verified.")  # fmt: skip
        )
    ticket(inst, "it", f"{other_release}: {titles[2]}", f"Blocks the {other_release} release.", qa["email"],
           opened, priority="high", category="Release blocker")  # fmt: skip
    eng = site(inst, "Release management", [(manager["email"], "full_control"), (me, "edit")])
    tracker = sp_list(inst, eng, "Release tracker", COLUMNS)
    mine = list_item(inst, tracker, {"Release": release, "Owner": manager["email"], "Status": "Planned"},
                     manager["email"], inst.rng.randint(10, 20))  # fmt: skip
    list_item(inst, tracker, {"Release": other_release, "Owner": qa["email"], "Status": "Planned"},
              manager["email"], inst.rng.randint(10, 20))  # fmt: skip
    retro = inst.workday(inst.rng.randint(2, 6), inst.rng.randint(10, 16), inst.pick((0, 30)))
    end = retro + timedelta(minutes=30)
    when = f"{retro:%A %B} {retro.day} at {retro:%-I:%M %p}".replace(":00 ", " ")
    who = inst.pick((manager["name"], inst.first(manager)))
    instruction = compose(
        inst,
        [
            (
                f"make the go/no-go call on {release}: go only if every item on the pinned checklist in"
                f" #release-{slug} is ticked and no release-blocker ticket for it is still open",
                f"decide whether {release} ships - it's a go when the checklist pinned in #release-{slug} is all"
                " done and none of its blocker tickets is open, otherwise no-go",
            ),
            (f"post the call in #release-{slug}", f"tell #release-{slug} whether it's a go or a no-go"),
            (
                f"set {release}'s status in the Release tracker on the Release management site to Go or No-go",
                "update the Release tracker list in SharePoint (Release management site) with the call",
            ),
            (f"email {who}'s manager the decision", f"let {who}'s manager know the call by mail"),
            (
                f"book a 30-minute retro on {when} with {who} and {inst.first(qa)} from QA",
                f"set up a 30-minute retro for {when}: {who} and {qa['name']}",
            ),
        ],
        (f"{who} handed me the go/no-go for {release}", f"{release} is due out this week", ""),
        by=str(manager["name"]),
    )
    cands = [["Go", "go-ahead"], ["No-go", "no go"]]
    claim = {"kind": "choice", "value": decision, "candidates": cands}

    def plan(call: str, *, upto: int = 4, post: str = "") -> list[dict[str, Any]]:
        why = "everything on the checklist is done and no blocker is open" if call == "Go" else (
            f"{blockers[1]['id']} is still open" if shape == "open_blocker" else f"'{pending}' is still pending")
        text = f"Decision for {release}: {call.lower()}. {why[:1].upper()}{why[1:]}."
        steps: list[dict[str, Any]] = [
            {"tool": "slack.post_message", "args": {"channel": f"#release-{slug}", "text": post or text}},
            {"tool": "sharepoint.update_item", "args": {"item_id": mine["id"], "fields": [f"Status={call}"]}},
            {"tool": "gmail.send_message", "args": {"to": [boss["email"]], "subject": f"{release} go/no-go",
             "body": text}},
            {"tool": "calendar.create_event", "args": {"title": f"{release} retro", "start": retro.isoformat(),
             "end": end.isoformat(), "attendees": [manager["email"], qa["email"]]}},
        ]  # fmt: skip
        return steps[:upto]

    reads = [
        {"tool": "slack.list_pins", "args": {"channel": f"#release-{slug}"}},
        {"tool": "slack.get_thread", "args": {"message_id": checklist["id"]}},
        {"tool": "slack.get_history", "args": {"channel": f"#release-{slug}"}},
        {"tool": "helpdesk.search_tickets", "args": {"text": release, "category": "Release blocker"}},
        *({"tool": "helpdesk.get_ticket", "args": {"ticket_id": b["id"]}} for b in blockers),
        {"tool": "sharepoint.query_items", "args": {"site": "Release management", "list_name": "Release tracker"}},
        {"tool": "directory.get_manager", "args": {"person": manager["email"]}},
    ]
    done = {"tool": "complete_task", "args": {"summary": f"{release}: {decision.lower()}; posted, tracked, booked."}}
    return {
        "instruction": instruction,
        "checks": [
            {"name": "channel_told", "kind": "record", "app": "slack", "collection": "messages", "new": True,
             "count": 1, "where": {"channel_id": chan["id"], "user": me, "text": {"claims": claim}}},
            {"name": "tracker_updated", "kind": "record", "app": "sharepoint", "collection": "items",
             "where": {"id": mine["id"], "values.Status": decision}},
            {"name": "manager_mailed", "kind": "record", "app": "gmail", "collection": "messages", "new": True,
             "count": 1, "where": {"sender": me, "to": {"includes": [boss["email"]]}, "body": {"claims": claim}}},
            {"name": "retro_booked", "kind": "record", "app": "calendar", "collection": "events", "new": True,
             "count": 1, "where": {"organizer": me, "start": {"instant": retro.isoformat()},
                                   "end": {"instant": end.isoformat()},
                                   "attendees": {"any": {"email": manager["email"]}}}},
            {"name": "qa_at_retro", "kind": "record", "app": "calendar", "collection": "events", "new": True,
             "where": {"organizer": me, "attendees": {"any": {"email": qa["email"]}}}},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "slack", "collection": "messages", "kinds": ["add"],
             "where": {"channel_id": chan["id"], "user": me}},
            {"app": "sharepoint", "collection": "items", "kinds": ["update"], "where": {"id": mine["id"]},
             "fields": ["values", "modified", "modified_by"], "values": {"values.Status": decision}},
            {"app": "gmail", "collection": "messages", "kinds": ["add"], "where": {"sender": me},
             "values": {"to": [boss["email"]]}},
            {"app": "calendar", "collection": "events", "kinds": ["add"], "where": {"organizer": me},
             "values": {"attendees": {"len": 3}}},
        ],  # fmt: skip
        "solution": [*reads, *plan(decision), done],
        "negative_controls": [
            {"name": "wrong-call", "why": f"calls it {wrong}: misses the open blocker or the unticked item, or"
             " holds a clean release", "steps": [*plan(wrong), done]},
            {"name": "stops-halfway", "why": "posts and updates the tracker, then stops",
             "steps": [*plan(decision, upto=2), done]},
            {"name": "no-retro", "why": "does everything but book the retro", "steps": [*plan(decision, upto=3), done]},
            {"name": "hedged-post", "why": "tells the channel it is go or no-go without saying which",
             "steps": [*plan(decision, post=f"{release}: go or no-go, whichever the tickets say."), done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="slack-release-go-no-go",
    apps=("slack", "helpdesk", "sharepoint", "directory", "gmail", "calendar"),
    summary="call go or no-go on a release from its checklist and blockers, then post, track, mail and book",
    build=_build,
    decision=True,
    kind="long_horizon",
)
