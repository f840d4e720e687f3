"""Link the open tickets that report the same outage as the main ticket to it as duplicates (a decision).

Varies: the system, the office, how many duplicates there are (2-3) and their wording and requesters, the
assignee, dates, the phrasing. Distractors: the same symptom reported from another office, an unrelated
request about the same system in the same office, and a duplicate that is already closed.

Scenario shapes (picked by the seed):

- ``other_office``: the near-misses above (control: also links the other office's report).
- ``older_fault``: an open report from the same office about the same system, filed days before the outage,
  describes another fault (control: links it too).
- ``earlier_outage``: the same office had the same outage last month, tracked in a resolved ticket of its own
  (control: links the new reports to last month's ticket).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.helpdesk import called, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("other_office", "older_fault", "earlier_outage")

#: (keyword every ticket names, queue, ways to report the outage, an unrelated request about the same system)
SYSTEMS = (
    (
        "intranet",
        "it",
        ("Intranet down", "Can't open the intranet - page times out", "Intranet not loading for anyone",
         "Intranet shows a server error"),
        "Please add our team page to the intranet menu",
    ),
    (
        "CRM",
        "it",
        ("CRM won't load", "CRM login spins forever", "CRM unreachable from the office network",
         "CRM shows a blank page for everyone"),
        "CRM licence for our new account manager",
    ),
    (
        "lift",
        "facilities",
        ("Lift out of order", "Lift stuck on the ground floor", "Lift doors won't open",
         "Lift not responding to calls"),
        "Can the lift inspection be moved to a weekend?",
    ),
    (
        "projector",
        "facilities",
        ("Projectors not working", "Projector in the big room shows no signal", "All projectors dead after power cut",
         "Projector won't switch on"),
        "Spare projector remote for the training room",
    ),
    (
        "payroll",
        "finance_ops",
        ("Payroll portal down", "Can't log in to the payroll portal", "Payroll portal error on payslips page",
         "Payroll portal not loading"),
        "Question about the payroll calendar for next year",
    ),
)  # fmt: skip


def _build(inst: Instance) -> dict[str, Any]:
    keyword, queue, reports, unrelated = inst.pick(SYSTEMS)
    cities = sorted({p["location"] for p in inst.company.people.values() if p.get("location")})
    office, other_office = inst.rng.sample(cities, 2) if len(cities) > 1 else ("HQ", "the warehouse")
    n_dup = inst.rng.randint(2, 3)
    assignee = inst.person()
    requesters = inst.people(n_dup + 5, exclude=[assignee["email"]])
    queues(inst, {queue: [assignee]})
    wording = inst.rng.sample(reports, len(reports))
    start = inst.workday(-inst.rng.randint(1, 3), 8, inst.pick((10, 25, 40)))

    def report(n: int, title: str, where: str, minutes: int, **kw: Any) -> dict[str, Any]:
        return ticket(
            inst,
            queue,
            f"{title} ({where})",
            f"{title} in the {where} office since this morning - looks like a {keyword} outage, please help.",
            requesters[n]["email"],
            start + timedelta(minutes=minutes),
            priority="high",
            **kw,
        )

    main = report(0, wording[0], office, 0, status="in_progress", assignee=assignee["email"])
    dupes = [report(1 + i, wording[1 + i], office, 20 + 15 * i) for i in range(n_dup)]
    elsewhere = report(n_dup + 1, wording[-1], other_office, 35)
    request = ticket(
        inst,
        queue,
        f"{unrelated} ({office})",
        f"{unrelated}. No rush. ({keyword}, {office} office)",
        requesters[n_dup + 2]["email"],
        start + timedelta(minutes=50),
        priority="low",
    )
    old = report(n_dup + 3, wording[1], office, -60 * 24 * 9, status="closed", resolution="Fixed at the time.")
    near = [elsewhere, request, old]
    ids = [t["id"] for t in dupes]
    who = called(inst, assignee)
    shape = SHAPES[inst.seed % len(SHAPES)]
    fault: dict[str, Any] | None = None
    past: dict[str, Any] | None = None
    if shape == "older_fault":
        fault = ticket(inst, queue, f"{keyword.capitalize()} slow some afternoons ({office})",
                       f"Since last week the {keyword} is slow for a few minutes most afternoons in the {office}"
                       " office. Not urgent.", requesters[n_dup + 4]["email"], start - timedelta(days=5),
                       priority="normal")  # fmt: skip
        near.append(fault)
    elif shape == "earlier_outage":
        past = report(n_dup + 4, wording[0], office, -60 * 24 * 30, status="resolved",
                      assignee=assignee["email"], resolution="Restored after the outage.")  # fmt: skip
    instruction = compose(
        inst,
        [
            (
                f"link every other open ticket reporting the {keyword} outage in {office} to {who}'s ticket as a"
                " duplicate",
                f"find the main {keyword} ticket {who} is handling and mark the other open reports of the same"
                " outage as duplicates of it",
                f"tidy up the {keyword} tickets: link the other open ones about the {office} outage to {who}'s as"
                " duplicates",
            ),
        ],  # fmt: skip
        (
            f"the {keyword} outage in the {office} office is being worked on in one ticket ({who} has it)",
            f"people keep raising tickets about the {keyword} problem at {office}",
            f"the {office} {keyword} outage is tracked in {who}'s ticket",
            "",
        ),
        by=who,
        tail=("leave anything that isn't the same problem alone", "closed ones and other offices stay as they are", ""),
    )
    def link(src: str, dst: str = main["id"]) -> dict[str, Any]:
        return {
            "tool": "helpdesk.link_tickets",
            "args": {"ticket_id": src, "other_ticket_id": dst, "relation": "duplicates"},
        }

    search = {"tool": "helpdesk.search_tickets", "args": {"text": keyword, "status": "active", "sort": "oldest"}}
    return {
        "instruction": instruction,
        "checks": [
            *(
                {
                    "name": f"{tid}_duplicates_main",
                    "kind": "record",
                    "app": "helpdesk",
                    "collection": "links",
                    "new": True,
                    "count": 1,
                    "where": {"source_id": tid, "target_id": main["id"], "kind": "duplicates"},
                }
                for tid in ids
            ),
            {
                "name": "no_link_to_other_problems",
                "kind": "no_record",
                "app": "helpdesk",
                "collection": "links",
                "new": True,
                "where": {"source_id": {"in": [t["id"] for t in near]}},
            },
        ],
        "allowed_changes": [
            {
                "app": "helpdesk",
                "collection": "links",
                "kinds": ["add"],
                "where": {"source_id": {"in": ids}, "target_id": main["id"], "kind": "duplicates"},
                "count": len(ids),
            },
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": {"in": ids}},
                "fields": ["updated"],
                "count": len(ids),
            },
            {  # a note on each duplicate pointing to the main ticket is ordinary courtesy
                "app": "helpdesk",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"ticket_id": {"in": ids}},
                "count": len(ids),
            },
        ],
        "solution": [
            search,
            *({"tool": "helpdesk.get_ticket", "args": {"ticket_id": t["id"]}} for t in [main, *dupes, *near[:2]]),
            *(link(tid) for tid in ids),
        ],
        "alternative_solutions": [  # the links, and a courtesy note on each duplicate
            [
                search,
                *(link(tid) for tid in ids),
                *(
                    {"tool": "helpdesk.add_comment", "args": {"ticket_id": tid, "body": f"Same issue as {main['id']}."}}
                    for tid in ids
                ),
            ]
        ],
        "negative_controls": [
            {
                "name": "links-other-office",
                "why": "also links the same symptom reported from another office",
                "steps": [search, *(link(tid) for tid in [*ids, elsewhere["id"]])],
            },
            {
                "name": "links-every-keyword-ticket",
                "why": "links every open ticket that names the system, the unrelated request included",
                "steps": [search, *(link(tid) for tid in [*ids, elsewhere["id"], request["id"]])],
            },
            *(
                [{"name": "links-older-fault", "why": "also links the older report of another fault in the system",
                  "steps": [search, *(link(tid) for tid in [*ids, fault["id"]])]}]
                if fault
                else []
            ),
            *(
                [{"name": "last-months-ticket", "why": "links the new reports to last month's outage ticket",
                  "steps": [search, *(link(tid, past["id"]) for tid in ids)]}]
                if past
                else []
            ),
            {
                "name": "misses-one",
                "why": "links only the first duplicate",
                "steps": [search, link(ids[0])],
            },
            {
                "name": "wrong-direction",
                "why": "links the main ticket as a duplicate of the newer reports",
                "steps": [search, *(link(main["id"], tid) for tid in ids)],
            },
        ],
        "no_controls": {
            "over_reach": "every other ticket is a scenario near-miss named in the row; linking each of them is a"
            " negative control of its own"
        },
    }


FAMILY = Family(
    name="helpdesk-link-duplicates",
    apps=("helpdesk",),
    summary="link the open tickets reporting the same outage to the main ticket as duplicates",
    build=_build,
    split="test",
    decision=True,
)
