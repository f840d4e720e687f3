"""Accept the calendar invitation a colleague's mail points to (the rescheduled one, not the old one).

Varies: the colleague, the topic, the old and the new day and time, the phrasing (composed). Distractors in
every shape: the same colleague's earlier invitation with the same title on the old day (still open;
control: ``old-day``), a prep meeting with a similar title on the new day from someone else
(``prep-meeting``), so accepting the first match, the old day or the prep meeting fails.

Scenario shapes (picked by the seed):

- ``moved_mail``: one mail says the meeting moved and asks to accept the new invitation.
- ``thread_reply``: the mail is a reply in a thread whose first message asked to accept the invitation for
  the old day (control: ``old-day``, which reads only the first message).
- ``same_title``: another colleague's meeting with the very same title sits on the day after the new day
  (control: ``other-organizer`` accepts it).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event, message

__all__ = ["FAMILY"]

SHAPES = ("moved_mail", "thread_reply", "same_title")
TOPICS = ("pricing", "contract", "launch", "hiring", "security", "forecast", "migration", "onboarding")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    organizer, prepper, guest = inst.people(3)
    topic = inst.pick(TOPICS)
    title = f"{topic.capitalize()} review"
    old_offset = inst.rng.randint(2, 6)
    old_day = inst.workday(old_offset, inst.rng.randint(9, 11))
    moved = (old_day.date() - inst.now.date()).days + inst.rng.randint(2, 7)
    new_day = inst.workday(moved, inst.rng.randint(9, 11), inst.pick((0, 30)))
    hour = timedelta(hours=1)

    people = [user, guest["email"]]
    event(inst, title=title, start=old_day, end=old_day + hour, organizer=organizer["email"], attendees=people)
    new = event(inst, title=title, start=new_day, end=new_day + hour, organizer=organizer["email"], attendees=people)
    prep_at = new_day.replace(hour=15, minute=0)
    prep = event(
        inst,
        title=f"{title} prep",
        start=prep_at,
        end=prep_at + timedelta(minutes=30),
        organizer=prepper["email"],
        attendees=[user],
    )
    old_when, new_when = f"{old_day:%A %B} {old_day.day}", f"{new_day:%A %B} {new_day.day}"
    shape = SHAPES[inst.seed % len(SHAPES)]
    first_mail = None
    if shape == "thread_reply":
        first_mail = message(
            inst,
            sender=organizer["email"],
            subject=f"{title} on {old_when}",
            body=f"Hi {inst.first(inst.user)},\n\nI've invited you to the {topic} review on {old_when}, could you"
            f" accept it?\n\n{inst.first(organizer)}",
            when=inst.day(-4, 10, 5),
        )
    message(
        inst,
        sender=organizer["email"],
        subject=f"{title} moved to {new_when}" if first_mail is None else f"Re: {title} on {old_when}",
        body=f"Hi {inst.first(inst.user)},\n\nWe had to move the {topic} review from {old_when} to {new_when}."
        f" I've sent you a new invitation for it - could you accept that one? I'll cancel the {old_when}"
        f" one later today.\n\n{inst.first(organizer)}",
        when=inst.day(-1, 14, 25),
        **({"thread": first_mail["id"], "in_reply_to": first_mail["id"]} if first_mail else {}),
    )
    extra: list[dict[str, Any]] = []
    if shape == "same_title":
        at = (new_day + timedelta(days=3 if new_day.weekday() == 4 else 1)).replace(hour=14, minute=0)
        twin = event(inst, title=title, start=at, end=at + hour, organizer=prepper["email"], attendees=[user])
        extra.append({
            "name": "other-organizer",
            "why": "accepts another colleague's meeting of the same title",
            "steps": [{"tool": "calendar.respond_to_event", "args": {"event_id": twin["id"], "response": "accepted"}}],
        })  # fmt: skip

    org, org_first = organizer["name"], inst.first(organizer)
    instruction = compose(
        inst,
        [
            (
                f"accept the invitation {org_first} asked me to accept",
                f"accept the {topic} review invite {org_first} mentions in their email",
                f"get me on the {topic} review by accepting the invite {org_first} pointed me to",
                f"say yes to the {topic} review invitation {org_first}'s latest mail is about",
            ),
        ],
        (
            f"{org} emailed me about the {topic} review",
            f"{org_first} moved the {topic} review and mailed me about it",
            f"there's a mail from {org_first} about the {topic} review",
            "",
        ),
        by=org,
        tail=("just that one", "leave the other invitations as they are", ""),
    )  # fmt: skip
    old_id = next(
        rid
        for rid, r in inst.overrides["calendar"]["events"].items()
        if r["title"] == title and rid != new["id"] and r["organizer"] == organizer["email"]
    )
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "new_invite_accepted",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "count": 1,
                "where": {"id": new["id"], "attendees": {"any": {"email": user, "response": "accepted"}}},
            }
        ],
        "allowed_changes": [
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["update"],
                "where": {"id": new["id"]},
                "fields": ["attendees"],
                "added": {"attendees": {"email": user, "response": "accepted"}},
                "removed": {"attendees": {"email": user}},
            }
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{organizer['email']} {topic} review"},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "gmail.get_message", "args": {"message_id": "{mid}"}},
            {
                "tool": "calendar.list_events",
                "args": {
                    "start": new_day.date().isoformat(),
                    "end": (new_day.date() + timedelta(days=1)).isoformat(),
                    "query": title,
                },
                "save": {"eid": "events.0.id"},
            },
            {"tool": "calendar.respond_to_event", "args": {"event_id": "{eid}", "response": "accepted"}},
        ],
        "negative_controls": [
            {
                "name": "old-day",
                "why": "accepts the invitation for the old day",
                "steps": [{"tool": "calendar.respond_to_event", "args": {"event_id": old_id, "response": "accepted"}}],
            },
            {
                "name": "prep-meeting",
                "why": "accepts the prep meeting on the new day instead",
                "steps": [
                    {"tool": "calendar.respond_to_event", "args": {"event_id": prep["id"], "response": "accepted"}}
                ],
            },
            {
                "name": "maybe",
                "why": "answers maybe instead of accepting",
                "steps": [
                    {"tool": "calendar.respond_to_event", "args": {"event_id": new["id"], "response": "tentative"}}
                ],
            },
            *extra,
        ],
    }


FAMILY = Family(
    name="calendar-accept-mailed-invite",
    apps=("calendar", "gmail"),
    summary="accept the rescheduled invitation a colleague's mail asks for, not the old one",
    build=_build,
)
