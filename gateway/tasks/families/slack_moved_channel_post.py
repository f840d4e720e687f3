"""Tell a project's channel the new time of a meeting, when that channel has since moved.

Ambiguity the world resolves: the instruction names the project's old channel; the workspace says where
the conversation went, and the calendar holds the meeting's time. Posting in a look-alike channel, or the
old time, scores 0.

Scenario shapes (picked by the seed):

- ``archived_pointer``: the old channel is archived; its last message points to the new one.
- ``renamed``: the old channel was renamed; only its purpose says "formerly #proj-<x>".
- ``split``: the old channel is archived; its last message splits the talk over two channels (engineering
  and launch); the meeting belongs to one of them.

Distractors: a social channel of the same project, the other channel of a split, the meeting's old time
(in its description). Varies: the project, the meeting, its day and times, the people, the phrasing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event
from gateway.tasks.kit.workplace import channel, message, project_names

__all__ = ["FAMILY"]

MEETINGS = (
    "launch decision meeting",
    "launch review",
    "release readiness check",
    "beta debrief",
    "customer pilot review",
)
SHAPES = ("archived_pointer", "renamed", "split")


def _clock(hour: int, minute: int) -> str:
    suffix = "am" if hour < 12 else "pm"
    return f"{(hour - 1) % 12 + 1}{f':{minute:02d}' if minute else ''}{suffix}"


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    (project,) = project_names(inst, 1)
    slug = project.lower()
    lead, *crew = inst.people(5)
    members = [lead["email"], me, *(p["email"] for p in crew)]
    meeting = inst.pick(MEETINGS)
    old = f"proj-{slug}"
    new = f"{slug}-launch"
    other = f"{slug}-eng"
    if shape == "renamed":
        target = channel(inst, new, members, purpose=f"Launch work for Project {project} (formerly #{old}).")
    else:
        gone = channel(inst, old, members, purpose=f"Project {project}.")
        inst.overrides["slack"]["channels"][gone["id"]]["archived"] = True
        target = channel(inst, new, members, purpose=f"Project {project} launch.")
        point = (f"This channel is closing: engineering talk moves to #{other}, launch logistics and meetings to"
                 f" #{new}." if shape == "split" else f"We've moved: please use #{new} from now on.")  # fmt: skip
        message(inst, gone, lead["email"], point, inst.workday(-inst.rng.randint(6, 12), 16))
    eng = channel(inst, other, members, purpose=f"Project {project} engineering.")
    social = channel(inst, f"{slug}-social", members, purpose=f"Project {project} lunches and fun.")
    message(inst, eng, crew[0]["email"], "Build is green again.", inst.workday(-2, 11))
    message(inst, social, crew[1]["email"], "Team lunch on Friday?", inst.workday(-1, 12))
    day = inst.workday(inst.rng.randint(2, 6))
    was_hour, hour = inst.rng.sample(range(9, 17), 2)
    minute = inst.pick((0, 30))
    start = day.replace(hour=hour, minute=minute)
    title = f"{project} {meeting}"
    event(inst, title=title, start=start, end=start + timedelta(minutes=45), organizer=lead["email"],
          attendees=members, responses={me: "accepted"},
          description=f"Moved from {_clock(was_hour, minute)} to {_clock(hour, minute)}.")  # fmt: skip
    ref = inst.pick((f"#{old}", f"the {project} channel (#{old})", f"our old #{old} channel"))
    instruction = compose(
        inst,
        [
            (
                f"tell {ref} what time the {meeting} is now",
                f"post the new time of the {title} in {ref}",
                f"let {ref} know when the {meeting} starts now",
            ),
        ],  # fmt: skip
        (f"{lead['name']} moved the {project} {meeting}", f"the {title} on my calendar was rescheduled", ""),
        by=inst.first(lead),
        tail=("the time is on my calendar", "wherever that conversation lives now", ""),
    )
    said = f"Heads up: the {title} on {day:%A} now starts at {_clock(hour, minute)}."
    when = {"kind": "time", "value": f"{hour:02d}:{minute:02d}"}

    def post(where: str, text: str = said) -> dict[str, Any]:
        return {"tool": "slack.post_message", "args": {"channel": where, "text": text}}

    done = {"tool": "complete_task", "args": {"summary": f"Posted the new time in #{new}."}}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "new_time_in_live_channel",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"channel_id": target["id"], "user": me, "text": {"claims": when}},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": target["id"], "user": me},
            },
        ],  # fmt: skip
        "solution": [
            {"tool": "slack.list_channels", "args": {"query": slug, "include_archived": True}},
            {"tool": "slack.get_history", "args": {"channel": target["id"] if shape == "renamed" else f"#{old}"}},
            {"tool": "calendar.list_events", "args": {"query": project}},
            post(f"#{new}"),
            done,
        ],
        "negative_controls": [
            {
                "name": "social-channel",
                "why": "posts in the project's social channel",
                "steps": [post(f"#{slug}-social"), done],
            },
            {
                "name": "eng-channel",
                "why": "posts in the project's engineering channel",
                "steps": [post(f"#{other}"), done],
            },
            {
                "name": "old-time",
                "why": "posts the meeting's old time",
                "steps": [post(f"#{new}", f"The {title} now starts at {_clock(was_hour, minute)}."), done],
            },
        ],  # fmt: skip
    }


FAMILY = Family(
    name="slack-moved-channel-post",
    apps=("slack", "calendar"),
    summary="post a meeting's new time in the channel a project's conversation moved to",
    build=_build,
    decision=True,
    kind="ambiguity",
)
