"""Answer how many of a colleague's tickets about one rollout are still open, and which has been open longest.

Varies: the colleague, the rollout (name and reference code), how many tickets are open (2-4) and in which
statuses, which is oldest, dates, the phrasing. Distractors: the colleague's older tickets about the rollout
that are already resolved or closed, their older open ticket about something else, and another colleague's
older open ticket about the same rollout.

Scenario shapes (picked by the seed):

- ``resolved_and_others``: the near-misses above (control: counts the resolved one too).
- ``watching_only``: the colleague also watches an older open ticket on the rollout that someone else raised
  (control: counts it and names it the oldest).
- ``previous_rollout``: the colleague still has an older open ticket from the previous rollout of the same
  kind, under another reference (control: counts it and names it the oldest).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

ROLLOUTS = (
    ("laptop refresh", "LR", "it", ("New laptop not enrolled", "Docking station missing", "Data not migrated",
                                    "Old laptop collection", "Wrong keyboard layout")),
    ("office move", "OM", "facilities", ("Desk not set up", "Boxes not delivered", "Locker key missing",
                                         "Monitor arm broken", "Wrong floor on my badge")),
    ("expense tool switch", "EX", "finance_ops", ("Card not linked", "Old claims missing", "Approver wrong",
                                                  "Receipts not uploading", "Mileage rate wrong")),
    ("phone system upgrade", "PH", "it", ("Desk phone no dial tone", "Voicemail not moved", "Softphone login fails",
                                          "Extension changed", "Headset not paired")),
    ("benefits enrolment", "BE", "people_ops", ("Dependant not listed", "Plan choice not saved",
                                                "Dental card missing", "Pension rate wrong", "Form rejected")),
)  # fmt: skip
SHAPES = ("resolved_and_others", "watching_only", "previous_rollout")
ACTIVE = ("open", "in_progress", "waiting")


def _build(inst: Instance) -> dict[str, Any]:
    rollout, tag, queue, issues = inst.pick(ROLLOUTS)
    code = inst.code(tag, 4)
    person, other = inst.people(2)
    queues(inst)
    n_open = inst.rng.randint(2, 4)
    titles = inst.rng.sample(issues, len(issues))
    days = sorted(inst.rng.sample(range(2, 30), n_open + 3))
    # every distractor is older than the oldest open ticket: each is the wrong "oldest" of one mistake
    tickets = [
        ticket(
            inst,
            queue,
            titles[i],
            f"{titles[i]} after the {rollout} ({code}).",
            person["email"],
            inst.day(-days[i], 9 + i),
            status=inst.pick(ACTIVE),
        )
        for i in range(n_open)
    ]
    oldest = tickets[-1]  # days are ascending: the last open one was created longest ago
    done = ticket(
        inst,
        queue,
        titles[n_open],
        f"{titles[n_open]} after the {rollout} ({code}).",
        person["email"],
        inst.day(-days[n_open] - 5, 10),
        status=inst.pick(("resolved", "closed")),
        resolution="Sorted.",
    )
    unrelated = ticket(
        inst,
        inst.pick(("it", "facilities")),
        "Parking space request",
        "Could I get a parking space on Tuesdays?",
        person["email"],
        inst.day(-days[n_open + 1] - 10, 11),
    )
    theirs = ticket(
        inst,
        queue,
        titles[-1],
        f"{titles[-1]} after the {rollout} ({code}).",
        other["email"],
        inst.day(-days[n_open + 2] - 12, 12),
    )
    who = called(inst, person)
    shape = SHAPES[inst.seed % len(SHAPES)]
    older: dict[str, Any] | None = None
    if shape == "watching_only":
        raiser = inst.person(exclude=[person["email"], other["email"]])
        older = ticket(inst, queue, titles[0], f"{titles[0]} after the {rollout} ({code}).", raiser["email"],
                       inst.day(-days[-1] - 15, 10), status="open", watchers=(person["email"],))  # fmt: skip
    elif shape == "previous_rollout":
        before = inst.code(tag, 4)
        older = ticket(inst, queue, titles[-1], f"{titles[-1]} after the {rollout} ({before}).", person["email"],
                       inst.day(-days[-1] - 200, 10), status="waiting")  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                f"tell me how many of {who}'s helpdesk tickets about the {rollout} ({code}) are still open, and which"
                " one has been open the longest",
                f"count {who}'s tickets on the {rollout} ({code}) that aren't resolved yet and tell me which one was"
                " opened first",
                f"find out how many of {who}'s {rollout} tickets ({code}) are still unresolved, and the oldest of"
                " those",
            ),
        ],  # fmt: skip
        (
            f"{who} says the {rollout} ({code}) left them with a pile of tickets",
            f"I have my 1:1 with {who} later",
            f"I want to check on {who}'s {rollout} problems",
            "",
        ),
        by=who,
        tail=("only their tickets, only that rollout", "a number and a ticket id is enough", ""),
    )
    answer = f"{n_open} still open; the oldest is {oldest['id']}."

    def say(text: str) -> dict[str, Any]:
        return {"tool": "complete_task", "args": {"answer": text}}

    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "answer",
                "kind": "answer",
                "expect": [{"kind": "number", "value": n_open}, {"kind": "id", "value": oldest["id"]}],
                "candidates": {"id": {"pattern": r"HD-\d{4}"}},
            }
        ],
        "allowed_changes": [],
        "solution": [
            {
                "tool": "helpdesk.search_tickets",
                "args": {"text": code, "requester": person["email"], "status": "active", "sort": "oldest"},
                "save": {"n": "total", "t": "results.0.id"},
            },
            {"tool": "complete_task", "args": {"answer": "{n} still open; the oldest is {t}."}},
        ],
        "alternative_solutions": [
            [
                {"tool": "helpdesk.search_tickets", "args": {"requester": person["name"], "text": code}},
                say(answer),
            ]
        ],
        "negative_controls": [
            {
                "name": "counts-resolved",
                "why": "counts the resolved or closed one too and calls it the oldest",
                "steps": [say(f"{n_open + 1} tickets; the oldest is {done['id']}.")],
            },
            {
                "name": "oldest-unrelated",
                "why": "names the colleague's older ticket about something else as the oldest",
                "steps": [say(f"{n_open} still open; the oldest is {unrelated['id']}.")],
            },
            {
                "name": "anyones-tickets",
                "why": "counts every open ticket on the rollout, another colleague's included",
                "steps": [say(f"{n_open + 1} still open; the oldest is {theirs['id']}.")],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "counts the ticket the colleague only watches and names it the oldest"
                  if shape == "watching_only"
                  else "counts the colleague's open ticket from the previous rollout and names it the oldest",
                  "steps": [say(f"{n_open + 1} still open; the oldest is {older['id']}.")]}]
                if older
                else []
            ),  # fmt: skip
            {
                "name": "newest-not-oldest",
                "why": "names the newest open ticket",
                "steps": [say(f"{n_open} still open; the oldest is {tickets[0]['id']}.")],
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-requester-open-count",
    apps=("helpdesk",),
    summary="count a colleague's unresolved tickets about one rollout and name the oldest",
    build=_build,
    split="validation",
)
