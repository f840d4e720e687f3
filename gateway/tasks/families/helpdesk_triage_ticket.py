"""Triage a new ticket that landed in the wrong queue: move it, set its priority, give it to local staff.

The assignee is a decision: the staff member of the right queue who works in the requester's office (read
from the directory). Varies: the request, the right and wrong queue, the requester and their office, the
staff, the priority, dates, the phrasing. Distractors: the right queue's lead (in another office), another
staff member in a third office, and an older ticket about the same thing from another requester.

Scenario shapes (picked by the seed):

- ``older_same_title``: the near-misses above (control: re-triages the older ticket of the same title).
- ``second_request``: the requester filed a second, unrelated ticket this morning, in its right queue
  (control: triages that one instead).
- ``misleading_hint``: someone from the wrong queue left an internal note suggesting the right queue's lead,
  who works in another office (control: gives it to the lead).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, comment, queue_id, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

#: (title, description, right queue, queue it landed in)
REQUESTS = (
    ("Desk drawer lock jammed", "The lock on my desk drawer is stuck with my laptop inside.", "facilities", "it"),
    ("Laptop won't boot", "Black screen after the update this morning.", "it", "facilities"),
    ("Expense claim rejected", "My claim for the client dinner came back rejected with no reason.", "finance_ops",
     "people_ops"),
    ("Payslip shows the wrong address", "My payslip still has my old home address.", "people_ops", "finance_ops"),
    ("Meeting room lights flicker", "The lights in the small meeting room flicker all day.", "facilities", "it"),
    ("Shared mailbox access", "I need access to the team's shared mailbox.", "it", "people_ops"),
)  # fmt: skip
SHAPES = ("older_same_title", "second_request", "misleading_hint")
NAMES = {"it": "IT", "facilities": "Facilities", "people_ops": "People Ops", "finance_ops": "Finance Ops"}


def _by_office(inst: Instance) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for p in sorted(inst.company.people.values(), key=lambda p: p["id"]):
        if p["email"] != inst.company.user and p.get("location"):
            out.setdefault(p["location"], []).append(p)
    return out


def _build(inst: Instance) -> dict[str, Any]:
    title, text, right, wrong = inst.pick(REQUESTS)
    offices = _by_office(inst)
    home = inst.pick(sorted(o for o, ps in offices.items() if len(ps) >= 2))
    others = sorted(o for o in offices if o != home)
    away, third = inst.rng.sample(others, 2) if len(others) > 1 else (others[0], others[0])
    requester, local = inst.rng.sample(offices[home], 2)
    lead = inst.pick(offices[away])
    remote = inst.pick([p for p in offices[third] if p["email"] != lead["email"]])
    queues_staff = queues(inst, {right: [lead, remote, local]})
    priority = inst.pick(("low", "high", "urgent"))
    other_requester = inst.pick([p for p in offices[away] if p["email"] != lead["email"]] or offices[third])
    target = ticket(inst, wrong, title, text, requester["email"], inst.day(0, 8, inst.pick((5, 20, 35))), category="")
    older = ticket(
        inst,
        right,
        title,
        text,
        other_requester["email"],
        inst.day(-inst.rng.randint(5, 20), 11),
        status="in_progress",
        assignee=lead["email"],
    )
    who = called(inst, requester)
    shape = SHAPES[inst.seed % len(SHAPES)]
    second: dict[str, Any] | None = None
    if shape == "second_request":
        o_title, o_text, o_right, _ = inst.pick([r for r in REQUESTS if r[0] != title])
        second = ticket(inst, o_right, o_title, o_text, requester["email"], inst.day(0, 8, 50), category="")
    elif shape == "misleading_hint":
        staff = queues_staff[wrong][0]
        comment(inst, target["id"], staff, f"Not one for {NAMES[wrong]} - maybe {lead['name']} in {NAMES[right]}?",
                inst.day(0, 8, 55), internal=True)  # fmt: skip
    right_name, wrong_name, title_l = NAMES[right], NAMES[wrong], title.lower()
    instruction = compose(
        inst,
        [
            (
                f"move {who}'s new ticket to {right_name}",
                f'put the ticket {who} opened this morning about "{title_l}" in the {right_name} queue',
                f"get {who}'s {title_l} ticket out of {wrong_name} and into {right_name}",
            ),
            (f"make it {priority} priority", f"set its priority to {priority}", f"mark it {priority}"),
            (
                f"assign it to whoever on the {right_name} team sits in {who}'s office",
                f"give it to the {right_name} staff member in the same office as {who}",
                f"hand it to the {right_name} support person based where {who} is",
            ),
        ],  # fmt: skip
        (
            f"{who}'s new ticket ({title_l}) was filed in {wrong_name} but it belongs to {right_name}",
            f'the ticket "{title_l}" landed in the wrong queue',
            "",
        ),
        by=who,
        tail=("not the older ticket with the same title", "the one from this morning", ""),
    )

    def triage(tid: str, owner: str, prio: str = priority) -> list[dict[str, Any]]:
        return [
            {"tool": "helpdesk.update_ticket", "args": {"ticket_id": tid, "queue": NAMES[right], "priority": prio}},
            {"tool": "helpdesk.assign_ticket", "args": {"ticket_id": tid, "assignee": owner}},
        ]

    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "triaged",
                "kind": "record",
                "app": "helpdesk",
                "collection": "tickets",
                "where": {
                    "id": target["id"],
                    "queue_id": queue_id(inst, right),
                    "priority": priority,
                    "assignee": local["email"],
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["queue_id", "priority", "assignee", "due", "category", "status", "updated"],
                "values": {
                    "queue_id": queue_id(inst, right),
                    "priority": priority,
                    "assignee": local["email"],
                    "status": {"in": ["open", "in_progress"]},
                },
            },
            {
                "app": "helpdesk",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"ticket_id": target["id"]},
            },
        ],
        "solution": [
            {
                "tool": "helpdesk.search_tickets",
                "args": {"text": title, "requester": requester["email"]},
                "save": {"tid": "results.0.id"},
            },
            {"tool": "helpdesk.list_queues", "args": {}},
            {"tool": "directory.get_person", "args": {"person": requester["email"]}},
            {"tool": "directory.search_people", "args": {"query": home}},
            *triage("{tid}", local["email"]),
        ],
        "negative_controls": [
            {
                "name": "queue-lead",
                "why": "gives it to the queue's lead, who works in another office",
                "steps": triage(target["id"], lead["email"]),
            },
            {
                "name": "other-office-staff",
                "why": "gives it to the staff member in a third office",
                "steps": triage(target["id"], remote["email"]),
            },
            {
                "name": "priority-unchanged",
                "why": "moves and assigns it but leaves the priority",
                "steps": [
                    {"tool": "helpdesk.update_ticket", "args": {"ticket_id": target["id"], "queue": NAMES[right]}},
                    {"tool": "helpdesk.assign_ticket", "args": {"ticket_id": target["id"], "assignee": local["email"]}},
                ],
            },
            *(
                [{"name": "second-request", "why": "triages the requester's other ticket from this morning",
                  "steps": triage(second["id"], local["email"])}]
                if second
                else []
            ),
            {
                "name": "older-ticket",
                "why": "re-triages the older ticket about the same thing",
                "steps": triage(older["id"], local["email"]),
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-triage-ticket",
    apps=("helpdesk", "directory"),
    summary="move a misfiled ticket to its queue, set its priority, assign the staff member in the requester's office",
    build=_build,
    decision=True,
)
