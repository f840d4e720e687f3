"""Start the renewal of the supplier contract that expires next, through Box, SharePoint and three more apps.

Long horizon: the reference reads the contracts in Box (their expiry dates are in their names) and the
SharePoint vendor register (each supplier's internal owner and renewal status), decides which contract
renews next, and that one decision picks the file copied into the Renewals folder, who is invited to that
folder, which register item is marked, who is mailed and invited to the review, and what the procurement
channel is told: 12 calls over box, sharepoint, directory, gmail, calendar and slack. Every outcome is
checked, so stopping halfway scores 0.

Scenario shapes (picked by the seed):

- ``soonest``: the contract with the nearest future expiry renews next.
- ``already_renewed``: the nearest one is marked "Renewed" in the register; the next one renews.
- ``lapsed``: one contract has already expired (a past date); the nearest future one renews.

Varies: the suppliers, expiry dates, owners, the review's day and time, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import box_file, box_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import event
from gateway.tasks.kit.workplace import channel, list_item, site, sp_list

__all__ = ["FAMILY"]

SUPPLIERS = ("Fabrikam Logistics", "Contoso Supplies", "Tailspin Print", "Litware Cloud", "Adatum Facilities",
             "Proseware Office", "Coho Freight", "Wingtip Furniture")  # fmt: skip
COLUMNS: list[dict[str, Any]] = [
    {"name": "Supplier", "type": "text", "required": True},
    {"name": "Owner", "type": "person"},
    {"name": "Status", "type": "choice", "choices": ["Active", "Renewed", "Renewal started"]},
]
SHAPES = ("soonest", "already_renewed", "lapsed")


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    names = inst.rng.sample(SUPPLIERS, 4)
    owners = inst.people(4)
    days = sorted(inst.rng.sample(range(20, 160), 4))
    if shape == "lapsed":
        days[0] = -inst.rng.randint(10, 60)
    expiry = {n: (inst.now + timedelta(days=d)).date() for n, d in zip(names, days, strict=True)}
    win = names[1] if shape in ("already_renewed", "lapsed") else names[0]
    trap = names[0] if win != names[0] else names[1]
    owner_of = dict(zip(names, owners, strict=True))
    status = dict.fromkeys(names, "Active")
    if shape == "already_renewed":
        status[names[0]] = "Renewed"
    contracts_dir = box_folder(inst, "Supplier contracts")
    renewals = box_folder(inst, "Renewals")
    files: dict[str, dict[str, Any]] = {}
    for n in sorted(names, key=lambda _: inst.rng.random()):
        spec = {"kind": "pdf", "title": f"{n} master services agreement",
                "lines": [f"Master services agreement: {n}", f"Expires: {expiry[n].isoformat()}"]}  # fmt: skip
        files[n] = box_file(inst, f"MSA {n} (expires {expiry[n].isoformat()}).pdf", contracts_dir["id"],
                            [(spec, inst.day(-inst.rng.randint(200, 400), 10), owner_of[n]["email"])])  # fmt: skip
    home = site(inst, "Procurement", [(owners[0]["email"], "full_control"), (me, "edit")])
    register = sp_list(inst, home, "Vendor register", COLUMNS)
    items = {}
    for n in sorted(names, key=lambda _: inst.rng.random()):
        values = {"Supplier": n, "Owner": owner_of[n]["email"], "Status": status[n]}
        items[n] = list_item(inst, register, values, owners[0]["email"], inst.rng.randint(5, 40))
    chan = channel(inst, "procurement", [me, *(o["email"] for o in owners)])
    review = inst.workday(inst.rng.randint(2, 6), inst.rng.randint(10, 16), inst.pick((0, 30)))
    weekly = review - timedelta(days=1)
    event(inst, title="Procurement weekly", start=weekly, end=weekly + timedelta(minutes=30),
          organizer=owners[0]["email"], attendees=[me], responses={me: "accepted"})  # fmt: skip
    when = f"{review:%A %B} {review.day} at {review:%-I:%M %p}".replace(":00 ", " ")
    instruction = compose(
        inst,
        [
            (
                "work out which supplier contract in Box renews next (still active, nearest expiry ahead)",
                "find the next contract up for renewal in Box: the nearest future expiry that isn't renewed yet",
            ),
            ("copy it into the Renewals folder", "put a copy of that contract in Box's Renewals folder"),
            (
                "invite its owner from the vendor register to the Renewals folder as an editor",
                "give the supplier's owner (see the vendor register) editor access to Renewals",
            ),
            ("set its register status to Renewal started", "mark it Renewal started in the vendor register"),
            ("mail the owner which supplier is up", "email the owner to say which contract we're renewing"),
            (
                f"book a 30-minute renewal review with the owner on {when}",
                f"set up a 30-minute review for {when} with that owner",
            ),
            ("post the supplier's name in #procurement", "tell #procurement which supplier is up for renewal"),
        ],  # fmt: skip
        ("procurement wants renewals started early this year", "our supplier contracts are coming up", ""),
        by=owners[0]["name"],
    )
    choice = {"kind": "choice", "value": win, "candidates": [[s, s.split()[0]] for s in SUPPLIERS]}
    end = review + timedelta(minutes=30)

    def plan(n: str, *, who: str = "", upto: int = 7) -> list[Any]:
        owner = who or owner_of[n]["email"]
        steps: list[dict[str, Any]] = [
            {"tool": "box.copy_item", "args": {"item_id": files[n]["id"], "folder_id": renewals["id"]}},
            {"tool": "box.invite_collaborator",
             "args": {"folder_id": renewals["id"], "email": owner, "role": "editor"}},
            {"tool": "sharepoint.update_item",
             "args": {"item_id": items[n]["id"], "fields": ["Status=Renewal started"]}},
            {"tool": "gmail.send_message", "args": {"to": [owner], "subject": "Contract renewal",
             "body": f"We're starting the renewal of the {n} contract; it expires {expiry[n].isoformat()}."}},
            {"tool": "calendar.create_event", "args": {"title": f"Renewal review: {n}", "start": review.isoformat(),
             "end": end.isoformat(), "attendees": [owner]}},
            {"tool": "slack.post_message", "args": {"channel": "#procurement", "text": f"Next renewal: {n}."}},
        ]  # fmt: skip
        return steps[:upto]

    owner = owner_of[win]
    done = {"tool": "complete_task", "args": {"summary": f"Started the {win} renewal."}}
    reads = [
        {"tool": "box.search", "args": {"query": "MSA", "item_type": "file"}},
        {"tool": "box.list_folder", "args": {"folder_id": contracts_dir["id"]}},
        {"tool": "sharepoint.query_items", "args": {"site": "Procurement", "list_name": "Vendor register"}},
        {"tool": "box.search", "args": {"query": "Renewals", "item_type": "folder"}},
        {"tool": "directory.get_person", "args": {"person": owner["email"]}},
    ]
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "contract_copied",
                "kind": "record",
                "app": "box",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {
                    "parent_id": renewals["id"],
                    "blob": {"same_bytes_as": {"app": "box", "collection": "files", "id": files[win]["id"]}},
                },
            },
            {
                "name": "owner_invited",
                "kind": "record",
                "app": "box",
                "collection": "collaborations",
                "new": True,
                "count": 1,
                "where": {"folder_id": renewals["id"], "email": owner["email"], "role": "editor"},
            },
            {
                "name": "register_marked",
                "kind": "record",
                "app": "sharepoint",
                "collection": "items",
                "where": {"id": items[win]["id"], "values.Status": "Renewal started"},
            },
            {
                "name": "owner_mailed",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"sender": me, "to": {"includes": [owner["email"]]}, "body": {"claims": choice}},
            },
            {
                "name": "review_booked",
                "kind": "record",
                "app": "calendar",
                "collection": "events",
                "new": True,
                "count": 1,
                "where": {
                    "organizer": me,
                    "start": {"instant": review.isoformat()},
                    "end": {"instant": end.isoformat()},
                    "attendees": {"any": {"email": owner["email"]}},
                },
            },
            {
                "name": "channel_told",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {"channel_id": chan["id"], "user": me, "text": {"claims": choice}},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "box", "collection": "files", "kinds": ["add"], "where": {"parent_id": renewals["id"]}},
            {"app": "box", "collection": "versions", "kinds": ["add"], "where": {}},
            {
                "app": "box",
                "collection": "collaborations",
                "kinds": ["add"],
                "where": {"folder_id": renewals["id"], "email": owner["email"]},
            },
            {
                "app": "sharepoint",
                "collection": "items",
                "kinds": ["update"],
                "where": {"id": items[win]["id"]},
                "fields": ["values", "modified", "modified_by"],
                "values": {"values.Status": "Renewal started"},
            },
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": me},
                "values": {"to": [owner["email"]]},
            },
            {
                "app": "calendar",
                "collection": "events",
                "kinds": ["add"],
                "where": {"organizer": me},
                "values": {"attendees": {"len": 2}},
            },
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": chan["id"], "user": me},
            },
        ],  # fmt: skip
        "solution": [*reads, *plan(win), done],
        "negative_controls": [
            {
                "name": "wrong-contract",
                "why": f"renews {trap}: renewed already, lapsed, or not the nearest",
                "steps": [*plan(trap), done],
            },
            {
                "name": "stops-halfway",
                "why": "copies, invites and marks the register, then stops",
                "steps": [*plan(win, upto=3), done],
            },
            {
                "name": "no-channel-post",
                "why": "does everything but tell #procurement",
                "steps": [*plan(win, upto=5), done],
            },
            {
                "name": "register-owner-of-other",
                "why": "invites and mails the owner of another contract",
                "steps": [*plan(win, who=owner_of[trap]["email"]), done],
            },
        ],  # fmt: skip
    }


FAMILY = Family(
    name="box-contract-renewal-rollout",
    apps=("box", "sharepoint", "directory", "gmail", "calendar", "slack"),
    summary="find the contract that renews next, then copy, invite, mark, mail, book and post it",
    build=_build,
    decision=True,
    kind="long_horizon",
)
