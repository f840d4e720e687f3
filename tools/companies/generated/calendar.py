"""The calendar of a generated company: rooms in every office, 1:1s, team meetings and one-off meetings.

``build(company, rng)`` returns the calendar state as JSON values: two to four rooms per office; weekly
1:1s of the user with their manager and reports, and of other managers with some of theirs; a weekly
meeting per department and a monthly all-hands; one-off meetings over the past three weeks and the
next three (30-150 events in all). Each event starts in working hours of its organizer's zone and,
when one exists, at an hour that is working time for every attendee. One-off meetings in an office
book one of its rooms without double-booking it. Ids start with ``bg_``.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tools.companies.base import Company
from tools.companies.generated.everyday import Life, slug

__all__ = ["build"]

_ROOM_NAMES = ("Atrium", "Boardroom", "Library", "Studio", "Garden Room", "Focus Room", "Lookout", "Commons")
_FEATURES = (["video", "whiteboard"], ["video", "display"], ["whiteboard"], ["video", "display", "whiteboard"])
_ONE_OFF = (
    "{topic} review",
    "{topic} planning",
    "{topic} kickoff",
    "Catch-up on {topic}",
    "{topic} decisions",
    "{topic} working session",
)


def build(company: Company, rng: random.Random) -> dict[str, Any]:
    """The company calendar: ``{"events": {id: event}, "rooms": {id: room}}`` as JSON values.

    Args:
        company: A generated company (people, offices, clock, user).
        rng: The app's random source.
    """
    life = Life(company, rng)
    book = _Book(life)
    offices = sorted({str(p["location"]) for p in life.people})
    for office in offices:
        zone = next(str(p["timezone"]) for p in life.people if p["location"] == office)
        for n, name in enumerate(rng.sample(_ROOM_NAMES, rng.randint(2, 4)), start=1):
            rid = f"bg_room_{slug(office)}_{n}"
            book.rooms[rid] = {
                "id": rid,
                "name": f"{office} {name}",
                "email": f"{slug(office)}-{slug(name)}@rooms.{company.domain}",
                "office": office,
                "floor": rng.randint(1, 6),
                "capacity": rng.choice((4, 6, 8, 12, 20)),
                "features": list(rng.choice(_FEATURES)),
                "notes": "",
                "_zone": zone,
            }
    _recurring(life, book)
    _one_offs(life, book)
    for room in book.rooms.values():
        room.pop("_zone")
    return {"events": book.events, "rooms": book.rooms}


class _Book:
    """Collects events with ``bg_evt_`` ids, and the hours each room is booked."""

    def __init__(self, life: Life) -> None:
        self.life = life
        self.events: dict[str, dict[str, Any]] = {}
        self.rooms: dict[str, dict[str, Any]] = {}
        self.booked: dict[str, list[tuple[datetime, datetime]]] = {}
        #: email -> the spans the person is already in a meeting (weekly series over the weeks around now)
        self.busy: dict[str, dict[date, list[tuple[datetime, datetime]]]] = {}

    def occurrences(self, start: datetime, minutes: int, weekly: bool) -> list[tuple[datetime, datetime]]:
        """The spans an event takes: one, or a weekly series' from four weeks before now to 13 weeks after."""
        first, last = self.life.now - timedelta(weeks=4), self.life.now + timedelta(weeks=13)
        weeks = range(60) if weekly else range(1)
        starts = [
            start + timedelta(weeks=k) for k in weeks if first <= start + timedelta(weeks=k) <= last or not weekly
        ]
        return [(s, s + timedelta(minutes=minutes)) for s in starts]

    def free(self, people: list[dict[str, Any]], spans: list[tuple[datetime, datetime]]) -> bool:
        """Whether none of ``people`` is in a meeting during any of ``spans``."""
        for p in people:
            busy = self.busy.get(str(p["email"]))
            if not busy:
                continue
            for s, e in spans:
                for key in sorted({_utc_day(s), _utc_day(e)}):  # a set of dates iterates in hash order
                    if any(s < e2 and s2 < e for s2, e2 in busy.get(key, ())):
                        return False
        return True

    def hour_for(
        self,
        organizer: dict[str, Any],
        people: list[dict[str, Any]],
        day: date,
        minutes: int,
        *,
        weekly: bool = False,
        strict: bool = True,
    ) -> datetime | None:
        """A start on ``day`` in the organizer's zone when everyone is free and in working hours (09:00-17:00).

        Without a time that suits everyone: None when ``strict`` (the meeting does not happen), else a
        time in the organizer's hours, free for them when it can be.
        """
        rng = self.life.rng
        everyone = [organizer, *people]
        starts = [self.life.at(organizer, day, h, m) for h in range(9, 17) for m in (0, 30)]
        starts = [s for s in starts if (s + timedelta(minutes=minutes)).time() <= time(17, 0)]
        fits = [s for s in starts if all(9 <= s.astimezone(_zone(p)).hour < 17 for p in everyone)]
        open_ = [s for s in fits if self.free(everyone, self.occurrences(s, minutes, weekly))]
        if open_:
            return rng.choice(open_)
        if strict:
            return None
        mine = [s for s in starts if self.free([organizer], self.occurrences(s, minutes, weekly))]
        return rng.choice(mine or starts)

    def add(
        self,
        title: str,
        organizer: dict[str, Any],
        guests: list[dict[str, Any]],
        start: datetime,
        minutes: int,
        location: str,
        description: str = "",
        **repeat: Any,
    ) -> dict[str, Any]:
        """An event; answers are drawn (the organizer accepts); a past one was mostly accepted."""
        rng, now = self.life.rng, self.life.now
        end = start + timedelta(minutes=minutes)
        attendees = [{"email": organizer["email"], "response": "accepted", "comment": ""}]
        for g in guests:
            if any(a["email"] == g["email"] for a in attendees):
                continue
            roll = rng.random()
            if end <= now or repeat:
                answer = "accepted" if roll < 0.85 else "tentative" if roll < 0.92 else "declined"
            else:
                answer = "accepted" if roll < 0.55 else "needsAction" if roll < 0.85 else "tentative"
            attendees.append({"email": g["email"], "response": answer, "comment": ""})
        for span in self.occurrences(start, minutes, repeat.get("recurrence") == "weekly"):
            for a in attendees:
                days = self.busy.setdefault(str(a["email"]), {})
                for key in sorted({_utc_day(span[0]), _utc_day(span[1])}):
                    days.setdefault(key, []).append(span)
        eid = f"bg_evt_{len(self.events) + 1:03d}"
        event = {
            "id": eid,
            "title": title,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "location": location,
            "description": description,
            "organizer": organizer["email"],
            "attendees": attendees,
            "time_zone": str(organizer["timezone"]),
            **repeat,
        }
        self.events[eid] = event
        return event

    def book_room(self, event: dict[str, Any], office: str, start: datetime, minutes: int, size: int) -> None:
        """Book a free room of ``office`` big enough for ``size`` people, when there is one."""
        end = start + timedelta(minutes=minutes)
        for rid, room in self.rooms.items():
            taken = self.booked.setdefault(rid, [])
            if room["office"] != office or room["capacity"] < size or any(s < end and start < e for s, e in taken):
                continue
            taken.append((start, end))
            event["room"] = rid
            event["location"] = room["name"]
            event["attendees"].append({"email": room["email"], "response": "accepted", "comment": "", "resource": True})
            return


