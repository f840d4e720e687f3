"""The calendar's part of the default company: five weeks of meetings around ``now``, and the meeting rooms.

Northwind Traders' calendar holds meetings for Alex and for everyone else.

Weeks are counted from the Monday of ``now``'s week: week -2 and -1 are past,
week 0 is the current one, weeks 1 and 2 are ahead; the leadership offsite (week 6)
and three repeating series reach further out. Every event lists its organizer among
the attendees with the answer "accepted". An event held in one of the offices' meeting
rooms (the drive's "Meeting rooms.csv") books it: the room is the event's ``room`` and
its last attendee. Facts shared with mail and drive: ``tools.companies.default.facts``.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any

from tools.companies.default.facts import (
    ATLAS_CUTOVER,
    ATLAS_GO_NO_GO,
    BOARD_MEETING,
    CONTOSO_CONTRACT,
    INVOICE,
    INVOICE_AMOUNT,
    INVOICE_PO,
    INVOICE_VENDOR,
    MARKETING_OVERRUN,
    OFFSITE_BOOKING,
    OFFSITE_VENUE,
)

__all__ = ["build"]

#: The offices' meeting rooms: (id, name, office, floor, capacity, features, notes); as in "Meeting rooms.csv".
_ROOMS: list[tuple[str, str, str, int, int, list[str], str]] = [
    ("room_main_hall", "Main Hall", "New York", 2, 60, ["video conferencing", "stage", "projector", "microphones"],
     "All-hands and large events"),
    ("room_2a", "Room 2A", "New York", 2, 6, ["video conferencing", "whiteboard"], "Interviews and 1:1s"),
    ("room_3c", "Room 3C", "New York", 3, 8, ["video conferencing", "whiteboard", "display"], ""),
    ("room_4b", "Room 4B", "New York", 4, 10, ["video conferencing", "whiteboard", "display"],
     "Interviews have priority"),
    ("room_harbor", "Harbor Room", "New York", 4, 10, ["video conferencing", "display", "coffee service"],
     "Customer meetings"),
    ("room_studio_b", "Studio B", "New York", 4, 6, ["lighting", "camera"], "Photo and video studio"),
    ("room_hudson", "Hudson Room", "New York", 12, 12, ["video conferencing", "display", "whiteboard"],
     "Exec staff meetings; book through Amelia Ward"),
    ("room_boardroom", "Boardroom", "New York", 12, 16, ["video conferencing", "display", "speakerphone"],
     "Board meetings and auditors; book through Amelia Ward"),
    ("room_lakeview", "Lakeview", "Chicago", 11, 10, ["video conferencing", "display"], ""),
    ("room_wacker", "Wacker", "Chicago", 11, 4, ["video conferencing"], ""),
    ("room_golden_gate", "Golden Gate", "San Francisco", 3, 8, ["video conferencing", "whiteboard"], ""),
    ("room_presidio", "Presidio", "San Francisco", 3, 4, ["whiteboard"], ""),
]  # fmt: skip

_EXECS = ["dana.whitfield", "marcus.reed", "elena.petrova", "james.okafor", "zoe.adams", "nora.patel"]
_EXECS += ["victor.alvarez", "isaac.king", "olivia.baker"]


class _Book:
    """Collects events with sequential ids and plausible answers."""

    def __init__(self, people: dict[str, dict[str, Any]], now: datetime, user: str) -> None:
        self.people = people
        self.now = now
        self.user = user
        self.tz = now.tzinfo
        self.monday = now.date() - timedelta(days=now.weekday())
        self.rng = random.Random(20260309)
        self.events: dict[str, dict[str, Any]] = {}

    def day(self, week: int, weekday: int) -> date:
        return self.monday + timedelta(weeks=week, days=weekday)

    def email(self, who: str) -> str:
        if who == "me":
            return self.user
        if "@" in who:
            return who
        return str(self.people[who]["email"])

    def answer(self, past: bool) -> str:
        roll = self.rng.random()
        if past:
            return "accepted" if roll < 0.85 else "tentative" if roll < 0.9 else "declined"
        if roll < 0.55:
            return "accepted"
        return "needsAction" if roll < 0.85 else "tentative" if roll < 0.95 else "declined"

    def add(
        self,
        title: str,
        week: int,
        weekday: int,
        at: str,
        minutes: int,
        organizer: str,
        guests: list[str],
        location: str = "",
        description: str = "",
        me: str = "accepted",
        my_comment: str = "",
        end_at: tuple[int, int, str] | None = None,
        **repeat: Any,
    ) -> None:
        hh, mm = (int(x) for x in at.split(":"))
        start = datetime.combine(self.day(week, weekday), time(hh, mm), tzinfo=self.tz)
        if end_at is None:
            end = start + timedelta(minutes=minutes)
        else:
            ew, ed, et = end_at
            eh, em = (int(x) for x in et.split(":"))
            end = datetime.combine(self.day(ew, ed), time(eh, em), tzinfo=self.tz)
        org = self.email(organizer)
        attendees = [{"email": org, "response": "accepted", "comment": ""}]
        for g in guests:
            email = self.email(g)
            if email == org or any(a["email"] == email for a in attendees):
                continue
            if email == self.user:
                attendees.append({"email": email, "response": me, "comment": my_comment})
            else:
                attendees.append({"email": email, "response": self.answer(end <= self.now), "comment": ""})
        eid = f"evt_{len(self.events) + 1:03d}"
        self.events[eid] = {
            "id": eid,
            "title": title,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "location": location,
            "description": description,
            "organizer": org,
            "attendees": attendees,
            **repeat,
        }


# The tables below are laid out by hand, one event per call.
# fmt: off
def _alex_recurring(b: _Book) -> None:
    for week in range(-2, 3):
        b.add("Dana / Alex 1:1", week, 0, "10:00", 30, "dana.whitfield", ["me"], "Dana's office",
              "Weekly catch-up: priorities, board follow-ups, open decisions.")
        b.add("Exec staff meeting", week, 1, "14:00", 60, "dana.whitfield", [*_EXECS, "me"], "Hudson Room",
              "Standing agenda: metrics, Atlas migration, hiring, customer escalations. "
              "Notes go in Shared > Leadership meetings in the drive.")
        b.add("Atlas migration status", week, 2, "15:00", 45, "elena.petrova",
              ["liam.chen", "ethan.brooks", "mia.thompson", "me"], "Room 4B",
              "Weekly status of the Atlas data-center migration: cutover plan, risks, budget burn.")
        if week % 2 == 0:
            b.add("Nora / Alex 1:1", week, 2, "13:00", 30, "nora.patel", ["me"], "Room 2A",
                  "Every other week: hiring pipeline, offsite people topics.")
        if week < 2:  # Thursday and Friday of week 2 are kept clear for offsite preparation
            b.add("Ops sync", week, 3, "11:00", 30, "me", ["victor.alvarez", "ruby.walker", "leo.hall"], "Room 4B",
                  "Facilities, IT and procurement items needing a decision from the exec office.")
            b.add("Alex / Amelia weekly planning", week, 4, "09:30", 30, "me", ["amelia.ward"], "Alex's office",
                  "Next week's calendar for Dana, travel, and the offsite run of show.")


def _alex_past(b: _Book) -> None:
    b.add("Q1 budget review: kickoff", -2, 1, "13:00", 60, "marcus.reed", ["priya.shah", "grace.kim", "me"],
          "Room 4B", "Timeline for the Q1 budget review. Department submissions due March 4.")
    b.add("Interview: Nina Kowalski (Operations Analyst)", -2, 1, "11:00", 45, "samuel.green",
          ["me", "victor.alvarez"], "Room 2A",
          "First round for REQ-1046. Resume and scorecard are in the recruiting system.")
    b.add("IT laptop refresh", -2, 1, "16:00", 30, "leo.hall", ["me"], "IT desk, 3rd floor",
          "This spring's laptop refresh: the models to choose from and the pickup plan.")
    b.add("Contoso renewal: pricing prep", -2, 2, "10:00", 60, "james.okafor",
          ["isabella.rossi", "marcus.reed", "me"], "Room 3C",
          f"Agree our floor price before the renewal call. Current contract {CONTOSO_CONTRACT} ends March 31.")
    b.add("Northwind all-hands (February)", -2, 3, "16:00", 60, "dana.whitfield", list(b.people), "Main Hall and video",
          "Q4 results, Atlas update, welcome to new joiners.")
    b.add("Lunch with Marcus", -2, 4, "12:00", 60, "marcus.reed", ["me"], "Sullivan's Deli, 41st St")
    b.add("Quarterly OKR check-in (February)", -2, 4, "14:00", 60, "me",
          ["elena.petrova", "james.okafor", "zoe.adams", "olivia.baker"], "Hudson Room",
          "Status of each Q1 objective; red items first.")
    b.add("Marketing budget ask", -1, 0, "11:00", 30, "zoe.adams", ["me", "marcus.reed"], "Room 2A",
          f"Zoe's plan to cover the {MARKETING_OVERRUN} Events overspend: move $10,000 from Paid media.")
    b.add("Offsite planning: agenda draft", -1, 0, "14:00", 60, "me", ["amelia.ward", "nora.patel", "ruby.walker"],
          "Room 4B", f"First draft of the leadership offsite agenda; {OFFSITE_VENUE} is booked.")
    b.add("Contoso renewal call", -1, 1, "10:00", 45, "isabella.rossi",
          ["james.okafor", "me", "m.harlow@contoso.example", "p.liang@contoso.example"], "Video call",
          f"Renewal of contract {CONTOSO_CONTRACT}. Contoso asked to keep the price flat for a 3-year term.")
    b.add("Q1 budget review: department submissions", -1, 2, "11:00", 60, "priya.shah",
          ["marcus.reed", "me", "grace.kim", "owen.bell"], "Hudson Room", "Walk through each department's submission.")
    b.add("Interview: Samira Haddad (Chief of Staff Associate)", -1, 3, "14:00", 45, "samuel.green",
          ["me", "nora.patel"], "Room 2A", "Panel interview. Focus: planning and stakeholder management.")
    b.add("Vendor review: Fabrikam invoices", -1, 3, "15:00", 60, "maya.young",
          ["tomas.rivera", "me", "victor.alvarez"], "Room 3C",
          f"Open {INVOICE_VENDOR} invoices: {INVOICE} ({INVOICE_AMOUNT}, due March 15) and INV-20463 ($9,125). "
          f"Check the February shipments against {INVOICE_PO} before Priya approves {INVOICE}.",
          me="declined", my_comment="Board outline prep that afternoon; Victor has my notes.")
    b.add("Board deck outline", -1, 4, "13:00", 30, "me", ["dana.whitfield", "marcus.reed"], "Dana's office",
          f"Outline for the {BOARD_MEETING} board meeting.")
    b.add("Customer QBR: Tailspin Toys", -1, 4, "15:00", 60, "olivia.baker",
          ["ryan.cooper", "me", "r.vance@tailspintoys.example"], "Harbor Room",
          "Quarterly business review. Open issue: late shipments in January.", me="tentative")


def _alex_ahead(b: _Book) -> None:
    b.add("Q1 budget review: final numbers", 0, 0, "11:00", 60, "marcus.reed",
          ["priya.shah", "grace.kim", "owen.bell", "me"], "Hudson Room",
          "Final pass before the board deck. Bring FY26 forecast v3.")
    b.add("Interview debrief: Samira Haddad", 0, 0, "14:00", 30, "samuel.green", ["me", "nora.patel"], "Room 2A",
          "Hire / no hire decision for the Chief of Staff Associate role.")
    b.add("Contoso renewal: legal review", 0, 1, "10:00", 60, "isaac.king",
          ["hannah.wood", "james.okafor", "me"], "Room 4B",
          "Redlines on the CT-2291 renewal: liability cap and data processing terms.", me="needsAction")
    b.add("Vendor access review", 0, 1, "16:00", 30, "kai.nakamura", ["leo.hall", "me"], "Video call",
          "Which vendors still hold accounts on our systems; approve removals.")
    b.add("Offsite logistics check-in", 0, 2, "09:30", 30, "ruby.walker", ["me", "amelia.ward"], "Room 2A",
          f"Coach, rooms and catering for {OFFSITE_VENUE}.")
    b.add("Quarterly OKR check-in (March)", 0, 2, "16:00", 60, "me",
          ["elena.petrova", "james.okafor", "zoe.adams", "olivia.baker"], "Hudson Room",
          "Status of each Q1 objective; red items first.")
    b.add("Interview: Marco Bianchi (Chief of Staff Associate)", 0, 3, "13:00", 60, "samuel.green",
          ["me", "elena.petrova"], "Room 2A", "Final round. Case exercise: plan a leadership offsite on a budget.")
    b.add("Northwind all-hands (March)", 0, 3, "16:00", 60, "dana.whitfield", list(b.people), "Main Hall and video",
          f"Q1 progress, the Atlas cutover ({ATLAS_CUTOVER}), spring launch preview.")
    b.add("Contoso renewal call", 0, 4, "11:00", 60, "isabella.rossi",
          ["james.okafor", "me", "m.harlow@contoso.example", "p.liang@contoso.example"], "Video call",
          f"Follow-up on {CONTOSO_CONTRACT}. Send the revised order form beforehand.")
    b.add("Coffee with Priya", 0, 4, "14:00", 30, "priya.shah", ["me"], "Cafe on 3")
    b.add("Interview: Nina Kowalski (Operations Analyst, final round)", 1, 0, "11:00", 45, "samuel.green",
          ["victor.alvarez", "me"], "Room 2A", "Final round for REQ-1046 with the Head of Operations.")
    b.add("Marketing launch review: spring launch", 1, 0, "15:00", 60, "zoe.adams",
          ["henry.scott", "lily.turner", "me"], "Harbor Room", "Final creative for the April 7 launch.", me="tentative")
    b.add("Atlas migration go/no-go", 1, 1, "10:00", 60, "elena.petrova",
          ["liam.chen", "ethan.brooks", "mia.thompson", "kai.nakamura", "me", "dana.whitfield"], "Hudson Room",
          f"Readiness review for the {ATLAS_CUTOVER} cutover; the final go/no-go call is {ATLAS_GO_NO_GO}. "
          "Fallback plan is in the Atlas runbook.", me="needsAction")
    b.add("Board deck review", 1, 2, "10:00", 90, "dana.whitfield", ["marcus.reed", "me", "isaac.king"],
          "Boardroom (12th floor)", f"Full read-through of the deck for the {BOARD_MEETING} board meeting.")
    b.add("Legal: data processing addendum", 1, 2, "14:00", 30, "isaac.king", ["me", "hannah.wood"], "Room 4B",
          "Sign-off on the new DPA template for customer contracts.")
    b.add("Globex partnership intro", 1, 3, "09:30", 30, "james.okafor", ["me", "k.osei@globex.example"],
          "Video call", "Intro call with Kwame Osei (Globex) about a reseller partnership.", me="needsAction")
    b.add("Tailspin Toys escalation review", 1, 3, "14:00", 60, "olivia.baker",
          ["ryan.cooper", "david.kim", "me"], "Harbor Room",
          "Tailspin threatened to pause orders; agree a recovery plan and credit offer.", me="needsAction")
    b.add("Team lunch: executive office", 1, 4, "12:00", 90, "amelia.ward", ["me", "dana.whitfield"],
          "Hudson Room", "Catered by Sullivan's.")
    b.add("Sales pipeline review", 1, 4, "15:00", 60, "james.okafor",
          ["daniel.wright", "isabella.rossi", "benjamin.clark", "me"], "Room 3C", "Q1 commit and Q2 pipeline.")
    b.add("Offsite dry run", 2, 0, "13:00", 60, "me", ["amelia.ward", "ruby.walker", "nora.patel", "dana.whitfield"],
          "Hudson Room", "Walk through the run of show, sessions and materials.")
    b.add("Hiring plan Q2", 2, 1, "09:00", 30, "nora.patel", ["me", "samuel.green"], "Room 2A",
          "Open roles for Q2 and interview panels.", me="needsAction")
    b.add("Q2 planning: Operations", 2, 1, "15:30", 60, "victor.alvarez",
          ["me", "maya.young", "ruby.walker", "leo.hall"], "Room 4B", "Operations goals and budget for Q2.")
    b.add("Fabrikam contract renewal", 2, 2, "11:00", 60, "maya.young", ["victor.alvarez", "me", "isaac.king"],
          "Room 3C", "Renewal terms for the Fabrikam Logistics freight contract (ends September 30).", me="declined",
          my_comment="Victor decides this one; I'll read the summary.")
    b.add("Leadership offsite", 6, 2, "10:30", 0, "me", [*_EXECS, "amelia.ward"], "Lakeside Lodge, Cold Spring NY",
          "Coach leaves Grand Central at 10:30 on Wednesday and is back about 16:00 on Friday. "
          "Agenda: 2026 strategy, financial plan and Q2 budget, Atlas and the platform roadmap, go-to-market, "
          f"people plan (draft in the drive). Rooms booked under Northwind Traders, confirmation {OFFSITE_BOOKING}.",
          end_at=(6, 4, "16:00"))


def _others(b: _Book) -> None:
    for week in range(0, 3):
        for weekday in (0, 2, 4):
            b.add("Platform team standup", week, weekday, "09:30", 15, "liam.chen",
                  ["sofia.garcia", "noah.williams", "ava.johnson"], "Video call")
        b.add("Elena / Liam 1:1", week, 1, "11:00", 30, "elena.petrova", ["liam.chen"], "Elena's office")
        b.add("Marcus / Priya 1:1", week, 3, "10:00", 30, "marcus.reed", ["priya.shah"], "Marcus's office")
        b.add("Dana / Elena 1:1", week, 0, "15:00", 30, "dana.whitfield", ["elena.petrova"], "Dana's office")
        b.add("James / Isabella 1:1", week, 2, "09:00", 30, "james.okafor", ["isabella.rossi"], "Room 3C")
    for week in range(-2, 3):
        b.add("SRE on-call handoff", week, 0, "12:00", 30, "ethan.brooks",
              ["mia.thompson", "lucas.martin", "chloe.nguyen"], "Video call")
    b.add("Month-end close", -2, 4, "10:00", 120, "priya.shah", ["owen.bell", "grace.kim", "tomas.rivera"], "Room 3C",
          "February close checklist.")
    b.add("Audit prep with Baker & Lowe", 0, 1, "13:00", 120, "marcus.reed",
          ["priya.shah", "owen.bell", "s.baker@bakerlowe.example"], "Boardroom (12th floor)",
          "Year-end audit fieldwork planning.")
    b.add("Priya: dentist", 0, 2, "14:00", 90, "priya.shah", [])
    b.add("Marcus: CFO roundtable lunch", 0, 3, "12:00", 120, "marcus.reed", [], "The Harvard Club")
    b.add("Interview: Rita Okoye (Senior Software Engineer)", 0, 1, "11:00", 60, "samuel.green",
          ["ethan.brooks", "lucas.martin"], "Video call", "REQ-1043, system design.")
    b.add("Interview: Tom Becker (Account Executive)", 0, 2, "13:00", 45, "samuel.green",
          ["james.okafor", "benjamin.clark"], "Room 4B")
    b.add("Contoso onboarding: new warehouse team", 0, 3, "10:00", 60, "ryan.cooper",
          ["emma.foster", "a.diaz@contoso.example"], "Video call")
    b.add("Spring launch photo shoot", 0, 4, "09:00", 180, "jack.hughes", ["henry.scott", "zoe.adams"], "Studio B")
    b.add("Benefits renewal with broker", 0, 4, "10:00", 60, "nora.patel",
          ["ella.moore", "t.reyes@hollisbenefits.example"], "Room 2A",
          "Medical plan renewal; broker quote due March 20.")
    b.add("Legal contract triage", 1, 0, "14:00", 60, "isaac.king", ["hannah.wood"], "Isaac's office")
    b.add("Litware demo", 1, 1, "14:00", 60, "benjamin.clark", ["harper.lewis", "j.moss@litware.example"], "Video call")
    b.add("Office furniture quotes", 1, 2, "15:00", 45, "maya.young", ["ruby.walker"], "Room 3C",
          "Three quotes for the 4th-floor fit-out.")
    b.add("Elena at Cloud Infrastructure Summit", 1, 3, "09:00", 480, "elena.petrova", [], "Javits Center")
    b.add("Month-end close", 2, 4, "10:00", 120, "priya.shah", ["owen.bell", "grace.kim", "tomas.rivera"], "Room 3C",
          "March close checklist.")




def _series(b: _Book) -> None:
    """Repeating events, each one stored record; occurrences are worked out from the rule."""
    b.add("Office hours with Alex", -2, 3, "10:00", 30, "me", [], "Room 3C",
          "Drop in with anything that needs the exec office: approvals, escalations, questions.",
          recurrence="weekly", recurrence_until="2026-04-16")
    b.add("Monthly metrics review", -6, 1, "09:00", 60, "me",
          ["dana.whitfield", "marcus.reed", "elena.petrova", "james.okafor"], "Hudson Room",
          "Company scorecard: bookings, revenue, cash, hiring, customer health. Numbers from Finance by the 25th.",
          recurrence="monthly", recurrence_count=12)
    b.add("Atlas cutover stand-up", 5, 0, "08:45", 15, "liam.chen",
          ["mia.thompson", "sofia.garcia", "ethan.brooks", "elena.petrova", "me"], "Video call",
          f"Daily check during cutover week: blockers, replica lag, go/no-go inputs ({ATLAS_GO_NO_GO}).",
          recurrence="weekdays", recurrence_until="2026-04-17")
# fmt: on


def _book_rooms(b: _Book) -> None:
    """Events held in a meeting room book it: the room becomes ``room`` and the last attendee."""
    for event in b.events.values():
        room = next((r for r in _ROOMS if event["location"].startswith(r[1])), None)
        if room is not None:
            event["room"] = room[0]
            event["attendees"].append(
                {"email": _room_email(room[1]), "response": "accepted", "comment": "", "resource": True}
            )


def _room_email(name: str) -> str:
    return "-".join(name.lower().split()) + "@rooms.northwind.example"


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """Return the calendar's initial state: ``{"events": {id: event}, "rooms": {id: room}}`` as plain JSON values.

    Args:
        people: The directory's people keyed by id, as the directory app stores them.
        now: The frozen current instant; events are laid out around its week.
        user: The acting person's email address ("me" in the tables above).
    """
    book = _Book(people, now, user)
    _alex_recurring(book)
    _alex_past(book)
    _alex_ahead(book)
    _others(book)
    _series(book)
    _book_rooms(book)
    rooms = {
        rid: {"id": rid, "name": name, "email": _room_email(name), "office": office, "floor": floor,
              "capacity": capacity, "features": features, "notes": notes}
        for rid, name, office, floor, capacity, features, notes in _ROOMS
    }  # fmt: skip
    return {"events": book.events, "rooms": rooms}
