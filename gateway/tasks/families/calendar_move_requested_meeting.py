"""Move the meeting a colleague asked by mail to move, to the time they settled on, and tell them.

Scenario shapes (picked by the seed):

- ``same_thread``: the colleague suggests a time, then withdraws it in a reply in the same thread and asks
  for another (control: ``first-suggestion`` moves it to the withdrawn time).
- ``separate_mail``: the correction comes as a later mail with a subject of its own, outside the request's
  thread (the reply may go in either thread; control: ``first-suggestion``, which reads only the request).
- ``three_way``: the other attendee answers in the thread that the suggested time clashes for them and the
  colleague settles on another (control: ``first-suggestion``, which stops at the colleague's first mail).

Varies: the colleague, the project, the day, the original time, the first and the final time asked for,
the meeting's length, dates, the phrasing (composed). Distractors in every shape: the withdrawn first
suggestion; the same meeting a week later (same title); another colleague's request to move a different
meeting (control: ``other-meeting``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event, message

__all__ = ["FAMILY"]

SHAPES = ("same_thread", "separate_mail", "three_way")
PROJECTS = ("Atlas", "Beacon", "Comet", "Delta", "Echo", "Falcon", "Granite", "Harbor", "Ivy", "Juno")


def _hour(h: int, m: int) -> str:
    return f"{(h - 1) % 12 + 1}:{m:02d}" + ("am" if h < 12 else "pm")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    asker, other_asker, guest = inst.people(3)
    project, other_project = inst.rng.sample(PROJECTS, 2)
    title, other_title = f"{project} sync", f"{other_project} sync"
    day = inst.workday(inst.rng.randint(2, 8), 0)
    minutes = inst.pick((30, 45, 60))
    hours = inst.rng.sample(range(9, 16), 3)
    was, first_ask, final = (day.replace(hour=h, minute=inst.pick((0, 30))) for h in hours)
    length = timedelta(minutes=minutes)

    people = [asker["email"], guest["email"]]
    target = event(inst, title=title, start=was, end=was + length, organizer=user, attendees=people)
    event(inst, title=title, start=was + timedelta(days=7), end=was + timedelta(days=7) + length, organizer=user,
          attendees=people)  # fmt: skip
    other = event(
        inst,
        title=other_title,
        start=day.replace(hour=16),
        end=day.replace(hour=16, minute=30),
        organizer=user,
        attendees=[other_asker["email"]],
    )
    when = f"{day:%A %B} {day.day}"
    ask = message(
        inst,
        sender=asker["email"],
        subject=f"Moving {title} on {when}?",
        body=f"Hi {inst.first(inst.user)},\n\nSomething came up: could we move {title} on {when} to"
        f" {_hour(first_ask.hour, first_ask.minute)} the same day?\n\n{inst.first(asker)}",
        when=inst.day(-1, 9, 10),
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    withdrawn = _hour(first_ask.hour, first_ask.minute)
    if shape == "same_thread":
        follow = message(
            inst,
            sender=asker["email"],
            subject=f"Re: Moving {title} on {when}?",
            body=f"Sorry, scratch that: {withdrawn} doesn't work after all. Could we do"
            f" {_hour(final.hour, final.minute)} instead, same day?\n\n{inst.first(asker)}",
            when=inst.day(-1, 13, 50),
            thread=ask["id"],
            in_reply_to=ask["id"],
        )
    elif shape == "separate_mail":
        follow = message(
            inst,
            sender=asker["email"],
            subject=f"{title}: new time",
            body=f"Hi {inst.first(inst.user)},\n\nUpdate on my earlier mail about {title} on {when}: {withdrawn} is"
            f" out after all, {_hour(final.hour, final.minute)} is better, same day.\n\n{inst.first(asker)}",
            when=inst.day(-1, 13, 50),
        )
    else:
        message(
            inst,
            sender=guest["email"],
            subject=f"Re: Moving {title} on {when}?",
            body=f"{withdrawn} clashes with a customer call for me, sorry. Anything else that day works.\n\n"
            f"{inst.first(guest)}",
            when=inst.day(-1, 11, 30),
            thread=ask["id"],
            in_reply_to=ask["id"],
        )
        follow = message(
            inst,
            sender=asker["email"],
            subject=f"Re: Moving {title} on {when}?",
            body=f"OK, let's make it {_hour(final.hour, final.minute)} then, same day.\n\n{inst.first(asker)}",
            when=inst.day(-1, 13, 50),
            thread=ask["id"],
            in_reply_to=ask["id"],
        )
    threads = sorted({ask["thread_id"], follow["thread_id"]})
    in_thread: Any = ask["thread_id"] if len(threads) == 1 else {"in": threads}
    message(
        inst,
        sender=other_asker["email"],
        subject=f"{other_title}",
        body=f"Could we push {other_title} on {when} to {_hour(final.hour, final.minute)}?\n\n"
        f"{inst.first(other_asker)}",
        when=inst.day(-1, 11, 5),
    )

    name, first = asker["name"], inst.first(asker)
    instruction = compose(
        inst,
        [
            (
                f"move the {title} on {when} to the time {first} settled on",
                f"reschedule the {title} on {when} the way {first} asked in their email",
                f"read {first}'s mail and move the {title} to the time they asked for",
                f"put the {title} on {when} at whatever time {first} finally asked for",
            ),
            (
                f"reply to {first} to confirm",
                "answer them in that thread",
                f"let {first} know it's done by replying to their mail",
            ),
        ],
        (
            f"{name} asked me by email to move our {title} on {when}",
            f"{first} wants the {title} moved",
            f"{first} mailed about the {project} meeting",
            "",
        ),
        by=name,
        tail=("leave the other meetings alone", "check the whole thread before you move anything", ""),
    )  # fmt: skip
    note = f"Done: {title} is now at {_hour(final.hour, final.minute)} on {when}."
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "meeting_moved_to_final_time",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "count": 1,
                "where": {
                    "id": target["id"],
                    "start": {"instant": final.isoformat()},
                    "end": {"instant": (final + length).isoformat()},
                },
            },
            {
                "name": "asker_told",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {  # the reply gives the new time (not the one they withdrew)
                    "thread_id": in_thread,
                    "to": {"includes": [asker["email"]]},
                    "body": {"claims": {"kind": "time", "value": f"{final.hour:02d}:{final.minute:02d}"}},
                },
            },
        ],
        "allowed_changes": [
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["start", "end"],
                "values": {"start": {"instant": final.isoformat()}, "end": {"instant": (final + length).isoformat()}},
            },
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": user, "thread_id": in_thread, "to": {"includes": [asker["email"]]}},
            },
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{asker['email']} {title}"},
                "save": {"mid": "results.0.id", "tid": "results.0.thread_id"},
            },
            {"tool": "gmail.get_thread", "args": {"thread_id": "{tid}"}},
            {
                "tool": "calendar.list_events",
                "args": {
                    "start": day.date().isoformat(),
                    "end": (day.date() + timedelta(days=1)).isoformat(),
                    "query": title,
                },
                "save": {"eid": "events.0.id"},
            },
            {"tool": "calendar.update_event", "args": {"event_id": "{eid}", "start": final.isoformat()}},
            {"tool": "gmail.reply_to_message", "args": {"message_id": "{mid}", "body": note}},
        ],
        "negative_controls": [
            {
                "name": "first-suggestion",
                "why": "moves it to the time the colleague withdrew",
                "steps": [
                    {
                        "tool": "calendar.update_event",
                        "args": {"event_id": target["id"], "start": first_ask.isoformat()},
                    },
                    {"tool": "gmail.reply_to_message", "args": {"message_id": follow["id"], "body": "Moved."}},
                ],
            },
            {
                "name": "other-meeting",
                "why": "moves the other colleague's meeting instead",
                "steps": [
                    {"tool": "calendar.update_event", "args": {"event_id": other["id"], "start": final.isoformat()}},
                    {"tool": "gmail.reply_to_message", "args": {"message_id": follow["id"], "body": note}},
                ],
            },
            {
                "name": "tells-the-withdrawn-time",
                "why": "moves it to the right time but tells the colleague the time they withdrew",
                "steps": [
                    {"tool": "calendar.update_event", "args": {"event_id": target["id"], "start": final.isoformat()}},
                    {
                        "tool": "gmail.reply_to_message",
                        "args": {"message_id": follow["id"], "body": f"Done: {title} is now at {withdrawn} on {when}."},
                    },
                ],
            },
            {
                "name": "moved-silently",
                "why": "moves the meeting but never tells the colleague",
                "steps": [
                    {"tool": "calendar.update_event", "args": {"event_id": target["id"], "start": final.isoformat()}}
                ],
            },
        ],
    }


FAMILY = Family(
    name="calendar-move-requested-meeting",
    apps=("calendar", "gmail"),
    summary="move the meeting a colleague asked to move, to the time their follow-up settled on, and reply",
    build=_build,
    decision=True,
)
