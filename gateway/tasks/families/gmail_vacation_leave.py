"""Turn on the out-of-office reply for the leave People approved (not the dates asked for), naming the manager.

Varies: the People colleague, the leave reference, the dates asked for and the (shortened) dates approved,
the user's manager, the phrasing. Distractors: the user's own request with the longer dates, a report's
approved leave sent to the user as their manager (other dates), so copying the first dates seen, or the
wrong person's, sets the wrong days (controls: ``requested-days``, ``report-leave``).

Scenario shapes (picked by the seed):

- ``thread_reply``: People approve the shortened dates in a reply to the user's request.
- ``new_mail``: the approval is a separate mail of its own, outside the request's thread (control:
  ``requested-days``, the dates the thread shows).
- ``revised_approval``: People first approve the dates asked for in the thread, then a later separate mail
  shortens them (control: ``requested-days``, the first approval's dates).

Phrasing composed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

SHAPES = ("thread_reply", "new_mail", "revised_approval")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    boss = inst.manager_of(inst.user) or inst.person()
    hr = inst.person(department="People", exclude=[boss["email"]])
    reports = sorted(
        (p for p in inst.company.people.values() if p.get("manager") == user and p["email"] != hr["email"]),
        key=lambda p: str(p["id"]),
    )
    report = inst.pick(reports) if reports else inst.person(exclude=[boss["email"], hr["email"]])
    code, other_code = inst.code("LV", 4), inst.code("LV", 4)

    start = inst.workday(inst.rng.randint(8, 30)).date()
    asked_end = start + timedelta(days=inst.rng.randint(4, 9))
    if inst.rng.random() < 0.5:
        approved = (start, asked_end - timedelta(days=inst.rng.randint(1, 3)))
    else:
        approved = (start + timedelta(days=inst.rng.randint(1, 2)), asked_end)
    theirs = (start + timedelta(days=14), start + timedelta(days=18))

    def show(d: Any) -> str:
        return f"{d:%A %B} {d.day}"

    request = message(
        inst,
        sender=user,
        to=[hr["email"]],
        subject=f"Leave request {code}",
        body=f"Hi {inst.first(hr)},\n\nI'd like to request leave from {show(start)} to {show(asked_end)}"
        f" (reference {code}).\n\nThanks",
        when=inst.day(-6, 16, 10),
        labels=("SENT",),
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    in_thread = {"thread": request["id"], "in_reply_to": request["id"]}
    if shape == "revised_approval":
        message(
            inst,
            sender=hr["email"],
            subject=f"Re: Leave request {code}",
            body=f"Hi {inst.first(inst.user)},\n\nYour leave {code} is approved from {show(start)} to"
            f" {show(asked_end)}.\n\n{hr['name']}, People",
            when=inst.day(-3, 10, 30),
            **in_thread,
        )
    message(
        inst,
        sender=hr["email"],
        subject=f"Re: Leave request {code}" if shape == "thread_reply" else f"Leave {code}: approved dates",
        body=f"Hi {inst.first(inst.user)},\n\nYour leave {code} is approved from {show(approved[0])} to"
        f" {show(approved[1])}: we could not cover the other days of your request, sorry.\n\n{hr['name']}, People"
        if shape != "revised_approval"
        else f"Hi {inst.first(inst.user)},\n\nA correction to leave {code}: we can only approve {show(approved[0])}"
        f" to {show(approved[1])} after all, as the team could not cover the other days. Sorry.\n\n"
        f"{hr['name']}, People",
        when=inst.day(-1, 10, 30),
        **(in_thread if shape == "thread_reply" else {}),
    )
    message(
        inst,
        sender=hr["email"],
        subject=f"Approved: leave {other_code} for {report['name']}",
        body=f"Hi {inst.first(inst.user)},\n\nFor your records as {inst.first(report)}'s manager: leave {other_code}"
        f" is approved from {show(theirs[0])} to {show(theirs[1])}.\n\n{hr['name']}, People",
        when=inst.day(-1, 11, 45),
    )

    instruction = compose(
        inst,
        [
            (
                "set up my out-of-office for the days People approved",
                "switch on my vacation reply for exactly the days of my approved leave",
                "turn on my auto-reply for my approved leave, using the dates in the approval",
                f"put my out-of-office on for the leave {inst.first(hr)} approved",
            ),
            (
                "tell people to contact my manager for anything urgent",
                "point people to my manager while I'm out",
                "say my manager covers urgent things",
            ),
        ],
        (
            "People got back to me about my leave request",
            "my leave was approved (check the People reply, it's not quite what I asked for)",
            f"{inst.first(hr)} from People answered my leave request",
            "",
        ),
        tail=("the approved dates, not the ones I asked for", "only my own leave", ""),
    )  # fmt: skip
    body = (
        f"I'm on leave until {show(approved[1])} with no access to email. For anything urgent, please contact"
        " {boss} ({boss_email})."
    )
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "reply_on_for_the_approved_days",
                "kind": "record",
                "app": "gmail",
                "collection": "_settings",
                "count": 1,
                "where": {
                    "vacation.enabled": True,
                    "vacation.start_date": approved[0].isoformat(),
                    "vacation.end_date": approved[1].isoformat(),
                },
            },
            {  # the manager is the contact; anyone else may be named as context, not as the contact
                "name": "manager_is_the_contact",
                "kind": "record",
                "app": "gmail",
                "collection": "_settings",
                "count": 1,
                "where": {"vacation.body": {"claims": {"kind": "person", "value": boss["email"], "ignore": [user]}}},
            },
        ],
        "allowed_changes": [
            {
                "app": "gmail",
                "collection": "_settings",
                "kinds": ["update"],
                "fields": ["vacation"],
                "where": {
                    "vacation.enabled": True,
                    "vacation.start_date": approved[0].isoformat(),
                    "vacation.end_date": approved[1].isoformat(),
                },
            }
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{hr['email']} {code}"},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "gmail.get_message", "args": {"message_id": "{mid}"}},
            {"tool": "directory.get_manager", "args": {"person": user}, "save": {"boss": "manager.name"}},
            {
                "tool": "gmail.set_vacation",
                "args": {
                    "enabled": True,
                    "subject": "On leave",
                    "body": body.replace("{boss_email}", boss["email"]),
                    "start_date": approved[0].isoformat(),
                    "end_date": approved[1].isoformat(),
                },
            },
        ],
        "alternative_solutions": [
            [  # who approved the leave, named as context
                {
                    "tool": "gmail.set_vacation",
                    "args": {
                        "enabled": True,
                        "body": f"I'm on leave until {show(approved[1])}; {hr['name']} in People approved it. For"
                        f" anything urgent, please reach out to {boss['name']}.",
                        "start_date": approved[0].isoformat(),
                        "end_date": approved[1].isoformat(),
                    },
                }
            ]
        ],
        "negative_controls": [
            {
                "name": "manager-negated",
                "why": "names the manager, but as the one not to contact",
                "steps": [
                    {
                        "tool": "gmail.set_vacation",
                        "args": {
                            "enabled": True,
                            "body": f"On leave. Please don't contact {boss['name']} while I'm away; write to"
                            f" {hr['name']} instead.",
                            "start_date": approved[0].isoformat(),
                            "end_date": approved[1].isoformat(),
                        },
                    }
                ],
            },
            {
                "name": "names-everyone",
                "why": "lists every colleague as the contact, so the manager is among them",
                "steps": [
                    {
                        "tool": "gmail.set_vacation",
                        "args": {
                            "enabled": True,
                            "body": "On leave. For anything urgent contact "
                            + ", ".join([boss["name"], *(p["name"] for p in list(inst.company.people.values())[:30])]),
                            "start_date": approved[0].isoformat(),
                            "end_date": approved[1].isoformat(),
                        },
                    }
                ],
            },
            {
                "name": "requested-days",
                "why": "uses the days asked for, not the days approved",
                "steps": [
                    {
                        "tool": "gmail.set_vacation",
                        "args": {
                            "enabled": True,
                            "body": f"On leave; contact {boss['name']} for anything urgent.",
                            "start_date": start.isoformat(),
                            "end_date": asked_end.isoformat(),
                        },
                    }
                ],
            },
            {
                "name": "report-leave",
                "why": "uses the report's approved leave",
                "steps": [
                    {
                        "tool": "gmail.set_vacation",
                        "args": {
                            "enabled": True,
                            "body": f"On leave; contact {boss['name']} for anything urgent.",
                            "start_date": theirs[0].isoformat(),
                            "end_date": theirs[1].isoformat(),
                        },
                    }
                ],
            },
            {
                "name": "no-manager",
                "why": "points people to the People colleague instead of the manager",
                "steps": [
                    {
                        "tool": "gmail.set_vacation",
                        "args": {
                            "enabled": True,
                            "body": f"On leave; contact {hr['name']} ({hr['email']}) for anything urgent.",
                            "start_date": approved[0].isoformat(),
                            "end_date": approved[1].isoformat(),
                        },
                    }
                ],
            },
        ],
        "no_controls": {
            "over_reach": "its one write is the mailbox's single vacation setting; writing it again replaces it"
        },
    }


FAMILY = Family(
    name="gmail-vacation-leave",
    apps=("gmail", "directory"),
    summary="set the out-of-office reply for the approved leave days, naming the manager as the contact",
    build=_build,
)
