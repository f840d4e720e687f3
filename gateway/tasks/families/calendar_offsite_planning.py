"""Plan a team's offsite: the one day everyone is free decides the booking, the agenda mail, the post and the plan.

Long horizon: the reference reads the team from a project channel's members, checks
everyone's free time on three candidate days (the same weekday of the next three weeks), decides the earliest
day they are all free for a 3-hour block, and that one decision picks when the room is booked, what
the agenda mail and the team channel are told and what goes into the SharePoint offsite list: 13 calls over
calendar, slack, gmail and sharepoint. Every outcome is checked, so stopping halfway scores 0.

Scenario shapes (picked by the seed):

- ``first_blocked``: someone on the team is out of office on the first day; the second day is free.
- ``declined_clash``: someone is invited to a meeting over the block on the first day but declined it, so
  the first day is free; the second day someone is travelling.
- ``last_only``: one person is out on the first day and another travelling on the second; only the third
  day is free.

Varies: the project and its team, the weekday, the 3-hour block, the rooms (one too small, one that
fits, one large on another floor), who is away and why, the phrasing (composed). Any room that seats the
team and is free then passes (the company's own rooms too); one too small fails (``room-too-small``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import long_date
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import busy_hours, event, room
from gateway.tasks.kit.workplace import channel, project_names, site, sp_list
from tools.companies import company_state

__all__ = ["FAMILY"]

SHAPES = ("first_blocked", "declined_clash", "last_only")
TREES = ("Birch", "Cedar", "Maple", "Rowan", "Alder", "Hazel", "Linden", "Juniper")
COLUMNS: list[dict[str, Any]] = [
    {"name": "Team", "type": "text", "required": True},
    {"name": "Date", "type": "date"},
    {"name": "Room", "type": "text"},
]


def _in_hours(people: list[dict[str, Any]], start: datetime) -> bool:
    """Whether a 3-hour block from ``start`` falls inside 09:00-17:00 where each of ``people`` works."""
    for p in people:
        local = start.astimezone(ZoneInfo(p.get("timezone") or str(start.tzinfo)))
        if local.hour < 9 or local.hour + 3 > 17 or local.minute:
            return False
    return True


def _free(inst: Instance, person: dict[str, Any], days: list[datetime], hour: int) -> bool:
    """Whether the company's background calendar leaves ``person`` free from ``hour`` for 3 hours on every day."""
    block = {hour, hour + 1, hour + 2}
    return all(not block & busy_hours(inst, [person["email"]], d.date()) for d in days)


