"""Tell the Slack thread where a problem was reported how its helpdesk ticket was resolved.

Varies: the thing that broke (and where), the reporter, the fix, the channels, dates, the phrasing.
Distractors: a report of the same kind of problem somewhere else in the same channel (its own resolved
ticket, another fix), and a "+1" about the same problem in another channel.

Scenario shapes (picked by the seed):

- ``other_place``: the near-misses above (control: replies under the other place's report).
- ``reported_before``: the reporter reported the same problem in the same channel weeks ago, with an older
  ticket fixed another way (control: replies under the old report).
- ``dm_heads_up``: the reporter also told the user about it in a direct message (control: answers in the DM
  instead of the channel's thread).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, queues, ticket
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import dm, message

__all__ = ["FAMILY"]

SHAPES = ("other_place", "reported_before", "dm_heads_up")

#: (thing, symptom, fix, queue, a regex any honest account of the fix matches)
PROBLEMS = (
    ("printer", "keeps jamming on every second page", "replaced the worn pickup roller", "it", "roller"),
    ("meeting room screen", "won't pick up laptops over HDMI", "swapped the HDMI switcher for a new one", "facilities",
     "switch"),
    ("coffee machine", "leaks water onto the counter", "fitted a new drip tray seal", "facilities", "seal"),
    ("badge reader", "rejects valid badges at the side door", "re-synced the reader with the access server", "it",
     "sync"),
    ("Wi-Fi access point", "drops everyone every few minutes", "updated the access point firmware", "it", "firmware"),
    ("air conditioning", "blows warm air all afternoon", "recharged the refrigerant and reset the thermostat",
     "facilities", "refrigerant|thermostat"),
)  # fmt: skip
PLACES = ("2nd floor", "3rd floor", "4th floor", "5th floor", "east wing", "west wing", "north lobby")
CHANNELS = ("office-help", "workplace", "floor-chat", "office-news", "ask-ops", "around-the-office")


def _channel(inst: Instance, name: str, members: list[str]) -> dict[str, Any]:
    return inst.add(
        "slack",
        "channels",
        inst.uid("ch"),
        {
            "name": name,
            "kind": "public",
            "topic": "Anything about the office",
            "creator": members[0],
            "created": inst.day(-300).isoformat(),
            "members": members,
        },
    )


def _post(inst: Instance, channel: str, user: str, text: str, days: int, hour: int) -> dict[str, Any]:
    ts = inst.day(-days, hour, inst.pick((3, 17, 29, 41, 52)))
    return inst.add("slack", "messages", inst.uid("m"), {"channel_id": channel, "user": user, "text": text,
                                                           "ts": ts.isoformat()})  # fmt: skip


def _build(inst: Instance) -> dict[str, Any]:
    thing, symptom, fix, queue, gist = inst.pick(PROBLEMS)
    place, other_place = inst.rng.sample(PLACES, 2)
    reporter, other_reporter, plus_one, fixer = inst.people(4)
    me = inst.user["email"]
    queues(inst, {queue: [fixer]})
    home_name, side_name = inst.rng.sample(CHANNELS, 2)
    crowd = [p["email"] for p in inst.people(5, exclude=[reporter["email"], other_reporter["email"]])]
    home = _channel(inst, home_name, [me, reporter["email"], other_reporter["email"], *crowd])
    side = _channel(inst, side_name, [me, plus_one["email"], *crowd[:3]])
    days = inst.rng.randint(3, 8)
    other_fix = inst.pick([p[2] for p in PROBLEMS if p[2] != fix])
    report = _post(inst, home["id"], reporter["email"], f"Heads up: the {place} {thing} {symptom}. Ticket raised.",
                   days, 9)  # fmt: skip
    other_report = _post(inst, home["id"], other_reporter["email"],
                         f"The {other_place} {thing} {symptom} too - raised a ticket.", days + 2, 15)  # fmt: skip
    echo = _post(inst, side["id"], plus_one["email"], f"Is the {place} {thing} broken for anyone else? It {symptom}.",
                 days - 1, 11)  # fmt: skip
    ticket(
        inst,
        queue,
        f"{place.capitalize()} {thing} {symptom}",
        f"The {place} {thing} {symptom}. Also reported in #{home_name} on Slack.",
        reporter["email"],
        inst.day(-days, 9, 45),
        status="resolved",
        assignee=fixer["email"],
        resolution=f"Technician {fix}; tested and working.",
        updated=inst.day(-1, 10),
    )
    ticket(
        inst,
        queue,
        f"{other_place.capitalize()} {thing} {symptom}",
        f"The {other_place} {thing} {symptom}. Mentioned in #{home_name}.",
        other_reporter["email"],
        inst.day(-days - 2, 15, 50),
        status="resolved",
        assignee=fixer["email"],
        resolution=f"Technician {other_fix}.",
        updated=inst.day(-2, 10),
    )
    who = called(inst, reporter)
    shape = SHAPES[inst.seed % len(SHAPES)]
    decoy: dict[str, Any] | None = None
    if shape == "reported_before":
        weeks = inst.rng.randint(25, 50)
        decoy = _post(inst, home["id"], reporter["email"], f"The {place} {thing} {symptom}. Ticket raised.", weeks, 10)
        ticket(inst, queue, f"{place.capitalize()} {thing} {symptom}", f"The {place} {thing} {symptom}.",
               reporter["email"], inst.day(-weeks, 10, 30), status="resolved", assignee=fixer["email"],
               resolution=f"Technician {other_fix}.", updated=inst.day(-weeks + 2, 10))  # fmt: skip
    elif shape == "dm_heads_up":
        chat = dm(inst, reporter["email"])
        decoy = message(inst, chat, reporter["email"], f"FYI I posted about the {place} {thing} in #{home_name}.",
                        inst.day(-days, 9, 58))  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                "reply in the Slack thread where they reported it and say what the fix was",
                f"post in {who}'s Slack thread how the helpdesk fixed the {place} {thing}",
                "let the people in the Slack thread where it was first reported know what was done",
                f"close the loop in the thread where {who} flagged the {place} {thing}",
            ),
        ],  # fmt: skip
        (
            f"the ticket {who} raised about the {place} {thing} is resolved",
            f"{who}'s {place} {thing} issue has been fixed according to the helpdesk",
            f"{who} flagged the {place} {thing} problem in a channel and it's fixed now",
        ),
        by=who,
        tail=("in the thread, not a new post", "say what the technician did", ""),
    )
    text = f"Update: the {place} {thing} is fixed - the technician {fix}."

    def reply(mid: str, words: str = text) -> dict[str, Any]:
        return {"tool": "slack.reply_in_thread", "args": {"message_id": mid, "text": words}}

    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "fix_posted_in_report_thread",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {
                    "channel_id": home["id"],
                    "thread_id": report["id"],
                    "user": me,
                    "text": {"claims": {"kind": "fixed", "detail": [gist]}},  # fixed, and how, not just a keyword
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": home["id"], "thread_id": report["id"], "user": me},
            }
        ],
        "solution": [
            {
                "tool": "helpdesk.search_tickets",
                "args": {"text": f"{place} {thing}", "requester": reporter["email"]},
                "save": {"tid": "results.0.id"},
            },
            {"tool": "helpdesk.get_ticket", "args": {"ticket_id": "{tid}"}},
            {
                "tool": "slack.search_messages",
                "args": {"query": f"{thing} in:#{home_name} from:@{reporter['id']}"},
                "save": {"mid": "results.0.id"},
            },
            reply("{mid}"),
        ],
        "alternative_solutions": [
            [reply(report["id"], f"Good news: the {thing} is working again. The technician {fix}.")],
        ],
        "negative_controls": [
            {
                "name": "other-place-thread",
                "why": "replies under the report of the same problem elsewhere in the same channel",
                "steps": [reply(other_report["id"])],
            },
            {
                "name": "other-channel",
                "why": "replies under the +1 in another channel",
                "steps": [reply(echo["id"])],
            },
            *(
                [
                    {
                        "name": shape.replace("_", "-"),
                        "why": "replies under the reporter's old report of the same problem"
                        if shape == "reported_before"
                        else "answers the reporter's direct message instead of the channel's thread",
                        "steps": [reply(decoy["id"])],
                    }
                ]
                if decoy
                else []
            ),
            {
                "name": "vague-reply",
                "why": "says it is fixed without saying what the fix was",
                "steps": [reply(report["id"], f"The {place} {thing} is fixed now.")],
            },
            {
                "name": "not-fixed",
                "why": "names the fix but says the problem is not fixed",
                "steps": [reply(report["id"], f"The {place} {thing} is still not fixed, though the technician {fix}.")],
            },
            {
                "name": "asks-instead",
                "why": "asks whether it is fixed instead of saying so",
                "steps": [reply(report["id"], f"Is the {place} {thing} fixed? The ticket says the technician {fix}.")],
            },
            {
                "name": "top-level-post",
                "why": "posts in the channel instead of the report's thread",
                "steps": [{"tool": "slack.post_message", "args": {"channel": home["id"], "text": text}}],
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-fix-to-slack",
    apps=("helpdesk", "slack"),
    summary="reply in the Slack thread where a problem was reported with how its ticket was resolved",
    build=_build,
)
