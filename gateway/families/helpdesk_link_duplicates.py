"""Link the open tickets that report the same outage as the main ticket to it as duplicates (a decision).

Varies: the system, the office, how many duplicates there are (2-3) and their wording and requesters, the
assignee, dates, the phrasing. Distractors: the same symptom reported from another office, an unrelated
request about the same system in the same office, and a duplicate that is already closed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.families._helpdesk import queues, ticket
from gateway.families.base import Family, Instance

__all__ = ["FAMILY"]

#: (keyword every ticket names, queue, ways to report the outage, an unrelated request about the same system)
SYSTEMS = (
    (
        "printer",
        "it",
        ("Printer offline", "Can't print - printer shows offline", "Printer not reachable from laptops",
         "Print jobs fail: printer offline"),
        "Please order a spare toner for the printer",
    ),
    (
        "Wi-Fi",
        "it",
        ("Guest Wi-Fi down", "Wi-Fi keeps dropping for everyone", "No Wi-Fi on the whole floor",
         "Wi-Fi connected but no internet"),
        "Wi-Fi password for the visitors next week",
    ),
    (
        "badge",
        "facilities",
        ("Badge readers not opening doors", "My badge stopped working at the entrance", "Front door badge reader dead",
         "Badge access failing at every door"),
        "New badge photo for my replacement badge",
    ),
    (
        "heating",
        "facilities",
        ("No heating this morning", "Heating off - office is freezing", "Radiators cold, heating not working",
         "Heating failure on our floor"),
        "Can the heating schedule start earlier on Mondays?",
    ),
    (
        "VPN",
        "it",
        ("VPN won't connect", "VPN drops after login", "VPN connection refused from the office network",
         "VPN times out for everyone"),
        "VPN access for our new contractor",
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
            f"{title} in the {where} office since this morning - looks like a {keyword} problem, please help.",
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
    who = assignee["name"] if inst.rng.random() < 0.5 else inst.first(assignee)
    instruction = inst.phrase(
        "The {keyword} outage in the {office} office is being worked on in one ticket ({who} has it). Link every"
        " other open ticket reporting that same outage to it as a duplicate.",
        "People keep raising tickets about the {keyword} problem at {office}. Find the main one {who} is handling"
        " and mark the other open reports of the same outage as duplicates of it.",
        "Please tidy up the {keyword} tickets: the {office} outage is tracked in {who}'s ticket, so link the other"
        " open tickets about that outage to it as duplicates. Leave anything that isn't the same problem alone.",
    ).format(keyword=keyword, office=office, who=who)

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
        ],
        "solution": [
            search,
            *({"tool": "helpdesk.get_ticket", "args": {"ticket_id": t["id"]}} for t in [main, *dupes, *near[:2]]),
            *(link(tid) for tid in ids),
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
