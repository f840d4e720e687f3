"""Set a ticket's priority to what its requester last asked for, after a later comment or mail changed it.

Ambiguity the world resolves: the instruction says only "set it the way they asked"; the ticket's
description asks for one priority, and a later word from the requester (a comment on the ticket, or a mail)
may ask for another. The reference reads both, sets the last one asked for and confirms it in a public
comment. Setting the first-asked priority (the superseded reading) scores 0.

Scenario shapes (picked by the seed):

- ``comment_changes``: a later public comment by the requester on the ticket asks for another priority.
- ``mail_changes``: a later mail from the requester asks for another priority on this ticket.
- ``other_ticket``: the requester's later comment changes the priority of another of their tickets; the
  description's request for this one stands.

Varies: the requester, the request and its queue, the three priorities (current, first asked, final), why
it changed, dates, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, comment, queues, ticket
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

#: (title, what is wrong, queue)
REQUESTS = (
    ("VPN drops every hour", "My VPN connection drops roughly once an hour and I lose my session.", "it"),
    ("Shared drive won't map", "The team's shared drive fails to map on my laptop since Friday.", "it"),
    ("Badge doesn't open floor 4", "My badge stopped opening the floor 4 doors.", "facilities"),
    ("Standing desk stuck low", "My standing desk won't go up any more.", "facilities"),
    ("Invoice stuck in approval", "A supplier invoice has been stuck in approval for a week.", "finance_ops"),
    ("Benefits enrolment form error", "The benefits enrolment form errors out when I submit it.", "people_ops"),
    ("Monitor flickers", "My second monitor flickers every few seconds.", "it"),
    ("Expense card declined", "My company card was declined at a supplier this morning.", "finance_ops"),
)
LEVELS = ("low", "normal", "high", "urgent")
WHY = {
    "up": ("it's now blocking the whole team", "the deadline moved up to this week", "a client is waiting on it"),
    "down": ("we found a workaround", "it's only affecting me now", "the deadline moved out a month"),
}
SHAPES = ("comment_changes", "mail_changes", "other_ticket")


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    requester = inst.person()
    boss = inst.person(exclude=[requester["email"]])
    queues(inst)
    (title, text, queue), (other_title, other_text, other_queue) = inst.rng.sample(REQUESTS, 2)
    current, first, later = inst.rng.sample(LEVELS, 3)
    final = first if shape == "other_ticket" else later
    opened = inst.workday(-inst.rng.randint(3, 6), 9, inst.pick((10, 25, 40)))
    sign = inst.first(requester)
    target = ticket(inst, queue, title, f"{text}\n\nCould you set this one to {first} priority, please?",
                    requester["email"], opened, priority=current)  # fmt: skip
    other = ticket(inst, other_queue, other_title, f"{other_text}\n\nPlease treat it as {current} priority.",
                   requester["email"], opened + timedelta(hours=2), priority=current)  # fmt: skip
    why = inst.pick(WHY["up" if LEVELS.index(later) > LEVELS.index(first) else "down"])
    when = inst.workday(-1, inst.rng.randint(10, 16), inst.pick((5, 35)))
    if shape == "comment_changes":
        comment(inst, target["id"], requester["email"], f"Update: please make this {later} instead - {why}.", when)
    elif shape == "mail_changes":
        message(inst, sender=requester["email"], subject=f"{target['id']} priority",
                body=f"Hi,\n\nAbout {target['id']} ({title}): {why}, so please set it to {later} rather than"
                f" {first}.\n\n{sign}", when=when)  # fmt: skip
    else:
        comment(inst, other["id"], requester["email"], f"Update: please make this one {later} instead - {why}.", when)
    comment(inst, target["id"], requester["email"], "Any news on this?", opened + timedelta(days=1, hours=3))
    who = called(inst, requester)
    instruction = compose(
        inst,
        [
            (
                f"set the priority on {target['id']} to what {who} asked for",
                f"give {target['id']} the priority {who} wants",
                f"change {target['id']}'s priority the way {who} asked",
            ),
            (
                "confirm the new priority in a public comment on the ticket",
                "leave them a comment on the ticket saying what it's set to now",
            ),
        ],
        (f"{who} wants {target['id']} reprioritised", f"{who} chased me about {target['id']}", ""),
        by=str(boss["name"]),
        tail=("check everything they've said about it first", "only that ticket", ""),
    )
    claim = {"kind": "choice", "value": final, "candidates": list(LEVELS)}

    def do(level: str, said: str = "", tid: str = target["id"]) -> list[dict[str, Any]]:
        return [
            {"tool": "helpdesk.update_ticket", "args": {"ticket_id": tid, "priority": level}},
            {"tool": "helpdesk.add_comment",
             "args": {"ticket_id": tid, "body": f"Priority is now {said or level}, as you asked."}},
        ]  # fmt: skip

    done = {"tool": "complete_task", "args": {"summary": f"Set {target['id']} to {final}."}}
    misread = later if shape == "other_ticket" else first
    return {
        "instruction": instruction,
        "checks": [
            {"name": "priority_set", "kind": "record", "app": "helpdesk", "collection": "tickets",
             "where": {"id": target["id"], "priority": final}},
            {"name": "priority_confirmed", "kind": "record", "app": "helpdesk", "collection": "comments",
             "new": True, "count": 1,
             "where": {"ticket_id": target["id"], "internal": False, "body": {"claims": claim}}},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "helpdesk", "collection": "tickets", "kinds": ["update"], "where": {"id": target["id"]},
             "fields": ["priority", "updated"], "values": {"priority": final}},
            {"app": "helpdesk", "collection": "comments", "kinds": ["add"], "where": {"ticket_id": target["id"]}},
        ],  # fmt: skip
        "solution": [
            {"tool": "helpdesk.get_ticket", "args": {"ticket_id": target["id"]}},
            {"tool": "helpdesk.list_comments", "args": {"ticket_id": target["id"]}},
            {"tool": "gmail.search_messages", "args": {"query": f"from:{requester['email']}"}},
            {"tool": "helpdesk.search_tickets", "args": {"requester": requester["email"]}},
            *do(final),
            done,
        ],
        "negative_controls": [
            {"name": "superseded-reading",
             "why": "sets what was asked first, or the value meant for another ticket",
             "steps": [*do(misread), done]},
            {"name": "stale-comment", "why": "sets the right priority but the comment names the old one",
             "steps": [*do(final, said=misread), done]},
            {"name": "no-comment", "why": "sets the priority without telling the requester",
             "steps": [do(final)[0], done]},
            {"name": "both-tickets", "why": "also changes the requester's other ticket",
             "steps": [*do(final), {"tool": "helpdesk.update_ticket",
                                    "args": {"ticket_id": other["id"], "priority": later}}, done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="helpdesk-superseded-priority",
    apps=("helpdesk", "gmail"),
    summary="set a ticket's priority to what its requester asked for last, not first, and confirm it",
    build=_build,
    decision=True,
    kind="ambiguity",
)