def _plan_days(inst: Instance, size: int) -> tuple[list[dict[str, Any]], list[datetime], int]:
    """``size`` colleagues, three candidate days (one weekday, three weeks running) and the hour a 3-hour block starts.

    The block is free for them and the user on all three days in the company's background calendar, and
    inside everyone's own working hours (so a free/busy search agrees).
    """
    options = [(weekday, hour) for weekday in range(5) for hour in range(9, 15)]
    inst.rng.shuffle(options)
    people = sorted((p for p in inst.company.people.values() if p["email"] != inst.company.user), key=lambda p: p["id"])
    for weekday, hour in options:
        first = inst.day(7 + (weekday - inst.now.weekday()) % 7, hour)
        days = [first + timedelta(weeks=k) for k in range(3)]
        if not (_in_hours([inst.user], first) and _free(inst, inst.user, days, hour)):
            continue
        team: list[dict[str, Any]] = []
        for p in inst.rng.sample(people, len(people)):
            if _in_hours([p], first) and _free(inst, p, days, hour):
                team.append(p)
            if len(team) == size:
                return team, days, hour
    raise ValueError(f"{inst.company.key}: no {size} colleagues free for a 3-hour block")


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    team, days, hour = _plan_days(inst, inst.rng.randint(3, 4))
    lead = team[0]
    emails = [p["email"] for p in team]
    (project,) = project_names(inst, 1)
    slug = project.lower()
    starts = [d.replace(hour=hour) for d in days]
    away, other = inst.rng.sample(team, 2)

    def out(person: dict[str, Any], day: datetime, title: str) -> None:
        event(inst, title=title, start=day.replace(hour=8), end=day.replace(hour=18), organizer=person["email"])

    if shape == "first_blocked":
        out(away, days[0], "Out of office")
        pick = 1
    elif shape == "declined_clash":
        host = inst.person(exclude=[*emails])
        event(inst, title="Vendor demo", start=starts[0], end=starts[0] + timedelta(hours=1), organizer=host["email"],
              attendees=[away["email"]], responses={away["email"]: "declined"})  # fmt: skip
        out(other, days[1], f"Travel: customer visit in {inst.pick(('Denver', 'Austin', 'Toronto', 'Lisbon'))}")
        pick = 0
    else:
        out(away, days[0], "Out of office")
        out(other, days[1], "Travel: conference")
        pick = 2
    day, start = days[pick], starts[pick]
    end = start + timedelta(hours=3)
    size = len(team) + 1
    t1, t2, t3 = inst.rng.sample(TREES, 3)
    floor = inst.rng.randint(2, 5)
    room(inst, f"{t1} {floor}A", size - 1, floor, ["whiteboard"])  # too small for the team
    fits = room(inst, f"{t2} {floor}B", size + 2, floor, ["video", "whiteboard"])
    big = room(inst, f"{t3} {floor + 1}C", 20, floor + 1, ["video"])
    # "a room big enough": any room that seats the team will do, the company's own rooms too (the calendar
    # refuses a room that is taken or too small for the guests, so the booking itself shows it was free)
    seats = [fits["id"], big["id"], *sorted(r["id"] for r in company_state(inst.company.key, "calendar")
                                             .get("rooms", {}).values() if r.get("capacity", 0) >= size)]  # fmt: skip
    chan = channel(inst, f"proj-{slug}", [lead["email"], me, *emails[1:]], topic=f"Project {project} core team")
    hub = site(inst, "Team events", [(lead["email"], "edit"), (me, "full_control")])
    offsites = sp_list(inst, hub, "Offsites", COLUMNS)
    said = [f"{d:%A} {long_date(d.date())}" for d in days]
    who = inst.pick((lead["name"], inst.first(lead)))
    block = f"{hour % 12 or 12}{'am' if hour < 12 else 'pm'}-{(hour + 3) % 12 or 12}{'am' if hour + 3 < 12 else 'pm'}"
    instruction = compose(
        inst,
        [
            (
                f"find the earliest of {said[0]}, {said[1]} and {said[2]} when everyone in #proj-{slug} is free"
                f" {block}",
                f"check which of the next three {days[0]:%A}s ({', '.join(said)}) is the first one where the whole"
                f" #proj-{slug} team is free for {block}",
            ),
            (
                "book that block with the team in a room that seats all of you",
                "put the offsite on the calendar for that block with the whole team and a room big enough",
            ),
            ("email the team the agenda with the date", "mail everyone on the team the date and a short agenda"),
            (f"post the date in #proj-{slug}", f"let #proj-{slug} know which day it is"),
            (
                "add it to the Offsites list on the Team events site in SharePoint (team, date, room)",
                "file the plan as an item in SharePoint's Offsites list (Team events site)",
            ),
        ],
        (f"{who} wants a half-day offsite for the {project} team", f"the {project} team is overdue for an offsite",
         ""),
        by=str(lead["name"]),
    )
    dates = [[s, long_date(d.date()), f"{d.day} {d:%B}"] for s, d in zip(said, days, strict=True)]
    claim = {"kind": "choice", "value": said[pick], "candidates": dates}
    wrong = (pick + 1) % 3 if shape != "last_only" else 0
    team_name = f"Project {project}"

    def plan(k: int, *, upto: int = 4, typed: bool = False) -> list[dict[str, Any]]:
        at = starts[k]
        chosen = fits
        booking = {"location": fits["name"]} if typed else {"room": fits["name"]}
        text = f"Offsite for {team_name}: {said[k]}, {block}, in {chosen['name']}."
        steps: list[dict[str, Any]] = [
            {"tool": "calendar.create_event", "args": {"title": "Team offsite", "start": at.isoformat(),
             "end": (at + timedelta(hours=3)).isoformat(), "attendees": emails, **booking}},
            {"tool": "gmail.send_message", "args": {"to": emails, "subject": "Team offsite",
             "body": f"{text}\n\nAgenda: review of the quarter, plans for the next one, team lunch."}},
            {"tool": "slack.post_message", "args": {"channel": f"#proj-{slug}", "text": text}},
            {"tool": "sharepoint.create_item", "args": {"site": "Team events", "list_name": "Offsites", "fields": [
             f"Team={team_name}", f"Date={days[k].date().isoformat()}", f"Room={chosen['name']}"]}},
        ]  # fmt: skip
        return steps[:upto]

    reads = [
        {"tool": "slack.get_channel", "args": {"channel": f"#proj-{slug}"}},
        {"tool": "slack.list_members", "args": {"channel": f"#proj-{slug}"}},
        *(
            {"tool": "calendar.find_free_slots", "args": {"people": emails, "duration_minutes": 180,
             "start": d.replace(hour=0).isoformat(), "end": (d + timedelta(days=1)).replace(hour=0).isoformat()}}
            for d in days
        ),  # fmt: skip
        {"tool": "calendar.find_available_rooms",
         "args": {"start": start.isoformat(), "end": end.isoformat(), "min_capacity": size}},
        {"tool": "sharepoint.get_list", "args": {"site": "Team events", "list_name": "Offsites"}},
    ]  # fmt: skip
    done = {"tool": "complete_task", "args": {"summary": f"Offsite set for {said[pick]}."}}
    invited = [
        {"name": f"invited_{n}", "kind": "record", "app": "calendar", "collection": "events", "new": True,
         "where": {"organizer": me, "start": {"instant": start.isoformat()}, "attendees": {"any": {"email": e}}}}
        for n, e in enumerate(emails)
    ]  # fmt: skip
    return {
        "instruction": instruction,
        "checks": [
            {"name": "offsite_booked", "kind": "record", "app": "calendar", "collection": "events", "new": True,
             "count": 1, "where": {"organizer": me, "start": {"instant": start.isoformat()},
                                   "end": {"instant": end.isoformat()}, "room": {"in": seats}}},
            *invited,
            {"name": "agenda_mailed", "kind": "record", "app": "gmail", "collection": "messages", "new": True,
             "count": 1, "where": {"sender": me, "to": {"includes": emails}, "body": {"claims": claim}}},
            {"name": "channel_told", "kind": "record", "app": "slack", "collection": "messages", "new": True,
             "count": 1, "where": {"channel_id": chan["id"], "user": me, "text": {"claims": claim}}},
            {"name": "plan_filed", "kind": "record", "app": "sharepoint", "collection": "items", "new": True,
             "count": 1, "where": {"list_id": offsites["id"], "values.Date": day.date().isoformat()}},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "calendar", "collection": "events", "kinds": ["add"], "where": {"organizer": me},
             "values": {"attendees": {"len": len(emails) + 2}}},
            {"app": "gmail", "collection": "messages", "kinds": ["add"], "where": {"sender": me},
             "values": {"to": {"set_eq": emails}}},
            {"app": "slack", "collection": "messages", "kinds": ["add"],
             "where": {"channel_id": chan["id"], "user": me}},
            {"app": "sharepoint", "collection": "items", "kinds": ["add"], "where": {"list_id": offsites["id"]}},
        ],  # fmt: skip
        "solution": [*reads, *plan(pick), done],
        "negative_controls": [
            {"name": "wrong-day", "why": f"plans {said[wrong]}, when someone is away (or not the earliest free day)",
             "steps": [*plan(wrong), done]},
            {"name": "stops-halfway", "why": "books the room and mails the agenda, then stops",
             "steps": [*plan(pick, upto=2), done]},
            {"name": "not-filed", "why": "does everything but file the plan in SharePoint",
             "steps": [*plan(pick, upto=3), done]},
            {"name": "room-not-booked", "why": f"types {fits['name']} into the location without booking it",
             "steps": [*plan(pick, typed=True), done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="calendar-offsite-planning",
    apps=("calendar", "slack", "gmail", "sharepoint"),
    summary="pick the first day a whole team is free for an offsite, then book, mail, post and file the plan",
    build=_build,
    decision=True,
    kind="long_horizon",
)
