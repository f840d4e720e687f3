"""Record builders the mail, calendar and directory families share: a message, an attachment, an event, a room.

Each writes its record into the instance with :meth:`Instance.add` and returns it (a JSON-able dict), so a
family reads as the scenario it sets up. Times are aware datetimes from ``inst.day`` / ``inst.workday``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from gateway.tasks.kit.base import Instance
from tools.companies import company_state

__all__ = ["attachment", "busy_hours", "department_head", "event", "message", "room"]

_MIME = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "text": "text/csv",
}


def attachment(inst: Instance, filename: str, spec: dict[str, Any]) -> dict[str, Any]:
    """An attachment record for a real file made from ``spec`` (see :meth:`Instance.document`).

    Args:
        inst: The instance.
        filename: The name the mail shows, e.g. ``"INV-4821.pdf"``.
        spec: The document spec; its ``kind`` gives the mime type.
    """
    blob, size = inst.document(spec)
    return {
        "id": inst.uid("att"),
        "filename": filename,
        "mime_type": _MIME.get(str(spec["kind"]), "application/octet-stream"),
        "size": size,
        "blob": blob,
    }


def message(
    inst: Instance,
    *,
    sender: str,
    subject: str,
    body: str,
    when: datetime,
    to: Sequence[str] = (),
    cc: Sequence[str] = (),
    thread: str = "",
    in_reply_to: str = "",
    labels: Sequence[str] = ("INBOX",),
    attachments: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """A mail message in the user's mailbox (to the user unless ``to`` says otherwise); its own thread by default."""
    mid = inst.uid("msg")
    return inst.add(
        "gmail",
        "messages",
        mid,
        {
            "thread_id": thread or mid,
            "sender": sender,
            "to": list(to) or [inst.company.user],
            "cc": list(cc),
            "subject": subject,
            "body": body,
            "date": when.isoformat(),
            "labels": list(labels),
            "attachments": list(attachments),
            "in_reply_to": in_reply_to,
        },
    )


def event(
    inst: Instance,
    *,
    title: str,
    start: datetime,
    end: datetime,
    organizer: str,
    attendees: Iterable[str] = (),
    responses: dict[str, str] | None = None,
    description: str = "",
    location: str = "",
    room: dict[str, Any] | None = None,
    recurrence: str = "",
) -> dict[str, Any]:
    """A calendar event; the organizer attends (accepted), everyone else answers ``responses`` or needsAction."""
    answers = responses or {}
    people = [organizer, *(a for a in attendees if a != organizer)]
    listed: list[dict[str, Any]] = [
        {"email": p, "response": "accepted" if p == organizer else answers.get(p, "needsAction")} for p in people
    ]
    if room is not None:
        listed.append({"email": room["email"], "response": "accepted", "resource": True})
    return inst.add(
        "calendar",
        "events",
        inst.uid("evt"),
        {
            "title": title,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "organizer": organizer,
            "attendees": listed,
            "description": description,
            "location": location or (room["name"] if room else ""),
            "room": room["id"] if room else "",
            "recurrence": recurrence,
        },
    )


def room(inst: Instance, name: str, capacity: int, floor: int, features: Sequence[str] = ()) -> dict[str, Any]:
    """A bookable meeting room in the user's office."""
    rid = inst.uid("room")
    slug = name.lower().replace(" ", "-")
    return inst.add(
        "calendar",
        "rooms",
        rid,
        {
            "name": name,
            "email": f"{slug}@rooms.{inst.company.domain}",
            "office": inst.user["location"],
            "floor": floor,
            "capacity": capacity,
            "features": list(features),
        },
    )


def department_head(inst: Instance, department: str) -> dict[str, Any]:
    """The head of ``department``: its member whose manager sits outside it.

    Raises:
        ValueError: the company has no such department.
    """
    members = {p["email"] for p in inst.company.people.values() if p["department"] == department}
    for p in sorted(inst.company.people.values(), key=lambda p: p["id"]):
        if p["email"] in members and p.get("manager") not in members:
            return p
    raise ValueError(f"department {department!r}: no such department in {inst.company.key}")


def busy_hours(inst: Instance, emails: Iterable[str], day: date) -> set[int]:
    """The hours (0-23, in the company's zone) of ``day`` that the company's own calendar may hold for ``emails``.

    Reads the company's background calendar (not the instance's records) so that a family can place its
    scenario in time nobody is already booked. A person is held by an event they organize or have not
    declined. A repeating event counts on every day its rule could put it on, in its own zone (the day
    before and after too, for an office whose date differs; cancelled days and occurrence counts are not
    subtracted: an over-estimate, never wrong the other way).
    """
    who = set(emails)
    tz = ZoneInfo(inst.company.timezone)
    held: set[int] = set()
    for rec in company_state(inst.company.key, "calendar").get("events", {}).values():
        attending = {a["email"] for a in rec.get("attendees", []) if a.get("response") != "declined"}
        if not (who & (attending | {rec.get("organizer")})):
            continue
        start, end = datetime.fromisoformat(rec["start"]), datetime.fromisoformat(rec["end"])
        spans = [(start, end)]
        if rec.get("recurrence"):  # the days around ``day`` in its own zone: an office far away is a date ahead
            own = ZoneInfo(rec.get("time_zone") or inst.company.timezone)
            first = start.astimezone(own)
            near = (day - timedelta(days=1), day, day + timedelta(days=1))
            begins = [datetime.combine(d, first.time(), own) for d in near if _repeats_on(rec, first.date(), d)]
            spans = [(b, b + (end - start)) for b in begins]
        for lo, hi in ((a.astimezone(tz), b.astimezone(tz)) for a, b in spans):
            for hour in range(24):
                slot = datetime.combine(day, time(hour), tz)
                if lo < slot + timedelta(hours=1) and hi > slot:
                    held.add(hour)
    return held


def _repeats_on(rec: dict[str, Any], first: date, day: date) -> bool:
    """Whether a series starting on ``first`` may have an occurrence on ``day`` (before its until date)."""
    until = rec.get("recurrence_until")
    if day < first or (until and day > date.fromisoformat(str(until))):
        return False
    rule = rec["recurrence"]
    if rule == "weekly":
        return day.weekday() == first.weekday()
    if rule == "weekdays":
        return day.weekday() < 5
    if rule == "monthly":
        return day.day == first.day
    return True
