"""Book a follow-up meeting on a ticket with its requester and whoever is working on it.

Varies: the ticket's topic, requester, assignee, the day, time and length of the meeting, the phrasing.
Distractors: a watcher on the ticket and its previous assignee (named in a comment), and another ticket on
the same topic with another requester and assignee.

Scenario shapes (picked by the seed):

- ``handed_over``: the near-misses above (control: invites the previous assignee named in the hand-over).
- ``handed_twice``: the ticket went through two hand-overs before reaching its assignee (control: invites the
  person in the middle of the chain).
- ``asked_before``: the requester had a ticket on the same topic last year, closed by someone else (control:
  invites the old ticket's assignee).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, comment, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("handed_over", "handed_twice", "asked_before")

TOPICS = (
    ("laptop refresh", "it", "My laptop is five years old and struggles with video calls."),
    ("desk move", "facilities", "Our team is moving to the other side of the floor next month."),
    ("expense card limit", "finance_ops", "My card limit is too low for the conference trip."),
    ("parental leave plan", "people_ops", "I'd like to plan my parental leave dates and handover."),
    ("CRM access", "it", "I need access to the CRM for the new accounts I'm taking over."),
    ("ergonomic keyboard", "it", "Requesting an ergonomic keyboard after my ergonomics assessment."),
)


def _build(inst: Instance) -> dict[str, Any]:
    (topic, queue, need), (_, _, _) = inst.rng.sample(TOPICS, 2)
    requester, other_requester, watcher = inst.people(3)
    assignee, previous, other_assignee = inst.people(
        3, exclude=[requester["email"], other_requester["email"], watcher["email"]]
    )
    me = inst.user["email"]
    queues(inst, {queue: [assignee, previous, other_assignee]})
    opened = inst.workday(-inst.rng.randint(4, 10), 10)
    target = ticket(
        inst,
        queue,
        f"{topic.capitalize()} for {requester['name']}",
        need,
        requester["email"],
        opened,
        status="in_progress",
        assignee=assignee["email"],
        watchers=(watcher["email"],),
        category="Request",
    )
    comment(
        inst,
        target["id"],
        previous["email"],
        f"Handing this over to {assignee['name']}, who looks after {topic} requests now.",
        opened + timedelta(days=1),
        internal=True,
    )
    other = ticket(
        inst,
        queue,
        f"{topic.capitalize()} for {other_requester['name']}",
        need,
        other_requester["email"],
        inst.workday(-inst.rng.randint(1, 3), 14),
        status="in_progress",
        assignee=other_assignee["email"],
        category="Request",
    )
    start = inst.workday(inst.rng.randint(2, 6), inst.rng.randint(9, 15), inst.pick((0, 30)))
    minutes = inst.pick((30, 45, 60))
    end = start + timedelta(minutes=minutes)
    when = f"{start:%A %B} {start.day} at {start:%-I:%M %p}".replace(":00 ", " ")
    length = {30: "30-minute", 45: "45-minute", 60: "one-hour"}[minutes]
    who = called(inst, requester)
    shape = SHAPES[inst.seed % len(SHAPES)]
    near: dict[str, Any] | None = None
    taken = [requester["email"], other_requester["email"], watcher["email"], assignee["email"], previous["email"],
             other_assignee["email"]]  # fmt: skip
    if shape == "handed_twice":
        near = inst.person(exclude=taken)
        for note in inst.overrides["helpdesk"]["comments"].values():
            if note["ticket_id"] == target["id"]:
                note["body"] = f"Handing this over to {near['name']} for now."
        comment(inst, target["id"], near["email"], f"Passing this on to {assignee['name']}, who owns {topic} now.",
                opened + timedelta(days=2), internal=True)  # fmt: skip
    elif shape == "asked_before":
        near = inst.person(exclude=taken)
        ticket(inst, queue, f"{topic.capitalize()} for {requester['name']}", need, requester["email"],
               inst.workday(-inst.rng.randint(200, 300), 10), status="closed", assignee=near["email"],
               category="Request", resolution="Done at the time.")  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                f"set up a {length} follow-up on {who}'s {topic} ticket for {when}",
                f"book a {length} meeting {when} to follow up on the {topic} ticket {who} raised",
                f"put a {length} follow-up in my calendar for {when} about {who}'s {topic} request",
            ),
            (
                f"invite {who} and whoever is working on the ticket",
                "invite them and the person the ticket is assigned to",
                "have the requester and the ticket's current assignee both there",
            ),
        ],  # fmt: skip
        (
            f"{who}'s {topic} ticket needs a proper conversation",
            f"{who} has been waiting on {topic} for a while",
            "",
        ),
        by=who,
        tail=("the assignee as of today, not whoever had it first", "no one else", ""),
    )
    title = f"Follow-up: {topic} ({target['id']})"

    def book(people: list[str], at: Any = start) -> dict[str, Any]:
        return {
            "tool": "calendar.create_event",
            "args": {
                "title": title,
                "start": at.isoformat(),
                "end": (at + timedelta(minutes=minutes)).isoformat(),
                "attendees": people,
            },
        }

    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "follow_up_booked",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {
                    "organizer": me,
                    "start": {"instant": start.isoformat()},
                    "end": {"instant": end.isoformat()},
                    "attendees": {"any": {"email": requester["email"]}},
                },
            },
            {
                "name": "assignee_invited",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "where": {"organizer": me, "attendees": {"any": {"email": assignee["email"]}}},
            },
        ],
        "allowed_changes": [
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["add"],
                "where": {"organizer": me},
                "values": {"attendees": {"len": 3}},
            }
        ],
        "solution": [
            {
                "tool": "helpdesk.search_tickets",
                "args": {"text": topic, "requester": requester["email"]},
                "save": {"asg": "results.0.assignee"},
            },
            book([requester["email"], "{asg}"]),
        ],
        "alternative_solutions": [
            [
                {
                    "tool": "helpdesk.get_ticket",
                    "args": {"ticket_id": target["id"]},
                    "save": {"r": "requester", "a": "assignee"},
                },
                {
                    "tool": "calendar.find_free_slots",
                    "args": {
                        "people": [requester["email"], assignee["email"]],
                        "duration_minutes": minutes,
                        "start": start.isoformat(),
                        "end": end.isoformat(),
                    },
                },  # fmt: skip
                book(["{r}", "{a}"]),
            ]
        ],
        "negative_controls": [
            {
                "name": "invites-watcher",
                "why": "invites the ticket's watcher instead of its assignee",
                "steps": [book([requester["email"], watcher["email"]])],
            },
            {
                "name": "invites-previous-assignee",
                "why": "invites the person who handed the ticket over",
                "steps": [book([requester["email"], previous["email"]])],
            },
            {
                "name": "other-ticket",
                "why": "follows up on the same-topic ticket of another requester",
                "steps": [book([other_requester["email"], other["assignee"]])],
            },
            *(
                [
                    {
                        "name": shape.replace("_", "-"),
                        "why": "invites the person who held the ticket between the two hand-overs"
                        if shape == "handed_twice"
                        else "invites the assignee of the requester's old ticket on the same topic",
                        "steps": [book([requester["email"], near["email"]])],
                    }
                ]
                if near
                else []
            ),
            {
                "name": "wrong-day",
                "why": "books it a day later",
                "steps": [book([requester["email"], assignee["email"]], start + timedelta(days=1))],
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-followup-meeting",
    apps=("helpdesk", "calendar"),
    summary="book a follow-up meeting on a ticket with its requester and its current assignee",
    build=_build,
)
