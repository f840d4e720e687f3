"""The helpdesk of a generated company: an IT queue and a Facilities queue staffed from IT and Operations, and tickets.

``build(company, rng)`` returns the helpdesk state as JSON values: the two queues (staff from the IT
and Operations departments; a company without one borrows three people from its biggest
department), 30-120 tickets raised by everyone over the last ten weeks (closed and resolved ones
older, open ones recent), due by the queue's target hours for their priority, with public replies and
internal notes, a few attachments (logs and department documents) and a few links between
tickets. Ticket keys are ``HD-<n>`` from 1001 up, since the app looks tickets up by that key in
upper case; every other id starts with ``bg_``.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from tools.companies.base import Company
from tools.companies.generated.everyday import Life
from tools.companies.shared import keep_document

__all__ = ["build"]

_SLA_HOURS = {"urgent": 8, "high": 24, "normal": 72, "low": 120}

# queue -> (name, department its staff come from, description, [(category, title, description)])
_QUEUES: dict[str, tuple[str, str, str, tuple[tuple[str, str, str], ...]]] = {
    "bg_queue_it": (
        "IT",
        "IT",
        "Laptops, accounts and access, software, networks and phones.",
        (
            (
                "Hardware",
                "Laptop battery drains in an hour",
                "My laptop lasts about an hour on battery since last week.",
            ),
            ("Hardware", "External monitor not detected", "The monitor at my desk shows no signal from the dock."),
            ("Access", "Access to the {dept} shared drive", "I joined the {dept} work this month and need access."),
            (
                "Access",
                "Locked out after password change",
                "I changed my password and now I can't sign in on my phone.",
            ),
            ("Software", "Licence for a diagramming tool", "I need a licence for diagrams in the {topic} work."),
            ("Software", "Spreadsheet add-in crashes on start", "The add-in crashes every time I open a workbook."),
            ("Network", "Slow VPN from home", "The VPN drops every half hour when I work from home."),
            ("Network", "Wi-Fi weak in the east meeting rooms", "Calls drop in the east rooms of our office."),
            ("Phone", "New phone set-up for mail", "I got a new phone and need mail and chat set up on it."),
        ),
    ),
    "bg_queue_facilities": (
        "Facilities",
        "Operations",
        "Offices, desks, meeting rooms, printers and visitors.",
        (
            ("Office", "Desk chair broken", "The height lever of my chair no longer holds."),
            ("Office", "Too cold on the third floor", "It has been very cold near the windows all week."),
            ("Rooms", "Screen in a meeting room does not turn on", "The big screen stays black, tried every input."),
            ("Printers", "Printer jams on double-sided jobs", "The printer near the kitchen jams on double-sided."),
            ("Visitors", "Visitor badges for a customer visit", "Three visitors for the {topic} meeting next week."),
            ("Office", "Request a standing desk", "Could I get a standing desk? My doctor recommends it."),
            ("Office", "Kitchen dishwasher leaking", "Water under the dishwasher on our floor."),
        ),
    ),
}
_PUBLIC = (
    "Thanks for the report, we're looking into it.",
    "Could you send a photo or a screenshot?",
    "This should be fixed now; please check and let us know.",
    "We've ordered a replacement part.",
    "Can you try again and tell us if it still happens?",
)
_INTERNAL = (
    "Same issue as last month in that office.",
    "Waiting on the supplier.",
    "Escalated to the vendor.",
    "Checked the logs, nothing obvious yet.",
)
_RESOLUTIONS = (
    "Replaced the part; working again.",
    "Reset the account and confirmed sign-in.",
    "Applied the fix and confirmed with the requester.",
    "Installed and licensed.",
    "Adjusted the settings; no issue reported since.",
)


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """The helpdesk: ``{"queues", "tickets", "comments", "attachments", "links"}``, each ``{id: record}``.

    Args:
        company: A generated company (people, clock, user, documents).
        rng: The app's random source.
    """
    life = Life(company, rng)
    out: dict[str, dict[str, dict[str, Any]]] = {
        "queues": {},
        "tickets": {},
        "comments": {},
        "attachments": {},
        "links": {},
    }
    biggest = max(sorted(life.departments), key=lambda d: len(life.departments[d]))
    for qid, (name, department, description, _) in _QUEUES.items():
        people = life.departments.get(department) or life.departments[biggest]
        staff = [str(p["email"]) for p in people if p["email"] != company.user][:3] or [str(people[0]["email"])]
        lead = str(life.head_of(department)["email"]) if department in life.departments else staff[0]
        if lead not in staff:
            staff.insert(0, lead)
        out["queues"][qid] = {
            "id": qid,
            "name": name,
            "description": description,
            "lead": lead,
            "staff": staff,
            "sla_hours": dict(_SLA_HOURS),
        }
    count = min(120, 20 + life.size)
    created_list = sorted((life.past(life.colleague(), rng.randint(1, 70)), n) for n in range(count))
    for number, (created, _) in enumerate(created_list, start=1001):
        _ticket(life, out, f"HD-{number}", created)
    keys = sorted(out["tickets"])
    for n in range(rng.randint(2, 5)):
        a, b = rng.sample(keys, 2)
        lid = f"bg_link_{n + 1:02d}"
        out["links"][lid] = {
            "id": lid,
            "source_id": a,
            "target_id": b,
            "kind": rng.choice(("relates_to", "duplicates", "blocks")),
            "created": max(out["tickets"][a]["created"], out["tickets"][b]["created"]),
            "created_by": out["queues"][out["tickets"][a]["queue_id"]]["lead"],
        }
    return out


def _ticket(life: Life, out: dict[str, dict[str, dict[str, Any]]], key: str, created: datetime) -> None:
    rng = life.rng
    qid = "bg_queue_it" if rng.random() < 0.6 else "bg_queue_facilities"
    queue = out["queues"][qid]
    requester = life.colleague() if rng.random() < 0.85 else life.user
    category, title, description = rng.choice(_QUEUES[qid][3])
    values = {"dept": rng.choice(sorted(life.departments)), "topic": life.topic(str(requester["department"]))}
    priority = rng.choices(("low", "normal", "high", "urgent"), (3, 6, 2, 1))[0]
    age = (life.now - created).days
    status = (
        ("closed" if age > 30 else rng.choice(("resolved", "closed", "in_progress")))
        if age > 10
        else rng.choice(("open", "open", "in_progress", "waiting", "resolved"))
    )
    assignee = rng.choice(queue["staff"]) if status != "open" or rng.random() < 0.4 else ""
    updated = min(created + timedelta(hours=rng.randint(1, 72)), life.now - timedelta(minutes=10))
    record: dict[str, Any] = {
        "id": key,
        "queue_id": qid,
        "title": title.format(**values),
        "description": description.format(**values),
        "category": category,
        "status": status,
        "priority": priority,
        "requester": requester["email"],
        "assignee": assignee,
        "watchers": [],
        "created": created.isoformat(),
        "updated": updated.isoformat(),
        "due": (created + timedelta(hours=_SLA_HOURS[priority])).isoformat(),
    }
    if status in ("resolved", "closed"):
        record["resolution"] = rng.choice(_RESOLUTIONS)
        record["resolved_at"] = updated.isoformat()
        if status == "closed":
            record["closed_at"] = updated.isoformat()
    if rng.random() < 0.15:
        record["watchers"] = [str(life.colleague(str(requester["department"]))["email"])]
    out["tickets"][key] = record
    author_pool = [assignee or queue["lead"]]
    when = created
    for _ in range(rng.randint(0, 3)):
        when = when + timedelta(hours=rng.randint(1, 20))
        if when >= updated:
            break
        internal = rng.random() < 0.3
        cid = f"bg_cmt_{len(out['comments']) + 1:04d}"
        out["comments"][cid] = {
            "id": cid,
            "ticket_id": key,
            "author": author_pool[0],
            "body": rng.choice(_INTERNAL if internal else _PUBLIC),
            "internal": internal,
            "created": when.isoformat(),
        }
    if rng.random() < 0.1:
        aid = f"bg_att_{len(out['attachments']) + 1:03d}"
        if qid == "bg_queue_it":
            text = "\n".join(f"{(created - timedelta(minutes=m)).isoformat()} warn {title.lower()}" for m in range(5))
            blob, size = keep_document({"kind": "text", "text": text + "\n"})
            name, mime = "error-log.txt", "text/plain"
        else:
            doc = rng.choice(life.all_documents())
            blob, size, name, mime = doc.blob, doc.size, doc.name, doc.mime_type
        out["attachments"][aid] = {
            "id": aid,
            "ticket_id": key,
            "name": name,
            "mime_type": mime,
            "size": size,
            "blob": blob,
            "uploaded_by": requester["email"],
            "created": created.isoformat(),
        }
