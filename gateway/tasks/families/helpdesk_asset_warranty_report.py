"""Filter a ticket's attached asset export to the laptops out of warranty and attach the list to the ticket.

Document work in the shell: the agent downloads the asset export a colleague attached to an IT ticket, keeps
the rows the request asks for (Python with openpyxl in the sandbox) and attaches a new workbook of them to the
same ticket. Graded on the attached workbook's rows (exactly those assets, with who has them and the warranty
end) and on the ticket it is attached to.

Scenario shapes (picked by the seed):

- ``expired``: laptops whose warranty has already ended.
- ``ending_by_date``: laptops whose warranty ends before a given date (already ended included).
- ``one_site``: the export covers two offices; only the requester's office counts (warranty ended).

Varies: the requester, the assets (tags, models, people, dates), the cut-off, the offices, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import exposure, python_step, table_check
from gateway.tasks.kit.helpdesk import queues, ticket
from gateway.tasks.kit.phrasing import compose
from tools.kernel.documents import mime_type_for

__all__ = ["FAMILY"]

SHAPES = ("expired", "ending_by_date", "one_site")
MODELS = ("ThinkPad T14", "Latitude 5440", "EliteBook 840", "MacBook Air 13", "Surface Laptop 5", "XPS 13")
SITES = ("Berlin", "Toronto", "Austin", "Lisbon", "Singapore", "Denver")


def _script(source: str, target: str, before: str, site: str, mistake: str = "") -> str:
    """Python that keeps the assets of ``source`` whose warranty ends before ``before`` (at ``site`` if given).

    Mistakes: ``cutoff_today`` (``before`` replaced by a date the control passes in), ``every_site`` (the site
    ignored).
    """
    where = "True" if mistake == "every_site" or not site else f"rec.get('Site') == {site!r}"
    return f"""
        import os
        import openpyxl

        sheet = openpyxl.load_workbook({source!r}, data_only=True).worksheets[0]
        rows = list(sheet.iter_rows(values_only=True))
        head = [str(h) for h in rows[0]]
        out = openpyxl.Workbook()
        found = out.active
        found.title = 'Out of warranty'
        found.append(['Asset tag', 'Assigned to', 'Warranty end'])
        for row in rows[1:]:
            rec = dict(zip(head, row))
            if rec.get('Asset tag') and str(rec['Warranty end']) < {before!r} and {where}:
                found.append([rec['Asset tag'], rec['Assigned to'], str(rec['Warranty end'])])
        os.makedirs('out', exist_ok=True)
        out.save({target!r})
    """


def _attachment(inst: Instance, tid: str, name: str, spec: dict[str, Any], who: str, days: int) -> dict[str, Any]:
    blob, size = inst.document(spec)
    record = {"ticket_id": tid, "name": name, "mime_type": mime_type_for(name), "size": size, "blob": blob,
              "uploaded_by": who, "created": inst.day(-days, 11).isoformat()}  # fmt: skip
    return inst.add("helpdesk", "attachments", inst.uid("att"), record)


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    requester, other = inst.people(2)
    me = inst.user["email"]
    queues(inst, {"it": [inst.user]})
    today = inst.now.date()
    cutoff = today + timedelta(days=inst.rng.randint(45, 90)) if shape == "ending_by_date" else today
    site, elsewhere = inst.rng.sample(SITES, 2)
    people = inst.people(9, exclude=[requester["email"]])
    tags = inst.rng.sample(range(1000, 9999), len(people))
    lines: list[list[Any]] = []
    for n, person in enumerate(people):
        offset = (-inst.rng.randint(5, 300), inst.rng.randint(5, 40), inst.rng.randint(100, 400))[n % 3]
        end = today + timedelta(days=offset)
        if shape == "ending_by_date" and n % 3 == 1:
            end = cutoff - timedelta(days=inst.rng.randint(3, 30))  # ends after today but before the cut-off
        at = (site, elsewhere)[n % 2] if shape == "one_site" else site
        lines.append([f"LT-{tags[n]}", inst.pick(MODELS), person["name"], end.isoformat(), at])
    inst.rng.shuffle(lines)
    head = ["Asset tag", "Model", "Assigned to", "Warranty end"] + (["Site"] if shape == "one_site" else [])
    sheet = [head, *(line if shape == "one_site" else line[:4] for line in lines)]
    keep = [line for line in lines if line[3] < cutoff.isoformat() and (shape != "one_site" or line[4] == site)]
    rows = [{"Asset tag": line[0], "Assigned to": line[2], "Warranty end": line[3]} for line in keep]

    opened = inst.workday(-2, 10)
    where = f" in {site}" if shape == "one_site" else ""
    target_ticket = ticket(inst, "it", f"Laptop refresh{where}: out-of-warranty list",
                           f"Attached is the asset export. Which laptops{where} need replacing?",
                           requester["email"], opened, status="in_progress", assignee=me,
                           category="Hardware")  # fmt: skip
    export_name = "Asset export.xlsx"
    export = _attachment(inst, target_ticket["id"], export_name, {"kind": "xlsx", "sheets": {"Assets": sheet}},
                         requester["email"], 2)  # fmt: skip
    decoy = ticket(inst, "it", "Monitor request", "Could I get a second monitor?", other["email"], inst.workday(-3, 14),
                   status="open", assignee=me, category="Hardware")  # fmt: skip
    key = target_ticket["id"]
    target = "Out of warranty.xlsx"
    rule = {
        "expired": "whose warranty has already ended",
        "ending_by_date": f"whose warranty ends before {cutoff.strftime('%B')} {cutoff.day}, {cutoff.year}",
        "one_site": f"in {site} whose warranty has already ended",
    }[shape]
    instruction = compose(
        inst,
        [
            (f"go through the asset export on {key} and pick out every laptop {rule}",
             f"filter the asset export attached to {key} down to the laptops {rule}",
             f"find the laptops {rule} in {key}'s asset export"),
            (f"attach the list to {key} as a workbook '{target}' with columns Asset tag, Assigned to and "
             "Warranty end",
             f"put them in '{target}' (Asset tag, Assigned to, Warranty end) and attach it to the ticket",
             f"add a workbook '{target}' to {key}: Asset tag, Assigned to, Warranty end, one row per laptop"),
        ],
        (f"{inst.first(requester)} is planning the laptop refresh{where}", f"{key} is waiting on the list",
         "warranty end dates are in the export"),
        by=requester["name"],
        tail=("dates as YYYY-MM-DD", "only the ones that match", ""),
    )  # fmt: skip

    work, path = "in/assets.xlsx", f"out/{target}"
    download = {"tool": "helpdesk.download_attachment", "args": {"attachment_id": export["id"], "save_as": work}}
    attach = {"tool": "helpdesk.attach_file", "args": {"ticket_id": key, "path": path}}
    done = {"tool": "complete_task", "args": {"summary": f"Attached {target} to {key}."}}
    on_site = site if shape == "one_site" else ""
    compute = python_step(_script(work, path, cutoff.isoformat(), on_site))
    if shape == "expired":
        soon = (today + timedelta(days=45)).isoformat()
        mistake = ("counts-ending-soon", "also lists laptops whose warranty ends in the next weeks",
                   python_step(_script(work, path, soon, on_site)))
    elif shape == "ending_by_date":
        mistake = ("expired-only", "lists only the warranties already ended, not those ending before the date",
                   python_step(_script(work, path, today.isoformat(), on_site)))
    else:
        mistake = ("every-office", "lists laptops of both offices",
                   python_step(_script(work, path, cutoff.isoformat(), on_site, "every_site")))
    typed = "Asset tag,Assigned to,Warranty end\n" + "".join(
        f"{r['Asset tag']},{r['Assigned to']},{r['Warranty end']}\n" for r in rows
    )
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "checks": [
            {
                "name": "list_attached_to_ticket",
                "kind": "record",
                "app": "helpdesk",
                "collection": "attachments",
                "new": True,
                "count": 1,
                "where": {"ticket_id": key, "name": {"ieq": target}, "blob": table_check("", rows)},
            },
        ],
        "allowed_changes": [
            {"app": "helpdesk", "collection": "attachments", "kinds": ["add"],
             "where": {"ticket_id": key, "uploaded_by": me, "name": {"ieq": target}}},
            {"app": "helpdesk", "collection": "comments", "kinds": ["add"], "where": {"ticket_id": key, "author": me}},
            {"app": "helpdesk", "collection": "tickets", "kinds": ["update"], "where": {"id": key},
             "fields": ["updated"]},
        ],  # fmt: skip
        "solution": [
            {"tool": "helpdesk.list_attachments", "args": {"ticket_id": key}},
            download,
            compute,
            attach,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1], "steps": [download, mistake[2], attach, done]},
            {"name": "typed-list", "why": "types the list into a CSV attachment instead of making the workbook",
             "steps": [{"tool": "helpdesk.attach_file", "args": {"ticket_id": key, "content": typed,
                                                                 "name": "Out of warranty.csv"}}, done]},
            {"name": "other-ticket", "why": "attaches the right workbook to another of my tickets",
             "steps": [download, compute, {"tool": "helpdesk.attach_file",
                                           "args": {"ticket_id": decoy["id"], "path": path}}, done]},
            {"name": "stops-halfway", "why": "makes the list but never attaches it",
             "steps": [download, compute, done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="helpdesk-asset-warranty-report",
    apps=("helpdesk",),
    summary="filter a ticket's asset export to the laptops out of warranty in the shell and attach the list",
    build=_build,
    decision=True,
    kind="document",
)
