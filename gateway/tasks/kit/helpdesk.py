"""Helpdesk scenario records the helpdesk families share: the four queues, tickets with ``HD-`` keys, comments.

A generated company's background has some of the four queues (IT and Facilities); a family that writes
tickets writes all four, each over the background queue of the same name where there is one (so no name is
listed twice and the staff are the scenario's), else under the default company's id. Ticket keys are drawn
from ``HD-2000 .. HD-9999``, above the background's ``HD-1001 ..``, unique in the instance.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

from gateway.tasks.kit.base import Instance
from tools.companies.catalog import company_state

__all__ = ["QUEUES", "SLA_HOURS", "called", "comment", "queue_id", "queues", "ticket"]

#: Hours from creation to due by priority (the default company's targets).
SLA_HOURS = {"urgent": 8, "high": 24, "normal": 72, "low": 120}
#: (id, name, description) of the four queues.
QUEUES = (
    ("it", "IT", "Laptops, accounts, access, software and networks."),
    ("facilities", "Facilities", "Offices, rooms, furniture, badges and building services."),
    ("people_ops", "People Ops", "Onboarding, leave, benefits and employee records."),
    ("finance_ops", "Finance Ops", "Vendor payments, expenses, invoices and purchase orders."),
)


@functools.cache
def _background_ids(key: str) -> dict[str, str]:
    """Queue name -> id of the company's own (background) queues."""
    return {str(q["name"]): qid for qid, q in company_state(key, "helpdesk").get("queues", {}).items()}


def queue_id(inst: Instance, queue: str) -> str:
    """The id the instance's world gives the queue ``queue`` (one of :data:`QUEUES`' ids, e.g. ``"it"``)."""
    name = next(n for qid, n, _ in QUEUES if qid == queue)
    return _background_ids(inst.company.key).get(name, queue)


def queues(inst: Instance, staff_of: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, list[str]]:
    """Write the four queues, each with three staff (people given in ``staff_of`` first); returns id -> staff emails.

    Args:
        inst: The instance.
        staff_of: Queue id (of :data:`QUEUES`) -> people who must be on its staff (their emails come first).

    Returns:
        The staff emails by queue id of :data:`QUEUES` (the world's id is :func:`queue_id`).
    """
    given = staff_of or {}
    taken = {p["email"] for ps in given.values() for p in ps}
    out: dict[str, list[str]] = {}
    for qid, name, text in QUEUES:
        staff = [p["email"] for p in given.get(qid, [])]
        if len(staff) < 3:
            extra = inst.people(3 - len(staff), exclude=taken | set(staff))
            staff += [p["email"] for p in extra]
            taken |= {p["email"] for p in extra}
        out[qid] = staff
        inst.add(
            "helpdesk",
            "queues",
            queue_id(inst, qid),
            {"name": name, "description": text, "lead": staff[0], "staff": staff, "sla_hours": dict(SLA_HOURS)},
        )
    return out


def _key(inst: Instance) -> str:
    have = inst.overrides.get("helpdesk", {}).get("tickets", {})
    while True:
        key = f"HD-{inst.rng.randrange(2000, 10000)}"
        if key not in have:
            return key


def ticket(
    inst: Instance,
    queue: str,
    title: str,
    description: str,
    requester: str,
    created: datetime,
    *,
    status: str = "open",
    priority: str = "normal",
    assignee: str = "",
    category: str = "",
    watchers: tuple[str, ...] = (),
    resolution: str = "",
    updated: datetime | None = None,
) -> dict[str, Any]:
    """Write one ticket with a fresh ``HD-`` key; returns the record (its key is ``["id"]``).

    Resolved and closed tickets get ``resolved_at`` (and ``closed_at``) one day after ``updated`` or creation.
    """
    last = updated or created
    done = last + timedelta(days=1) if status in ("resolved", "closed") else None
    return inst.add(
        "helpdesk",
        "tickets",
        _key(inst),
        {
            "queue_id": queue_id(inst, queue),
            "title": title,
            "description": description,
            "category": category,
            "status": status,
            "priority": priority,
            "requester": requester,
            "assignee": assignee,
            "watchers": list(watchers),
            "created": created.isoformat(),
            "updated": (done or last).isoformat(),
            "due": (created + timedelta(hours=SLA_HOURS[priority])).isoformat(),
            "resolution": resolution,
            "resolved_at": done.isoformat() if done else None,
            "closed_at": done.isoformat() if done and status == "closed" else None,
        },
    )


def comment(
    inst: Instance, ticket_id: str, author: str, body: str, created: datetime, *, internal: bool = False
) -> dict[str, Any]:
    """Write one comment on a ticket; returns the record."""
    return inst.add(
        "helpdesk",
        "comments",
        inst.uid("cmt"),
        {"ticket_id": ticket_id, "author": author, "body": body, "internal": internal, "created": created.isoformat()},
    )


def called(inst: Instance, person: dict[str, Any], full: float = 0.5) -> str:
    """How a colleague names ``person``: the full name (chance ``full``), else the first name if it is unique."""
    first = inst.first(person)
    shared = sum(1 for p in inst.company.people.values() if inst.first(p) == first) > 1
    return str(person["name"]) if shared or inst.rng.random() < full else first
