"""Tell a colleague when one meeting of a weekly series really starts, when one occurrence was moved.

Ambiguity the world resolves: the series says one time, but an occurrence changed on its own (stored as
``<series>@<date>``) may say another; the reference reads the day asked about, not the series. Replying
with the series' usual time when that day moved (or with a moved time that belongs to another week)
scores 0.

Scenario shapes (picked by the seed):

- ``moved_later``: the day asked about moved to another hour the same day.
- ``moved_day``: that occurrence moved to the next day, at another hour; the reply must say the day too
  (control: ``asked-day`` gives the right hour on the day asked about).
- ``other_week_moved``: the day asked about keeps the usual time; the next week's occurrence moved.

Varies: the series' title, organizer, usual hour and the moved hour, the asker, the day, the phrasing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event, message

__all__ = ["FAMILY"]

SERIES = ("design sync", "ops standup", "pipeline review", "team huddle", "planning sync", "metrics review")
SHAPES = ("moved_later", "moved_day", "other_week_moved")


def _clock(hour: int, minute: int) -> str:
    return f"{(hour - 1) % 12 + 1}{f':{minute:02d}' if minute else ''}{'am' if hour < 12 else 'pm'}"


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    organizer, asker, other = inst.people(3)
    title = f"{inst.pick(('Team', 'Weekly', 'Cross-team'))} {inst.pick(SERIES)}"
    usual, moved = inst.rng.sample(range(9, 16), 2)
    minute = inst.pick((0, 30))
    day = inst.workday(inst.rng.randint(2, 5), usual, minute)
    first = day - timedelta(weeks=inst.rng.randint(4, 10))
    length = timedelta(minutes=inst.pick((30, 45)))
    people = [me, asker["email"], other["email"]]
    series = event(inst, title=title, start=first, end=first + length, organizer=organizer["email"],
                   attendees=people, responses=dict.fromkeys(people, "accepted"), recurrence="weekly")  # fmt: skip
    changed_day = day + timedelta(weeks=1) if shape == "other_week_moved" else day
    new_start = changed_day.replace(hour=moved) + timedelta(days=1 if shape == "moved_day" else 0)
    exception = {
        **{k: v for k, v in series.items() if k != "id"},
        "start": new_start.isoformat(),
        "end": (new_start + length).isoformat(),
        "recurrence": "",
        "series_id": series["id"],
        "original_start": changed_day.isoformat(),
        "description": f"Moved from {_clock(usual, minute)} this time only.",
    }
    inst.add("calendar", "events", f"{series['id']}@{changed_day.date().isoformat()}", exception)
    right = moved if shape != "other_week_moved" else usual
    wrong = usual if shape != "other_week_moved" else moved
    said = f"{day:%A %B} {day.day}"
    question = message(inst, sender=asker["email"], subject=f"{title} on {said}?",
                       body=f"Hi,\n\nWhat time does the {title} on {said} start? I might have a clash.\n\n"
                       f"{inst.first(asker)}", when=inst.workday(-1, 16, 5))  # fmt: skip
    who = inst.pick((asker["name"], inst.first(asker)))
    instruction = compose(
        inst,
        [
            (f"reply to {who}'s mail with the start time of the {title} on {said}",
             f"answer {who}: when does the {title} on {said} start",
             f"get back to {who} by mail on what time the {title} starts on {said}"),
        ],  # fmt: skip
        (f"{who} asked me about the {title}", f"{who} may have a clash with the {title}", ""),
        by=who,
        tail=("check the calendar for that day, not just the series", "give the actual time that day", ""),
    )
    answer = f"Hi {inst.first(asker)}, on {said} it starts at {_clock(right, minute)}."
    if shape == "moved_day":
        answer = f"Hi {inst.first(asker)}, that one moved to {new_start:%A} and starts at {_clock(right, minute)}."
    claim: Any = {"kind": "time", "value": f"{right:02d}:{minute:02d}"}
    if shape == "moved_day":  # the hour alone sends the asker to the wrong day
        month, d = f"{new_start:%B}", new_start.day
        day_said = (rf"\b(?:{new_start:%A}|{month[:3]}\w*\W+{d}\b|{d}(?:st|nd|rd|th)?\W+(?:of\W+)?{month[:3]}"
                    r"|(?:the\W+)?(?:next|following)\W+day|day\W+after)")
        claim = [claim, {"kind": "states", "detail": [day_said]}]

    def reply(text: str) -> dict[str, Any]:
        return {"tool": "gmail.reply_to_message", "args": {"message_id": question["id"], "body": text}}

    done = {"tool": "complete_task", "args": {"summary": f"Told {asker['name']} the start time."}}
    return {
        "instruction": instruction,
        "checks": [
            {"name": "time_sent_in_thread", "kind": "record", "app": "gmail", "collection": "messages",
             "new": True, "count": 1, "where": {"thread_id": question["thread_id"],
                                                "to": {"includes": [asker["email"]]}, "body": {"claims": claim}}},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "gmail", "collection": "messages", "kinds": ["add"],
             "where": {"sender": me, "thread_id": question["thread_id"], "to": {"includes": [asker["email"]]}}},
        ],  # fmt: skip
        "solution": [
            {"tool": "gmail.search_messages", "args": {"query": f"from:{asker['email']}"}},
            {"tool": "calendar.list_events",
             "args": {"start": day.replace(hour=0, minute=0).isoformat(),
                      "end": (day + timedelta(days=2)).replace(hour=0, minute=0).isoformat(), "query": title}},
            reply(answer),
            done,
        ],  # fmt: skip
        "negative_controls": [
            {"name": "other-time", "why": "gives the series' usual time or a moved time of another week",
             "steps": [reply(f"It starts at {_clock(wrong, minute)}."), done]},
            {"name": "both-times", "why": "gives both times without saying which",
             "steps": [reply(f"Either {_clock(usual, minute)} or {_clock(moved, minute)}."), done]},
            *([{"name": "asked-day", "why": "gives the moved hour on the day asked about, not the day it moved to",
                "steps": [reply(f"Hi, on {said} it starts at {_clock(right, minute)}."), done]}]
              if shape == "moved_day" else []),
        ],  # fmt: skip
    }


FAMILY = Family(
    name="calendar-moved-occurrence-reply",
    apps=("calendar", "gmail"),
    summary="reply with the real start time of one meeting of a weekly series, one occurrence of which moved",
    build=_build,
    decision=True,
    kind="ambiguity",
)
