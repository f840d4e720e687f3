"""Invite the right one of two colleagues who share a first name to a meeting the user organizes.

Ambiguity the world resolves: the instruction names a first name two colleagues share, with a qualifier
that only the world settles. The reference reads the directory (and, in one shape, the mailbox) to tell
them apart, finds the meeting among its same-named occurrence a week later, and adds the one person.

Scenario shapes (picked by the seed):

- ``department``: "<first> from <department>"; the namesake works in another department.
- ``mailed``: "the <first> who mailed me about <topic>"; the namesake mailed about something else.
- ``manager``: "the <first> who reports to <manager>"; the namesake has another manager.

Distractors: the namesake, the same meeting a week later, an attendee already invited. Varies: the pair,
the meeting's title, day and time, the topic, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.people import namesakes
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event, message

__all__ = ["FAMILY"]

MEETINGS = ("budget review", "pricing workshop", "hiring sync", "vendor review", "launch readiness check",
            "quarterly planning session", "roadmap walkthrough")  # fmt: skip
TOPICS = ("the travel policy", "the Q3 forecast", "the new badge readers", "the offsite venue", "the intern plan",
          "the support rota", "the renewal terms")  # fmt: skip
SHAPES = ("department", "mailed", "manager")


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    if shape == "manager":  # both need a manager, and different ones
        for _ in range(20):
            right, twin = namesakes(inst)
            bosses = (inst.manager_of(right), inst.manager_of(twin))
            if bosses[0] and bosses[0]["email"] not in (me, twin["email"]) and bosses[0] != bosses[1]:
                break
        else:
            shape = "department"
    if shape != "manager":
        right, twin = namesakes(inst)
    first = inst.given_name(right)
    title = inst.pick(MEETINGS)
    others = inst.people(2, exclude=[right["email"], twin["email"]])
    start = inst.workday(inst.rng.randint(2, 6), inst.rng.randint(9, 15), inst.pick((0, 30)))
    length = timedelta(minutes=inst.pick((30, 45, 60)))
    attendees = [p["email"] for p in others]
    meeting = event(inst, title=title.capitalize(), start=start, end=start + length, organizer=me,
                    attendees=attendees, description=f"{title.capitalize()}.")  # fmt: skip
    week = timedelta(days=7)
    later = event(inst, title=title.capitalize(), start=start + week, end=start + length + week,
                  organizer=me, attendees=attendees, description=f"{title.capitalize()}.")  # fmt: skip
    topic, other_topic = inst.rng.sample(TOPICS, 2)
    reads: list[dict[str, Any]] = [{"tool": "directory.search_people", "args": {"query": first}}]
    if shape == "department":
        who = inst.pick((f"{first} from {right['department']}", f"{first} in {right['department']}",
                         f"{right['department']}'s {first}"))  # fmt: skip
    elif shape == "mailed":
        sent = inst.workday(-inst.rng.randint(1, 4), inst.rng.randint(9, 16), 10)
        message(inst, sender=right["email"], subject=f"Question about {topic}",
                body=f"Hi,\n\nCould we talk about {topic} at some point?\n\n{first}", when=sent)  # fmt: skip
        message(inst, sender=twin["email"], subject=f"Re: {other_topic}",
                body=f"Hi,\n\nA quick note on {other_topic}: all good on my side.\n\n{first}",
                when=sent + timedelta(hours=2))  # fmt: skip
        who = inst.pick(
            (f"the {first} who mailed me about {topic}", f"{first} - the one who wrote to me about {topic}")
        )
        reads = [{"tool": "gmail.search_messages", "args": {"query": topic.removeprefix("the ")}}]
    else:
        boss = inst.manager_of(right)
        assert boss is not None
        who = inst.pick((f"the {first} who reports to {boss['name']}", f"{first} ({boss['name']}'s report)"))
        reads.append({"tool": "directory.get_manager", "args": {"person": right["email"]}})
    day = f"{start:%A %B} {start.day}"
    ref = inst.pick((f"the {title} on {day}", f"my {title} on {day}", f"{day}'s {title}"))
    instruction = compose(
        inst,
        [(f"add {who} to {ref}", f"invite {who} to {ref}", f"get {who} onto the invite for {ref}")],
        (f"{first} should be in the {title}", f"we need one more person for {ref}", ""),
        by=inst.first(others[0]),
        tail=("just that one person, nobody else", "leave the rest of the invite as it is", ""),
    )

    def add(person: str, evt: str = meeting["id"]) -> dict[str, Any]:
        return {"tool": "calendar.update_event", "args": {"event_id": evt, "add_attendees": [person]}}

    done = {"tool": "complete_task", "args": {"summary": f"Added {right['name']} to the {title}."}}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "right_namesake_invited",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "where": {"id": meeting["id"], "attendees": {"any": {"email": right["email"]}}},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["update"],
                "where": {"id": meeting["id"]},
                "fields": ["attendees"],
                "added": {"attendees": {"email": right["email"]}},
            },
        ],  # fmt: skip
        "solution": [
            *reads,
            {"tool": "directory.get_person", "args": {"person": right["email"]}},
            {"tool": "calendar.list_events", "args": {"query": title}},
            add(right["email"]),
            done,
        ],
        "negative_controls": [
            {
                "name": "namesake",
                "why": f"invites the other {first} ({twin['department']})",
                "steps": [add(twin["email"]), done],
            },
            {
                "name": "both",
                "why": f"invites both people called {first}",
                "steps": [add(right["email"]), add(twin["email"]), done],
            },
            {
                "name": "week-later",
                "why": "adds the right person to the same meeting a week later",
                "steps": [add(right["email"], later["id"]), done],
            },
        ],  # fmt: skip
    }


FAMILY = Family(
    name="directory-namesake-invite",
    apps=("calendar", "directory", "gmail"),
    summary="add the right one of two same-named colleagues to a meeting, told apart by what the world says",
    build=_build,
    decision=True,
    kind="ambiguity",
)
