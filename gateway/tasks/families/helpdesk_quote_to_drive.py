"""File the revised vendor quote attached to a purchase ticket in the vendor's quotes folder on Drive.

Varies: the vendor, the requester, the quote number, both amounts, the folder names, dates, the phrasing.
Distractors: the first (superseded) quote on the same ticket, a folder of the same name under an archive
folder, another requester's purchase ticket with another vendor's quote. The file moves through the
workspace (ticket attachment -> workspace -> Drive).

Scenario shapes (picked by the seed):

- ``revised_quote``: the near-misses above (control: files the superseded first quote).

The note on the ticket must say the quote is filed; if it says which one, the revision (``filed_revision``:
"filed the original quote, not the revision" fails).
- ``filed_last_year``: the vendor's quotes folder already holds last year's quote from them (control: notes
  the ticket as filed without filing the new quote).
- ``two_purchases``: the same requester has a second purchase ticket, with another vendor's revised quote
  (control: files that quote in this vendor's folder).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.helpdesk import called, comment, queues, ticket
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

SHAPES = ("revised_quote", "filed_last_year", "two_purchases")
VENDORS = (
    ("Fabrikam", "standing desks"),
    ("Contoso", "conference room screens"),
    ("Tailspin", "label printers"),
    ("Litware", "design software seats"),
    ("Adatum", "office chairs"),
    ("Woodgrove", "docking stations"),
)


_REVISION = ["revision", "revised", "rev2", "newer quote", "latest quote", "current quote", "second quote", "new quote",
             "updated quote", "newest quote"]
_FIRST = ["original quote", "first quote", "older quote", "earlier quote", "old quote", "original one", "first one",
          "original version", "superseded quote"]


def filed_revision(vendor: str) -> list[dict[str, Any]]:
    """What the note on the ticket must say: the quote is filed, and, if it says which, the revision (never the first).

    Each ``<word> quote`` form is also read with the vendor's name inside it (``the first Contoso quote``).
    """
    def named(forms: list[str]) -> list[str]:
        return forms + [f.replace(" quote", f" {vendor} quote") for f in forms if f.endswith(" quote")]

    return [
        {"kind": "attached"},
        {"kind": "choice", "value": "revision", "required": False, "cues": [r"\b(?:fil|upload|sav|stor|plac|put)\w*"],
         "candidates": [named(_REVISION), named(_FIRST)]},
    ]


def _quote(inst: Instance, vendor: str, number: str, amount: int, rev: bool) -> tuple[str, dict[str, Any]]:
    name = f"{vendor} quote {number}{' rev2' if rev else ''}.pdf"
    blob, size = inst.document(
        {
            "kind": "pdf",
            "title": f"{vendor} quote {number}",
            "lines": [
                f"Quote {number}{' (revision 2)' if rev else ''}",
                f"For: {inst.company.name}",
                f"Total: ${amount:,}.00",
            ],
        }
    )
    return name, {"blob": blob, "size": size, "mime_type": "application/pdf"}


def _attach(inst: Instance, tid: str, name: str, spec: dict[str, Any], who: str, days: int) -> dict[str, Any]:
    return inst.add(
        "helpdesk",
        "attachments",
        inst.uid("att"),
        {"ticket_id": tid, "name": name, **spec, "uploaded_by": who, "created": inst.day(-days, 11).isoformat()},
    )


def _build(inst: Instance) -> dict[str, Any]:
    (vendor, goods), (other_vendor, other_goods) = inst.rng.sample(VENDORS, 2)
    requester, other = inst.people(2)
    me = inst.user["email"]
    queues(inst, {"finance_ops": [inst.user]})
    number, other_number = inst.code("Q", 5), inst.code("Q", 5)
    first_amount = inst.amount(1_200, 30_000, 50)
    final_amount = first_amount + inst.pick((-1, 1)) * inst.amount(150, 900, 25)
    opened = inst.workday(-inst.rng.randint(6, 12), 10)
    target = ticket(
        inst,
        "finance_ops",
        f"Purchase request: {goods} from {vendor}",
        f"We need {goods} for the team. {vendor}'s quote is attached; please raise the PO.",
        requester["email"],
        opened,
        status="in_progress",
        assignee=me,
        category="Purchase request",
    )
    old_name, old_spec = _quote(inst, vendor, number, first_amount, False)
    new_name, new_spec = _quote(inst, vendor, number, final_amount, True)
    old_att = _attach(inst, target["id"], old_name, old_spec, requester["email"], (inst.now - opened).days)
    new_att = _attach(inst, target["id"], new_name, new_spec, requester["email"], 1)
    comment(
        inst,
        target["id"],
        requester["email"],
        f"{vendor} sent a revised quote (rev2, ${final_amount:,}); it replaces the first one. Attached.",
        inst.day(-1, 11, 5),
    )
    theirs = ticket(
        inst,
        "finance_ops",
        f"Purchase request: {other_goods} from {other_vendor}",
        f"Quote attached for {other_goods}.",
        other["email"],
        inst.workday(-inst.rng.randint(2, 5), 14),
        assignee=me,
        category="Purchase request",
    )
    o_name, o_spec = _quote(inst, other_vendor, other_number, inst.amount(1_200, 30_000, 50), False)
    _attach(inst, theirs["id"], o_name, o_spec, other["email"], 2)
    procurement = drive_folder(inst, "Procurement", created=inst.day(-90))
    archive = drive_folder(inst, "Archive", created=inst.day(-90))
    dest = drive_folder(inst, f"{vendor} Quotes", procurement["id"], created=inst.day(-90))
    stale = drive_folder(inst, f"{vendor} Quotes", archive["id"], created=inst.day(-400))
    who = called(inst, requester)
    shape = SHAPES[inst.seed % len(SHAPES)]
    wrong_att: dict[str, Any] | None = None
    if shape == "filed_last_year":
        last, total = inst.code("Q", 5), inst.amount(900, 9_000, 50)
        drive_file(inst, f"{vendor} quote {last}.pdf", dest["id"],
                   {"kind": "pdf", "title": f"{vendor} quote {last}",
                    "lines": [f"Quote {last}", f"For: {inst.company.name}", f"Total: ${total:,}.00"]},
                   inst.day(-inst.rng.randint(300, 360), 10))  # fmt: skip
    elif shape == "two_purchases":
        third, third_goods = inst.pick([v for v in VENDORS if v[0] not in (vendor, other_vendor)])
        second = ticket(inst, "finance_ops", f"Purchase request: {third_goods} from {third}",
                        f"We also need {third_goods}; {third}'s quote is attached.", requester["email"],
                        inst.workday(-inst.rng.randint(2, 5), 9), status="in_progress", assignee=me,
                        category="Purchase request")  # fmt: skip
        w_name, w_spec = _quote(inst, third, inst.code("Q", 5), inst.amount(1_200, 30_000, 50), True)
        wrong_att = _attach(inst, second["id"], w_name, w_spec, requester["email"], 1)
    instruction = compose(
        inst,
        [
            (
                f"save the latest {vendor} quote from {who}'s purchase ticket into Procurement > {vendor} Quotes on"
                " my Drive",
                f"put the revised {vendor} PDF from {who}'s ticket in the {vendor} Quotes folder under Procurement on"
                " the drive",
                f"file the current {vendor} quote on {who}'s ticket (the revision, not the first one) in my"
                f" Procurement/{vendor} Quotes folder on Drive",
                f"file the newest quote on the {goods} purchase ticket in Procurement > {vendor} Quotes",
            ),
            (
                "leave a note on the ticket that it's filed",
                "note on the ticket where it went",
                "add a comment on the ticket once it's there",
            ),
        ],  # fmt: skip
        (
            f"{who} attached a revised {vendor} quote to their purchase request",
            f"{vendor} sent a second quote for the {goods} {who} asked for",
            "",
        ),
        by=who,
        tail=("the one in Procurement, not the archive", "just the one file", ""),
    )
    path = f"quotes/{new_name}"
    note = f"Revised quote filed in Drive: Procurement > {vendor} Quotes."
    find = {
        "tool": "helpdesk.search_tickets",
        "args": {"text": vendor, "requester": requester["email"]},
        "save": {"tid": "results.0.id"},
    }
    listing = {"tool": "helpdesk.list_attachments", "args": {"ticket_id": "{tid}"}, "save": {"att": "attachments.1.id"}}

    def fetch(att: str, save_as: str) -> dict[str, Any]:
        return {"tool": "helpdesk.download_attachment", "args": {"attachment_id": att, "save_as": save_as}}

    look = {"tool": "drive.search_files", "args": {"query": f"{vendor} Quotes", "kind": "folder"}}

    def upload(src: str, parent: str) -> dict[str, Any]:
        return {"tool": "drive.upload_file", "args": {"path": src, "parent_id": parent}}

    def tell(tid: str) -> dict[str, Any]:
        return {"tool": "helpdesk.add_comment", "args": {"ticket_id": tid, "body": note}}

    return {
        "instruction": instruction,
        "sandbox": True,
        "checks": [
            {
                "name": "revised_quote_filed",
                "kind": "record",
                "app": "drive",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {
                    "parent_id": dest["id"],
                    "kind": "file",
                    "trashed": False,
                    "blob": {"same_bytes_as": {"app": "helpdesk", "collection": "attachments", "id": new_att["id"]}},
                },
            },
            {
                "name": "note_on_ticket",
                "kind": "record",
                "app": "helpdesk",
                "collection": "comments",
                "new": True,
                "where": {"ticket_id": target["id"], "author": me, "body": {"claims": filed_revision(vendor)}},
            },
        ],
        "allowed_changes": [
            {"app": "drive", "collection": "files", "kinds": ["add"], "where": {"parent_id": dest["id"], "owner": me}},
            {
                "app": "helpdesk",
                "collection": "comments",
                "kinds": ["add"],
                "where": {"ticket_id": target["id"], "author": me},
            },
            {
                "app": "helpdesk",
                "collection": "tickets",
                "kinds": ["update"],
                "where": {"id": target["id"]},
                "fields": ["updated"],
            },
        ],
        "solution": [
            find,
            listing,
            fetch("{att}", path),
            {"tool": "drive.search_files", "args": {"query": "Procurement", "kind": "folder"}},
            look,
            upload(path, dest["id"]),
            tell("{tid}"),
        ],
        "alternative_solutions": [
            [
                {"tool": "helpdesk.get_ticket", "args": {"ticket_id": target["id"]}},
                fetch(new_att["id"], new_name),
                {"tool": "drive.list_folder", "args": {"folder_id": procurement["id"]}},
                upload(new_name, dest["id"]),
                tell(target["id"]),
            ]
        ],
        "negative_controls": [
            {
                "name": "first-quote",
                "why": "files the superseded first quote",
                "steps": [
                    fetch(old_att["id"], f"quotes/{old_name}"),
                    upload(f"quotes/{old_name}", dest["id"]),
                    tell(target["id"]),
                ],
            },
            {
                "name": "archive-folder",
                "why": "files it in the same-named folder under Archive",
                "steps": [fetch(new_att["id"], path), look, upload(path, stale["id"]), tell(target["id"])],
            },
            *(
                [{"name": "note-only", "why": "notes the ticket as filed but files nothing (an older quote is there)",
                  "steps": [look, tell(target["id"])]}]
                if shape == "filed_last_year"
                else []
            ),
            *(
                [{"name": "other-purchase-quote", "why": "files the requester's other purchase's quote",
                  "steps": [fetch(wrong_att["id"], "quotes/other.pdf"), upload("quotes/other.pdf", dest["id"]),
                            tell(target["id"])]}]
                if wrong_att
                else []
            ),  # fmt: skip
            {
                "name": "no-note",
                "why": "files it but says nothing on the ticket",
                "steps": [fetch(new_att["id"], path), upload(path, dest["id"])],
            },
        ],
    }


FAMILY = Family(
    name="helpdesk-quote-to-drive",
    apps=("helpdesk", "drive"),
    summary="file the revised vendor quote from a purchase ticket in the vendor's quotes folder on Drive",
    build=_build,
)
