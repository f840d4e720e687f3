"""Forward the latest version of a notice to everyone in a department, found in the directory.

Varies: the notice (fire drill, closure, maintenance), its sender and reference, the department (3 to 40
people, never the user's own), dates, the phrasing. Distractors: the sender's earlier version of the same
notice (another date), the same kind of notice meant for another department, so forwarding the first
notice found (control: ``earlier-version``), or to the wrong team (``other-department-notice``), or to a
handful of names (``part-of-the-team``), fails.

Scenario shapes (picked by the seed):

- ``replaced``: the update is a mail of its own that says it replaces the earlier one.
- ``thread_update``: the update is a reply in the earlier notice's thread, so the thread's first message
  is the outdated one (control: ``earlier-version``).
- ``stale_list``: the earlier notice went to a copied list of the department that has since changed (one
  member missing, one who left), so reusing its recipients is wrong (control: ``old-recipient-list``).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

NOTICES = (
    ("fire drill", "The fire drill for {dept} is on {day} at {hour}. Please leave by the nearest stairs."),
    ("desk move", "{dept} moves to the new floor on {day}; pack your desk by {hour}."),
    ("network maintenance", "Network maintenance for {dept}: on {day} from {hour} the wired network is down."),
    ("badge renewal", "Badge renewal for {dept}: bring your old badge to reception on {day} from {hour}."),
)


SHAPES = ("replaced", "thread_update", "stale_list")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    counts: dict[str, list[str]] = {}
    for p in inst.company.people.values():
        counts.setdefault(p["department"], []).append(p["email"])
    fits = sorted(d for d, ms in counts.items() if 3 <= len(ms) <= 40 and user not in ms and d != "Executive")
    dept, other_dept = inst.rng.sample(fits, 2)
    members = sorted(counts[dept])
    sender = inst.person(exclude=members)
    kind, text = inst.pick(NOTICES)
    code = inst.code("FN", 4)
    new_day, old_day, other_day = (inst.workday(inst.rng.randint(3, 20)) for _ in range(3))
    hour = inst.pick(("10:00", "11:30", "14:00", "15:30"))

    def notice(d: str, when: Any) -> str:
        return str(text).format(dept=d, day=f"{when:%A %B} {when.day}", hour=hour)

    shape = SHAPES[inst.seed % len(SHAPES)]
    stale: list[str] = []
    if shape == "stale_list":
        gone = inst.person(exclude=[*members, sender["email"]])
        stale = sorted([*members[1:], gone["email"]])
    older = message(
        inst,
        sender=sender["email"],
        subject=f"{kind.capitalize()} notice {code} for {dept}",
        body=f"Hello,\n\n{notice(dept, old_day)}\n\nRef {code}.\n\n{sender['name']}",
        when=inst.day(-6, 9, 40),
        to=[user, *stale] if stale else (),
    )
    in_thread = {"thread": older["id"], "in_reply_to": older["id"]} if shape == "thread_update" else {}
    latest = message(
        inst,
        sender=sender["email"],
        subject=f"Updated: {kind} notice {code} for {dept}" if not in_thread
        else f"Re: {kind.capitalize()} notice {code} for {dept}",
        body=f"Hello,\n\nThis replaces my earlier notice. {notice(dept, new_day)}\n\nRef {code}.\n\n{sender['name']}"
        if not in_thread else f"Correction: {notice(dept, new_day)}\n\nRef {code}.\n\n{sender['name']}",
        when=inst.day(-1, 16, 5),
        **in_thread,
    )  # fmt: skip
    other = message(
        inst,
        sender=sender["email"],
        subject=f"{kind.capitalize()} notice {inst.code('FN', 4)} for {other_dept}",
        body=f"Hello,\n\n{notice(other_dept, other_day)}\n\n{sender['name']}",
        when=inst.day(-1, 16, 20),
    )

    name, first = sender["name"], inst.first(sender)
    instruction = compose(
        inst,
        [
            (
                f"forward the latest version of {first}'s {kind} notice to everyone in {dept}",
                f"pass {first}'s {kind} notice on to the whole {dept} team",
                f"forward the current {kind} notice from {first} to every person in {dept}",
                f"send the newest {kind} notice {first} mailed on to all of {dept}",
            ),
        ],
        (
            f"{name} sent me the {kind} notice for {dept}",
            f"{dept} needs the {kind} details",
            f"{first} asked me to get the {kind} notice to {dept}",
            "",
        ),
        by=name,
        tail=("make sure it's the most recent one, and forward the email itself",
              "check the directory for who's in it", "everyone in the department, nobody else", ""),
    )  # fmt: skip
    forward = {"message_id": "{mid}", "to": members, "note": f"Please see the {kind} notice below."}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "latest_notice_to_the_department",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"forwarded_from": latest["id"], "to": {"set_eq": members}},
            }
        ],
        "allowed_changes": [
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": user, "forwarded_from": latest["id"], "to": {"set_eq": members}},
            }
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{sender['email']} {code}"},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "directory.search_people", "args": {"department": dept, "page_size": 100}},
            {"tool": "gmail.forward_message", "args": forward},
        ],
        "negative_controls": [
            {
                "name": "earlier-version",
                "why": "forwards the notice the sender replaced",
                "steps": [{"tool": "gmail.forward_message", "args": {**forward, "message_id": older["id"]}}],
            },
            {
                "name": "other-department-notice",
                "why": "forwards the notice meant for another department",
                "steps": [{"tool": "gmail.forward_message", "args": {**forward, "message_id": other["id"]}}],
            },
            *(
                [{"name": "old-recipient-list", "why": "forwards it to the earlier notice's outdated recipients",
                  "steps": [{"tool": "gmail.forward_message",
                             "args": {**forward, "message_id": latest["id"], "to": stale}}]}]
                if stale else []
            ),  # fmt: skip
            {
                "name": "part-of-the-team",
                "why": "forwards it to the first few people only",
                "steps": [
                    {
                        "tool": "gmail.forward_message",
                        "args": {**forward, "message_id": latest["id"], "to": members[:2]},
                    }
                ],
            },
        ],
    }


FAMILY = Family(
    name="gmail-forward-notice-department",
    apps=("gmail", "directory"),
    summary="forward the latest notice to everyone in a department, found in the directory",
    build=_build,
)