def _utc_day(moment: datetime) -> date:
    return moment.astimezone(ZoneInfo("UTC")).date()


def _zone(person: dict[str, Any]) -> ZoneInfo:
    return ZoneInfo(str(person["timezone"]))


def _series_start(life: Life, weeks_back: int, weekday: int) -> date:
    monday = life.now.date() - timedelta(days=life.now.weekday())
    return monday - timedelta(weeks=weeks_back) + timedelta(days=weekday)


def _recurring(life: Life, book: _Book) -> None:
    rng, me = life.rng, life.user
    until = (life.now + timedelta(weeks=12)).date().isoformat()
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    boss = life.manager_of(me)
    if boss is not None:
        pairs.append((boss, me))
    pairs += [(me, r) for r in life.reports_of(me)]
    managers = [p for p in life.others() if life.reports_of(p) and p is not boss]
    for m in rng.sample(managers, min(len(managers), 4 + life.size // 12)):
        reports = life.reports_of(m)
        pairs += [(m, r) for r in rng.sample(reports, min(len(reports), 2))]
    for organizer, other in pairs:
        day = _series_start(life, rng.randint(4, 20), rng.randint(0, 4))
        start = book.hour_for(organizer, [other], day, 30, weekly=True)
        if start is None:
            continue
        book.add(
            f"{life.first(organizer)} / {life.first(other)} 1:1",
            organizer,
            [other],
            start,
            30,
            "Video call",
            "Weekly check-in.",
            recurrence="weekly",
            recurrence_until=until,
        )
    for department, members in life.departments.items():
        if department == "Executive" or len(members) < 2:
            continue
        head = life.head_of(department)
        day = _series_start(life, rng.randint(6, 26), rng.randint(0, 4))
        minutes = rng.choice((30, 45, 60))
        start = book.hour_for(head, members, day, minutes, weekly=True, strict=False)
        assert start is not None
        book.add(
            f"{department} weekly",
            head,
            members,
            start,
            minutes,
            "Video call",
            f"Team updates and plans for {department}.",
            recurrence="weekly",
        )
    ceo = next(p for p in life.people if not p.get("manager"))
    day = _series_start(life, rng.randint(8, 30), 3)
    book.add(
        f"{life.company.name} all-hands",
        ceo,
        life.people,
        book.hour_for(ceo, [], day, 60, strict=False) or life.at(ceo, day, 11, 0),
        60,
        "Video call",
        "Company news, numbers and questions.",
        recurrence="monthly",
        recurrence_count=24,
    )


def _one_offs(life: Life, book: _Book) -> None:
    rng = life.rng
    today = life.now.date()
    days = [today + timedelta(days=k) for k in range(-21, 22) if (today + timedelta(days=k)).weekday() < 5]
    target, made = 14 + life.size // 2, 0
    for _ in range(3 * target):
        if made == target:
            break
        department = rng.choice(sorted(life.departments))
        organizer = life.colleague(department) if rng.random() < 0.75 else life.user
        near = [p for p in life.others() if p["timezone"] == organizer["timezone"] and p is not organizer]
        team = [p for p in near if p["department"] == department] or near
        guests = [
            rng.choice(team) if team and rng.random() < 0.8 else life.colleague(department, (str(organizer["email"]),))
            for _ in range(rng.randint(1, 5))
        ]
        if organizer is not life.user and rng.random() < 0.35:
            guests.append(life.user)
        guests = list({str(g["email"]): g for g in guests}.values())
        minutes = rng.choice((30, 30, 45, 60, 60, 90))
        start = book.hour_for(organizer, guests, rng.choice(days), minutes)
        if start is None:
            continue
        made += 1
        title = rng.choice(_ONE_OFF).format(topic=life.topic(department))
        event = book.add(title[0].upper() + title[1:], organizer, guests, start, minutes, "Video call")
        office = str(organizer["location"])
        if all(g["location"] == office for g in guests) and rng.random() < 0.8:
            book.book_room(event, office, start, minutes, len(guests) + 1)
