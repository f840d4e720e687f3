"""Escalate a stuck ticket: raise its priority, add the requester's manager as a watcher, leave an internal note.

Varies: the requester (and so their manager, read from the directory), the request, the new priority, dates,
the phrasing. Distractors: the user's own manager, the requester's manager's manager, the requester's other
open ticket, and the difference between an internal note and a public reply.

Scenario shapes (picked by the seed):

- ``other_request``: the near-misses above (control: escalates the requester's other open ticket).
- ``same_request_elsewhere``: a colleague in another team has the same request stuck in the same queue
  (control: escalates the colleague's ticket).
- ``solved_before``: the requester had the same request months ago, resolved since (control: escalates the
  old, resolved ticket).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, comment, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

#: Words that say the ticket is escalated ("Escalating to Vikram", "Raised to urgent and added the manager"): the
#: verb done or under way, so "May need escalation", "De-escalated" and "I'll escalate" say nothing of it.
ESCALATED = (
    r"(?<![\w-])(?<!ll )(?<!will )(?<!to )(?<!shall )escalat(?:ed|ing|e)\b"
    r"|\b(?:raised|bumped)(?: it| this| the \w+)?(?: up)? to (?:urgent|high)\b"
)

SHAPES = ("other_request", "same_request_elsewhere", "solved_before")

REQUESTS = (
    ("Software licence for the analytics suite", "it", "needs the budget owner's sign-off"),
    ("Second monitor for home office", "it", "is waiting for approval of the spend"),
    ("Conference travel pre-approval", "finance_ops", "needs a manager's approval before booking"),
    ("Training course reimbursement", "finance_ops", "needs the manager's approval of the course"),
    ("Change of working hours", "people_ops", "needs the manager's agreement"),
    ("Team offsite room booking", "facilities", "needs the budget approved before we can book"),
)


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.user["email"]
    my_boss = inst.manager_of(inst.user)
    skip = {me, my_boss["email"] if my_boss else ""}
    pool = [
        p
        for p in sorted(inst.company.people.values(), key=lambda p: p["id"])
        if p["email"] not in skip
        and (m := inst.manager_of(p)) is not None
        and m["email"] not in skip
        and inst.manager_of(m) is not None
    ]
    requester = inst.pick(pool)
    manager = inst.manager_of(requester)
    assert manager is not None
    grand = inst.manager_of(manager)
    assert grand is not None
    (title, queue, why), (other_title, other_queue, _) = inst.rng.sample(REQUESTS, 2)
    priority = inst.pick(("high", "urgent"))
    queues(inst, {queue: [inst.user]})
    opened = inst.workday(-inst.rng.randint(8, 15), 10)
    target = ticket(
        inst,
        queue,
        title,
        f"{title}. This {why}.",
        requester["email"],
        opened,
        status="waiting",
        assignee=me,
        category="Approval",
    )
    comment(inst, target["id"], me, f"This {why}; we asked for it last week and have heard nothing.", opened)
    other = ticket(
        inst,
        other_queue,
        other_title,
        f"{other_title}.",
        requester["email"],
        inst.workday(-inst.rng.randint(1, 4), 14),
        category="Request",
    )
    who = called(inst, requester)
    shape = SHAPES[inst.seed % len(SHAPES)]
    look_alike: dict[str, Any] | None = None
    if shape == "same_request_elsewhere":
        peer = inst.person(exclude=[requester["email"], manager["email"], grand["email"]])
        look_alike = ticket(inst, queue, title, f"{title}. This {why}.", peer["email"],
                            inst.workday(-inst.rng.randint(8, 15), 14), status="waiting", assignee=me,
                            category="Approval")  # fmt: skip
    elif shape == "solved_before":
        look_alike = ticket(inst, queue, title, f"{title}. This {why}.", requester["email"],
                            inst.workday(-inst.rng.randint(120, 200), 10), status="resolved", assignee=me,
                            category="Approval", resolution="Approved and done.")  # fmt: skip
    thing = title[0].lower() + title[1:]
    instruction = compose(
        inst,
        [
            (
                f"make {who}'s {thing} ticket {priority} priority",
                f"bump the {thing} ticket from {who} to {priority}",
                f"raise {who}'s {thing} request to {priority} priority",
            ),
            (
                f"add {who}'s manager to it as a watcher",
                "put their manager on it as a watcher",
                f"have the person {who} reports to watch it",
            ),
            (
                "leave an internal note saying we're escalating",
                f"add an internal note (not visible to {who}) explaining why",
                "note the escalation internally on the ticket",
            ),
        ],  # fmt: skip
        (
            f"{who}'s ticket about the {thing} has been stuck for ages",
            f"the {thing} request {who} raised is going nowhere",
            f"we need to escalate the {thing} ticket",
            "",
        ),
        by=who,
        tail=("their other ticket can wait", ""),
    )
    note = "Escalating: stuck waiting for approval for over a week; manager added as a watcher."

    def steps(tid: str, watcher: str, internal: bool = True, body: str = note) -> list[dict[str, Any]]:
        return [
            {"tool": "helpdesk.update_ticket", "args": {"ticket_id": tid, "priority": priority}},
            {"tool": "helpdesk.add_watcher", "args": {"ticket_id": tid, "person": watcher}},
            {"tool": "helpdesk.add_comment", "args": {"ticket_id": tid, "body": body, "internal": internal}},
        ]

    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "escalated",
                "kind": "record",
                "app": "helpdesk",
                "collection": "tickets",
                "where": {"id": target["id"], "priority": priority, "watchers": {"includes": [manager["email"]]}},
            },
            {
                "name": "internal_note",
                "kind": "record",
                "app": "helpdesk",
                "collection": "comments",
                "new": True,
                "where": {  # the note says it is escalated ("Not escalating" fails)
                    "ticket_id": target["id"],
                    "author": me,
                    "internal": True,
                    "body": {"claims": {"kind": "states", "detail": [ESCALATED], "done": True}},
                },
            },
        ],
        "allowed_changes": [
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["priority", "watchers", "due", "updated"],
                "values": {"priority": priority},
                "added": {"watchers": {"eq": manager["email"]}},
            },
            {
                "app": "helpdesk",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"ticket_id": target["id"], "author": me, "internal": True},
            },
        ],
        "solution": [
            {
                "tool": "helpdesk.search_tickets",
                "args": {"text": title, "requester": requester["email"]},
                "save": {"tid": "results.0.id"},
            },
            {
                "tool": "directory.get_manager",
                "args": {"person": requester["email"]},
                "save": {"boss": "manager.email"},
            },
            *steps("{tid}", "{boss}"),
        ],
        "negative_controls": [
            {
                "name": "not-escalating-note",
                "why": "does the steps but notes that it is not escalating",
                "steps": steps(target["id"], manager["email"], body="Not escalating - this needs no attention."),
            },
            {
                "name": "my-manager",
                "why": "adds the user's own manager instead of the requester's",
                "steps": steps(target["id"], my_boss["email"] if my_boss else grand["email"]),
            },
            {
                "name": "skip-level",
                "why": "adds the requester's manager's manager",
                "steps": steps(target["id"], grand["email"]),
            },
            {
                "name": "other-ticket",
                "why": "escalates the requester's other ticket",
                "steps": steps(other["id"], manager["email"]),
            },
            *(
                [
                    {
                        "name": shape.replace("_", "-"),
                        "why": "escalates a colleague's ticket with the same request"
                        if shape == "same_request_elsewhere"
                        else "escalates the requester's old, resolved ticket with the same request",
                        "steps": steps(look_alike["id"], manager["email"]),
                    }
                ]
                if look_alike
                else []
            ),
            {
                "name": "public-reply",
                "why": "posts the escalation as a public reply the requester sees",
                "steps": steps(target["id"], manager["email"], internal=False),
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-escalate-to-manager",
    apps=("helpdesk", "directory"),
    summary="escalate a stuck ticket: raise its priority, add the requester's manager as a watcher, note it",
    build=_build,
)
