"""Decline one day of a colleague's weekly meeting, keeping the rest of the series, and mail the organizer who covers.

Varies: the team, the organizer, the weekday and time, the day missed (one to four weeks out), the reason,
the colleague covering, the phrasing (composed). Distractors in every shape: the same series a week before
and after, another team's weekly meeting on the same day, so declining the whole series (control:
``whole-series``), the wrong week (``week-after``) or the wrong meeting (``other-team``) fails.

Scenario shapes (picked by the seed):

- ``named_cover``: the instruction names who covers.
- ``cover_offer``: the instruction says only "whoever offered to cover"; two mails answer the user's call
  for cover, one colleague unable, the other offering (control: ``wrong-cover`` names the one unable).
- ``agenda_owner``: the instruction says "tell the organizer"; a colleague who is not the organizer mails
  the attendees about the meeting's agenda (control: ``agenda-sender`` mails them instead).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event, message

__all__ = ["FAMILY"]

SHAPES = ("named_cover", "cover_offer", "agenda_owner")
TEAMS = ("Platform", "Payments", "Onboarding", "Logistics", "Pricing", "Partner", "Field ops", "Data")
REASONS = ("a customer visit", "a training day", "a dentist appointment", "the vendor summit", "jury duty")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    organizer, other_organizer, cover = inst.people(3)
    team, other_team = inst.rng.sample(TEAMS, 2)
    title, other_title = f"{team} weekly sync", f"{other_team} weekly sync"
    missed = inst.workday(inst.rng.randint(7, 28), inst.rng.randint(9, 15), inst.pick((0, 30)))
    first = missed - timedelta(weeks=inst.rng.randint(3, 8))
    length = timedelta(minutes=inst.pick((30, 45, 60)))
    accepted = {user: "accepted"}

    series = event(
        inst,
        title=title,
        start=first,
        end=first + length,
        organizer=organizer["email"],
        attendees=[user, cover["email"]],
        responses={**accepted, cover["email"]: "accepted"},
        recurrence="weekly",
    )
    other_start = first.replace(hour=16 if first.hour < 16 else 8)
    other = event(
        inst,
        title=other_title,
        start=other_start,
        end=other_start + timedelta(minutes=30),
        organizer=other_organizer["email"],
        attendees=[user],
        responses=accepted,
        recurrence="weekly",
    )
    day = missed.date()
    occurrence = f"{series['id']}@{day.isoformat()}"
    reason = inst.pick(REASONS)
    when = f"{missed:%A %B} {missed.day}"
    shape = SHAPES[inst.seed % len(SHAPES)]
    org, org_first, cover_name = organizer["name"], inst.first(organizer), cover["name"]
    extra: list[dict[str, Any]] = []
    if shape != "named_cover":
        bystander = inst.person(exclude=[user, organizer["email"], other_organizer["email"], cover["email"]])
    if shape == "cover_offer":
        ask = message(inst, sender=user, to=[cover["email"], bystander["email"]], subject=f"Cover for {title}?",
                      body=f"Hi both,\n\nI'll miss the {title} on {when}. Could one of you cover?\n\nThanks",
                      when=inst.day(-2, 9, 40), labels=("SENT",))  # fmt: skip
        message(inst, sender=bystander["email"], subject=f"Re: Cover for {title}?", thread=ask["id"],
                body=f"Sorry, I'm out that week myself.\n\n{inst.first(bystander)}", when=inst.day(-2, 11, 5),
                in_reply_to=ask["id"])  # fmt: skip
        message(inst, sender=cover["email"], subject=f"Re: Cover for {title}?", thread=ask["id"],
                body=f"Happy to cover it for you.\n\n{inst.first(cover)}", when=inst.day(-1, 16, 20),
                in_reply_to=ask["id"])  # fmt: skip
        wrong_body = f"I'm at {reason} that day; {bystander['name']} will cover for me."
        extra.append({"name": "wrong-cover", "why": "names the colleague who could not cover",
                      "to": organizer["email"], "body": wrong_body})  # fmt: skip
    elif shape == "agenda_owner":
        message(inst, sender=bystander["email"], to=[user, cover["email"]], subject=f"{title} agenda",
                body=f"Hi all,\n\nI'm collecting agenda items for the {title} - send yours by Friday.\n\n"
                f"{inst.first(bystander)}", when=inst.day(-1, 10, 15))  # fmt: skip
        org = org_first = inst.pick(("the organizer", "whoever runs it"))
        extra.append({"name": "agenda-sender", "why": "tells the colleague collecting the agenda, not the organizer",
                      "to": bystander["email"], "body": f"I'm at {reason} that day; {cover['name']} will cover."})
    instruction = compose(
        inst,
        [
            (
                f"decline just the {title} on {when}",
                f"turn down {when}'s {title}",
                f"decline that day's {title} ({when}) and only that one",
            ),
            (
                f"email {org} that {cover_name} will cover for me",
                f"drop {org_first} a line that {cover_name} is covering",
                f"mail {org_first} to say {cover_name} will stand in",
            )
            if shape != "cover_offer"
            else (
                f"email {org} the name of whoever offered to cover for me",
                f"tell {org_first} by mail which colleague offered to stand in",
                f"let {org_first} know who is covering (see the replies to my mail asking for cover)",
            ),
        ],
        (
            f"I have {reason} on {when}, so I'll miss that day's {title}",
            f"I'm at {reason} on {when}",
            f"{reason} lands on {when}",
            "",
        ),
        tail=("keep the rest of the series", "the other weeks stay as they are", ""),
    )  # fmt: skip
    note = f"I'm at {reason} that day; {cover['name']} will cover for me."
    covers = {"claims": {"kind": "person", "value": cover["email"], "ignore": [user]}}  # who covers, asserted
    mail: dict[str, Any] = {
        "tool": "gmail.send_message",
        "args": {"to": [organizer["email"]], "subject": f"{title} on {when}", "body": note},
    }
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "that_day_declined",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {
                    "id": occurrence,
                    "series_id": series["id"],
                    "attendees": {"any": {"email": user, "response": "declined"}},
                },
            },
            {  # by mail, or in the decline's own note (the organizer reads it with the response)
                "name": "organizer_told_who_covers",
                "kind": "any_of",
                "checks": [
                    {
                        "name": "by_mail",
                        "kind": "record",
                        "app": "gmail",
                        "collection": "messages",
                        "new": True,
                        "count": 1,
                        "where": {"to": {"includes": [organizer["email"]]}, "body": covers},
                    },
                    {
                        "name": "in_the_decline_note",
                        "kind": "record",
                        "app": "calendar",
                        "collection": "events",
                        "new": True,
                        "count": 1,
                        "where": {
                            "id": occurrence,
                            "attendees": {
                                "any": {"email": user, "response": "declined", "comment": covers}
                            },
                        },
                    },
                ],
            },
            {
                "name": "rest_of_series_still_accepted",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "count": 1,
                "where": {"id": series["id"], "attendees": {"any": {"email": user, "response": "accepted"}}},
            },
        ],
        "allowed_changes": [
            {"app": "calendar", "collection": "events", "kinds": ["add"], "where": {"id": occurrence}},
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": user, "to": {"includes": [organizer["email"]]}},
            },
        ],
        "solution": [
            {
                "tool": "calendar.list_events",
                "args": {"start": day.isoformat(), "end": (day + timedelta(days=1)).isoformat(), "query": title},
                "save": {"eid": "events.0.id"},
            },
            {
                "tool": "calendar.respond_to_event",
                "args": {"event_id": "{eid}", "response": "declined", "scope": "this"},
            },
            {
                "tool": "gmail.send_message",
                "args": {"to": [organizer["email"]], "subject": f"{title} on {when}", "body": note},
            },
        ],
        "alternative_solutions": [  # the note rides on the decline itself: the organizer reads it there
            [  # the organizer greeted by name, the reason as context
                {"tool": "calendar.respond_to_event", "args": {"event_id": occurrence, "response": "declined"}},
                {
                    **mail,
                    "args": {
                        **mail["args"],
                        "body": f"Hi {inst.first(organizer)}, I'll miss the {title} on {when} ({reason})."
                        f" {cover['name']} will stand in for me.",
                    },
                },
            ],
            [
                {
                    "tool": "calendar.list_events",
                    "args": {"start": day.isoformat(), "end": (day + timedelta(days=1)).isoformat(), "query": title},
                    "save": {"eid": "events.0.id"},
                },
                {
                    "tool": "calendar.respond_to_event",
                    "args": {"event_id": "{eid}", "response": "declined", "scope": "this", "comment": note},
                },
            ]
        ],
        "negative_controls": [
            {
                "name": "whole-series",
                "why": "declines every week, not just that day",
                "steps": [
                    {
                        "tool": "calendar.respond_to_event",
                        "args": {"event_id": occurrence, "response": "declined", "scope": "all"},
                    },
                    mail,
                ],
            },
            {
                "name": "week-after",
                "why": "declines the following week",
                "steps": [
                    {
                        "tool": "calendar.respond_to_event",
                        "args": {
                            "event_id": f"{series['id']}@{(day + timedelta(weeks=1)).isoformat()}",
                            "response": "declined",
                        },
                    },
                    mail,
                ],
            },
            {
                "name": "other-team",
                "why": "declines the other team's weekly meeting that day",
                "steps": [
                    {
                        "tool": "calendar.respond_to_event",
                        "args": {"event_id": f"{other['id']}@{day.isoformat()}", "response": "declined"},
                    },
                    mail,
                ],
            },
            {
                "name": "cover-negated",
                "why": "names the colleague, but as the one who cannot cover",
                "steps": [
                    {"tool": "calendar.respond_to_event", "args": {"event_id": occurrence, "response": "declined"}},
                    {**mail, "args": {**mail["args"], "body": f"I'm away that day; {cover['name']} can't cover."}},
                ],
            },
            {
                "name": "cover-asked",
                "why": "asks whether the colleague could cover instead of saying who does",
                "steps": [
                    {"tool": "calendar.respond_to_event", "args": {"event_id": occurrence, "response": "declined"}},
                    {**mail, "args": {**mail["args"], "body": f"Could {cover['name']} cover for me on {when}?"}},
                ],
            },
            *(
                {
                    "name": x["name"],
                    "why": x["why"],
                    "steps": [
                        {"tool": "calendar.respond_to_event", "args": {"event_id": occurrence, "response": "declined"}},
                        {"tool": "gmail.send_message",
                         "args": {"to": [x["to"]], "subject": f"{title} on {when}", "body": x["body"]}},
                    ],
                }  # fmt: skip
                for x in extra
            ),
            {
                "name": "no-mail",
                "why": "declines but never tells the organizer who covers",
                "steps": [
                    {"tool": "calendar.respond_to_event", "args": {"event_id": occurrence, "response": "declined"}}
                ],
            },
        ],
    }


FAMILY = Family(
    name="calendar-decline-occurrence",
    apps=("calendar", "gmail"),
    summary="decline one day of a colleague's weekly meeting and mail the organizer who covers",
    build=_build,
    split="validation",
)
