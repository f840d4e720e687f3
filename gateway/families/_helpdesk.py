"""Helpdesk scenario records the helpdesk families share: the four queues, tickets with ``HD-`` keys, comments.

Generated companies may or may not have helpdesk queues of their own; a family that writes tickets writes
the queues too (same ids and names as the default company's, so the row's queue replaces any background one
and its staff are known). Ticket keys are drawn from ``HD-2000 .. HD-9999``, unique in the instance.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from gateway.families.base import Instance

__all__ = ["QUEUES", "SLA_HOURS", "comment", "queues", "ticket"]

#: Hours from creation to due by priority (the default company's targets).
SLA_HOURS = {"urgent": 8, "high": 24, "normal": 72, "low": 120}
#: (id, name, description) of the four queues.
QUEUES = (
    ("it", "IT", "Laptops, accounts, access, software and networks."),
    ("facilities", "Facilities", "Offices, rooms, furniture, badges and building services."),
    ("people_ops", "People Ops", "Onboarding, leave, benefits and employee records."),
    ("finance_ops", "Finance Ops", "Vendor payments, expenses, invoices and purchase orders."),
)


def queues(inst: Instance, staff_of: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, list[str]]:
    """Write the four queues, each with three staff (people given in ``staff_of`` first); returns id -> staff emails.

    Args:
        inst: The instance.
        staff_of: Queue id -> people who must be on its staff (their emails come first).
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
            qid,
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
            "queue_id": queue,
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
