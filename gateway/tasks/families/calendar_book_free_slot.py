"""Book an hour with the user's manager and a colleague at the one time all three are free, in the room asked for.

Varies: the colleague, the day, the only free hour (10:00 to 15:00), the meeting's title, the two rooms, the
phrasing. The user's manager is found in the directory (the instruction says "my manager"); where the
manager works too far away for a shared working hour, a nearby colleague named in full takes that place.
Every invitee is free in the booked hour inside their own working hours (their office's time zone). Distractors: the
preferred room is taken by someone else's meeting in that hour (so the second choice is right), the morning
and afternoon are each free for some but not all of the three (control: ``first-morning-hour``), and a
larger room sits on another floor (``big-room``).

Scenario shapes (picked by the seed):

- ``room_taken``: someone else's meeting holds the preferred room in the free hour, so the second choice
  is right.
- ``room_free``: that meeting holds the preferred room the hour before, so the preferred room is right
  (control: ``second-choice-room`` books the second choice anyway).
- ``declined_clash``: as ``room_taken``, and the colleague has a meeting in the free hour that they have
  declined, so it does not hold them (control: ``next-hour`` books the hour after, when the manager is busy).

Phrasing composed.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import busy_hours, event, room

__all__ = ["FAMILY"]

TOPICS = ("Budget check-in", "Hiring plan review", "Vendor shortlist", "Roadmap sync", "Quarterly goals", "Risk review")
SHAPES = ("room_taken", "room_free", "declined_clash")
TREES = ("Cedar", "Maple", "Willow", "Aspen", "Rowan", "Hazel", "Linden", "Alder")


def _inside(inst: Instance, day: datetime, hour: int, people: list[dict[str, Any]]) -> bool:
    """Whether the hour from ``hour`` on ``day`` (the company's clock) is inside everyone's own working hours."""
    start = day.replace(hour=hour, minute=0)
    for person in people:
        zone = ZoneInfo(person.get("timezone") or inst.company.timezone)
        local, local_end = start.astimezone(zone), (start + timedelta(hours=1)).astimezone(zone)
        if local.weekday() >= 5 or local.date() != local_end.date():
            return False
        if local.time() < time(9) or local_end.time() > time(17):
            return False
    return True


def _overlaps(inst: Instance, people: list[dict[str, Any]]) -> bool:
    """Whether some hour from 10:00 to 15:00 (the company's clock) is a working hour for all of ``people``."""
    day = inst.workday(1, 0)
    return any(_inside(inst, day, hour, people) for hour in range(10, 16))


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    boss = inst.manager_of(inst.user)
    by_manager = boss is not None and _overlaps(inst, [inst.user, boss])
    if boss is None or not by_manager:  # a manager in an office too far away to meet: name a colleague instead
        near = [p for p in inst.company.people.values() if p["email"] != user and _overlaps(inst, [inst.user, p])]
        boss = inst.rng.choice(sorted(near, key=lambda p: p["id"]))
    pool = [
        p for p in inst.company.people.values()
        if p["email"] not in (user, boss["email"]) and _overlaps(inst, [inst.user, boss, p])
    ]  # fmt: skip
    colleague = inst.rng.choice(sorted(pool, key=lambda p: p["id"]))
    outsider, other = inst.people(2, exclude=[boss["email"], colleague["email"]])
    topic = f"{inst.pick(TOPICS)} {inst.code('Q', 3)[2:]}"
    trio = [user, boss["email"], colleague["email"]]
    for _ in range(40):  # a day and hour the company's own calendar leaves free, inside all three's working hours
        day = inst.workday(inst.rng.randint(2, 20), 0)
        free = sorted(set(range(10, 16)) - busy_hours(inst, trio, day.date()))
        hours = [h for h in free if _inside(inst, day, h, [inst.user, boss, colleague])]
        if hours:
            break
    else:
        raise ValueError(f"{inst.company.key}: no free hour for {trio} in the next four weeks")
    gap = inst.pick(hours)

    def at(hour: int, minute: int = 0) -> Any:
        return day.replace(hour=hour, minute=minute)

    first_tree, second_tree, third_tree = inst.rng.sample(TREES, 3)
    floor = inst.rng.randint(2, 6)
    preferred = room(inst, f"{first_tree} {floor}B", 6, floor, ["video"])
    fallback = room(inst, f"{second_tree} {floor + 1}A", 6, floor + 1, ["video"])
    room(inst, f"{third_tree} {floor - 1}C", 12, floor - 1, ["video", "whiteboard"])

    event(inst, title="Focus time", start=at(9), end=at(gap), organizer=user)
    event(
        inst,
        title="Leadership offsite prep",
        start=at(gap + 1),
        end=at(17),
        organizer=boss["email"],
        attendees=[other["email"]],
        responses={other["email"]: "accepted"},
    )
    event(
        inst,
        title="Customer call",
        start=at(9),
        end=at(9, 45),
        organizer=colleague["email"],
        attendees=[other["email"]],
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    held = gap - 1 if shape == "room_free" else gap
    event(
        inst,
        title="Team review",
        start=at(held),
        end=at(held + 1),
        organizer=outsider["email"],
        attendees=[other["email"]],
        room=preferred,
    )

    if shape == "declined_clash":
        event(inst, title="Vendor demo", start=at(gap), end=at(gap + 1), organizer=outsider["email"],
              attendees=[colleague["email"]], responses={colleague["email"]: "declined"})  # fmt: skip
    booked = preferred if shape == "room_free" else fallback
    when = f"{day:%A %B} {day.day}"
    chief = "my manager" if by_manager else boss["name"]
    guest, pref, alt = colleague["name"], preferred["name"], fallback["name"]
    instruction = compose(
        inst,
        [
            (
                f'find an hour on {when} when {chief}, {guest} and I are all free and set up "{topic}" with the two'
                " of them",
                f'put a one-hour "{topic}" on the calendar for {when} with me, {chief} and {guest}, at a time none of'
                " us has anything else",
                f'schedule a one-hour "{topic}" on {when} with {guest} and {chief}, whenever the three of us are free',
                f'book "{topic}" for an hour on {when}, inviting {chief} and {guest}, in a slot all three of us have'
                " open",
            ),
            (
                f"book {pref} if it's free then, otherwise {alt}",
                f"use {pref} for the room, or {alt} if {pref} is taken",
                f"get {pref} as the room; if that's booked, {alt} is fine",
            ),
        ],
        (
            f"I need {chief} and {guest} in a room together",
            f"{guest} and I owe {chief} a proper hour on this",
            "",
        ),
        tail=("nobody should have to move anything else", "one hour, no more", ""),
    )  # fmt: skip
    start, end = at(gap), at(gap + 1)
    if by_manager:
        find_boss = {"tool": "directory.get_manager", "args": {"person": user}, "save": {"boss": "manager.email"}}
    else:
        by_name = {"query": boss["name"]}
        find_boss = {"tool": "directory.search_people", "args": by_name, "save": {"boss": "results.0.email"}}
    window = {"start": day.date().isoformat(), "end": (day.date() + timedelta(days=1)).isoformat()}
    mine = {"title": {"contains": topic}}

    def book(at_hour: int, room_name: str) -> dict[str, Any]:
        return {"tool": "calendar.create_event", "args": {
            "title": topic, "start": at(at_hour).isoformat(), "end": at(at_hour + 1).isoformat(),
            "attendees": [boss["email"], colleague["email"]], "room": room_name}}  # fmt: skip

    extra = []
    if shape == "room_free":
        extra.append({"name": "second-choice-room", "why": "books the second-choice room though the first was free",
                      "steps": [book(gap, fallback["name"])]})  # fmt: skip
    elif shape == "declined_clash":
        extra.append({"name": "next-hour", "why": "skips the hour of the colleague's declined meeting",
                      "steps": [book(gap + 1, fallback["name"])]})  # fmt: skip
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "meeting_in_the_free_hour",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {**mine, "start": {"instant": start.isoformat()}, "end": {"instant": end.isoformat()}},
            },
            {
                "name": "manager_invited",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {**mine, "attendees": {"any": {"email": boss["email"]}}},
            },
            {
                "name": "colleague_invited",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {**mine, "attendees": {"any": {"email": colleague["email"]}}},
            },
            {
                "name": "second_choice_room_booked" if booked is fallback else "preferred_room_booked",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {**mine, "room": booked["id"], "attendees": {"len": 4}},
            },
        ],
        "allowed_changes": [
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["add"],
                "where": {**mine, "room": booked["id"], "start": {"instant": start.isoformat()}},
            }
        ],
        "solution": [
            find_boss,
            {
                "tool": "directory.search_people",
                "args": {"query": colleague["name"]},
                "save": {"colleague": "results.0.email"},
            },
            {
                "tool": "calendar.find_free_slots",
                "args": {"people": ["{boss}", "{colleague}"], "duration_minutes": 60, **window},
                "save": {"slot": "slots.0.start", "slot_end": "slots.0.end"},
            },
            {"tool": "calendar.find_available_rooms", "args": {"start": "{slot}", "end": "{slot_end}"}},
            {
                "tool": "calendar.create_event",
                "args": {
                    "title": topic,
                    "start": "{slot}",
                    "end": "{slot_end}",
                    "attendees": ["{boss}", "{colleague}"],
                    "room": booked["name"],
                },
            },
        ],
        "negative_controls": [
            {
                "name": "first-morning-hour",
                "why": "books the first hour of the day, when the user is busy",
                "steps": [
                    {
                        "tool": "calendar.create_event",
                        "args": {
                            "title": topic,
                            "start": at(9).isoformat(),
                            "end": at(10).isoformat(),
                            "attendees": [boss["email"], colleague["email"]],
                            "room": fallback["name"],
                        },
                    }
                ],
            },
            *extra,
            {
                "name": "manager-left-out",
                "why": "invites only the colleague",
                "steps": [
                    {
                        "tool": "calendar.create_event",
                        "args": {
                            "title": topic,
                            "start": start.isoformat(),
                            "end": end.isoformat(),
                            "attendees": [colleague["email"]],
                            "room": fallback["name"],
                        },
                    }
                ],
            },
            {
                "name": "big-room",
                "why": "books the larger room on another floor, which was not asked for",
                "steps": [
                    {
                        "tool": "calendar.create_event",
                        "args": {
                            "title": topic,
                            "start": start.isoformat(),
                            "end": end.isoformat(),
                            "attendees": [boss["email"], colleague["email"]],
                            "room": f"{third_tree} {floor - 1}C",
                        },
                    }
                ],
            },
        ],
        "no_controls": {"over_reach": "a second event in that hour is refused: its room is already taken"},
    }


FAMILY = Family(
    name="calendar-book-free-slot",
    apps=("calendar", "directory"),
    summary="book an hour when the user, their manager and a colleague are all free, in the free one of two rooms",
    build=_build,
    decision=True,
)
