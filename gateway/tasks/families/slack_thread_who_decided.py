"""Answer who made the final call in a Slack thread on an event's date, and which date they picked.

Varies: the project channel, the event, the people proposing and deciding, the proposed and chosen dates,
the phrasing. Distractors: a proposal of another date, the colleague whose proposal was chosen (not the one
who decided), an agreeing reply, and an older thread about the previous event of the same kind with its own
decider and date.

Scenario shapes (picked by the seed):

- ``old_thread``: the near-misses above (control: answers from the older thread about the previous event).
- ``channel_rumour``: after the thread, someone posts in the channel, outside the thread, that they heard the
  other date (control: answers with the rumour's poster and date).
- ``other_project``: another project's channel settled the same kind of event this week, with its own final
  call (control: answers from the other project's thread).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, message, project_names

__all__ = ["FAMILY"]

SHAPES = ("old_thread", "channel_rumour", "other_project")
EVENTS = ("steering review", "customer workshop", "quarterly demo", "offsite planning day", "vendor walkthrough")


def _said(d: date) -> str:
    return f"{d:%A %B} {d.day}"


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    (project,) = project_names(inst, 1)
    opener, proposer, counter, decider, agreer, old_decider = inst.people(6)
    event = inst.pick(EVENTS)
    # distinct dates in calendar order before the shuffle: a set's order of dates changes with PYTHONHASHSEED
    days = sorted({inst.workday(inst.rng.randint(8, 40)).date() for _ in range(6)})
    first_pick, second_pick = sorted(days, key=lambda _: inst.rng.random())[:2]
    chosen, passed = (second_pick, first_pick) if inst.rng.random() < 0.5 else (first_pick, second_pick)
    old_date = inst.workday(-inst.rng.randint(60, 100)).date()
    slug = project.lower()
    members = [opener["email"], me, proposer["email"], counter["email"], decider["email"], agreer["email"]]
    chan = channel(inst, f"proj-{slug}", [*members, old_decider["email"]])
    old_root = message(
        inst, chan, opener["email"], f"Date for the {event}? Let's settle it this week.", inst.day(-110, 10)
    )
    message(inst, chan, old_decider["email"], f"Going with {_said(old_date)}. Done.", inst.day(-109, 9), old_root["id"])
    root = message(
        inst,
        chan,
        opener["email"],
        f"We need to lock the date for the next {event}. Proposals in the thread, please.",
        inst.workday(-inst.rng.randint(3, 6), 9),
    )
    t = inst.workday(-2, 10)
    message(inst, chan, proposer["email"], f"{_said(passed)} works for my side.", t, root["id"])
    message(
        inst,
        chan,
        counter["email"],
        f"I'd rather {_said(chosen)} - the room is free then.",
        t.replace(hour=11),
        root["id"],
    )
    message(
        inst,
        chan,
        decider["email"],
        f"Final call: {_said(chosen)}. {inst.first(counter)}, please send the invite.",
        t.replace(hour=14),
        root["id"],
    )
    message(inst, chan, agreer["email"], "Sounds good, thanks!", t.replace(hour=15), root["id"])
    shape = SHAPES[inst.seed % len(SHAPES)]
    wrong = ""
    if shape == "channel_rumour":
        gossip = inst.person(exclude=[*members, old_decider["email"]])
        chan["members"].append(gossip["email"])
        message(inst, chan, gossip["email"], f"Heard the {event} is on {_said(passed)} - can anyone confirm?",
                t.replace(hour=16))  # fmt: skip
        wrong = f"{gossip['name']}, {_said(passed)}"
    elif shape == "other_project":
        (other_project,) = project_names(inst, 1)
        if other_project == project:
            other_project = f"{project}2"
        their, their_decider = inst.people(2, exclude=members)
        away = channel(inst, f"proj-{other_project.lower()}", [their["email"], me, their_decider["email"]])
        their_root = message(inst, away, their["email"], f"We need to lock the date for the next {event} too.",
                             inst.workday(-4, 9))  # fmt: skip
        message(inst, away, their_decider["email"], f"Final call: {_said(passed)}.", t.replace(hour=12),
                their_root["id"])  # fmt: skip
        wrong = f"{their_decider['name']}, {_said(passed)}"
    instruction = compose(
        inst,
        [
            (
                f"tell me who made the final call on the date of the next {event} in #proj-{slug}, and which date"
                " they picked",
                f"find out who decided the date of the upcoming {event} in the Project {project} channel, and what"
                " it is",
                f"check which day was settled on in Slack for the next {event} on Project {project}, and who"
                " settled it",
            ),
        ],  # fmt: skip
        (
            f"I missed the thread in the Project {project} channel about the upcoming {event}",
            f"I need to put the next {event} in my calendar",
            "",
        ),
        tail=("a name and a date is all I need", "the final call, not the first proposal", ""),
    )
    answer = {
        "name": "answer",
        "kind": "answer",
        "expect": [{"kind": "person", "value": decider["email"]}, {"kind": "date", "value": chosen.isoformat()}],
        "candidates": {},
    }
    return {
        "instruction": instruction,
        "checks": [answer],
        "allowed_changes": [],
        "solution": [
            {
                "tool": "slack.search_messages",
                "args": {"query": f'"next {event}" in:#proj-{slug}'},
                "save": {"root": "results.0.id"},
            },
            {"tool": "slack.get_thread", "args": {"message_id": "{root}"}, "save": {"who": "replies.2.user_name"}},
            {
                "tool": "complete_task",
                "args": {
                    "summary": "Read the thread in the project channel.",
                    "answer": f"{{who}}; {chosen.isoformat()}",
                },
            },
        ],
        "alternative_solutions": [
            [
                {"tool": "slack.get_history", "args": {"channel": f"#proj-{slug}"}},
                {
                    "tool": "slack.search_messages",
                    "args": {"query": f"final call in:#proj-{slug}"},
                    "save": {"who": "results.0.user_name"},
                },
                {"tool": "complete_task", "args": {"answer": f"{{who}} decided: {_said(chosen)}."}},
            ]
        ],
        "negative_controls": [
            {
                "name": "first-proposal",
                "why": "names the first proposer and their date",
                "steps": [{"tool": "complete_task", "args": {"answer": f"{proposer['name']}, {_said(passed)}"}}],
            },
            {
                "name": "proposer-not-decider",
                "why": "names who proposed the chosen date, not who decided",
                "steps": [{"tool": "complete_task", "args": {"answer": f"{counter['name']}, {_said(chosen)}"}}],
            },
            {
                "name": "old-thread",
                "why": "answers from the older thread about the previous event",
                "steps": [
                    {"tool": "complete_task", "args": {"answer": f"{old_decider['name']}, {old_date.isoformat()}"}}
                ],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "answers with the rumour posted outside the thread"
                  if shape == "channel_rumour"
                  else "answers from the other project's thread on the same kind of event",
                  "steps": [{"tool": "complete_task", "args": {"answer": wrong}}]}]
                if wrong
                else []
            ),  # fmt: skip
            {
                "name": "wrong-date",
                "why": "right person, the date that was passed over",
                "steps": [{"tool": "complete_task", "args": {"answer": f"{decider['name']}, {_said(passed)}"}}],
            },
        ],
    }


FAMILY = Family(
    name="slack-thread-who-decided",
    apps=("slack",),
    summary="say who made the final call in a Slack thread on an event's date, and the date",
    build=_build,
    split="test",
)
