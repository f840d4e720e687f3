"""Compare two versions of a vendor's price list in Box and file the changed lines as a new workbook.

Document work in the shell: the agent downloads the price list (a .docx with a price table) as it is now and as
it was, compares the tables (Python with python-docx and openpyxl in the sandbox) and uploads a workbook of the
items whose price changed (old and new price) into the vendor's Box folder. Graded on the new workbook's rows
(exactly the changed items, both prices to the cent) and its folder.

Scenario shapes (picked by the seed):

- ``two_versions``: the file has two versions; some prices changed.
- ``new_items``: the current version also adds items, listed with no old price.
- ``three_versions``: three versions; the change asked about is the latest one (against the version before it).

Varies: the vendor, the items and prices, which change, the people who uploaded, the phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import cents, exposure, money, python_step, table_check
from gateway.tasks.kit.files import box_file, box_folder
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

VENDORS = ("Fabrikam Logistics", "Contoso Supplies", "Tailspin Print", "Litware Cloud", "Adatum Facilities",
           "Wingtip Furniture", "Coho Freight", "Northwind Paper")  # fmt: skip
ITEMS = (
    "Standard desk", "Task chair", "Monitor arm", "Filing cabinet", "Whiteboard", "Desk lamp", "Printer paper",
    "Toner cartridge", "Storage box", "Meeting table", "Bookshelf", "Footrest", "Headset", "Docking station",
)  # fmt: skip
SHAPES = ("two_versions", "new_items", "three_versions")


def _script(old: str, new: str, target: str, mistake: str = "") -> str:
    """Python that writes the items whose price differs between ``old`` and ``new`` (.docx tables) to ``target``.

    Mistakes: ``every_item`` (every item listed, changed or not), ``skip_new`` (items only in the new list left out).
    """
    keep = "True" if mistake == "every_item" else "before.get(item) != price"
    skip = "item not in before or " if mistake == "skip_new" else ""
    return f"""
        import os
        import re

        import docx
        import openpyxl


        def prices(path):
            found = dict()
            for table in docx.Document(path).tables:
                for row in table.rows[1:]:
                    cells = [c.text.strip() for c in row.cells]
                    found[cells[0]] = float(re.sub('[^0-9.]', '', cells[1]))
            return found


        before, after = prices({old!r}), prices({new!r})
        out = openpyxl.Workbook()
        sheet = out.active
        sheet.title = 'Changes'
        sheet.append(['Item', 'Old price', 'New price'])
        for item, price in after.items():
            if {skip}not ({keep}):
                continue
            sheet.append([item, before.get(item), price])
        os.makedirs('out', exist_ok=True)
        out.save({target!r})
    """


def _doc(vendor: str, prices: dict[str, int], note: str) -> dict[str, Any]:
    table = [["Item", "Price"], *([item, f"${money(p):,.2f}"] for item, p in prices.items())]
    return {"kind": "docx", "title": f"{vendor} price list", "paragraphs": [note], "table": table}


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    vendor = inst.pick(VENDORS)
    items = inst.rng.sample(ITEMS, 8)
    base = {item: cents(inst, 12, 900) for item in items[:6]}
    first = dict(base)
    if shape == "three_versions":  # an earlier round of changes, not the one asked about
        for item in inst.rng.sample(sorted(base), 2):
            first[item] = base[item] - cents(inst, 1, 9)
    current = dict(base)
    changed = inst.rng.sample(sorted(base), inst.rng.randint(2, 3))
    for item in changed:
        current[item] = base[item] + inst.pick((1, -1)) * (base[item] * inst.rng.randint(3, 15) // 500 * 5 + 5)
    added = items[6 : 6 + inst.rng.randint(1, 2)] if shape == "new_items" else []
    for item in added:
        current[item] = cents(inst, 12, 900)
    previous = base  # the version the change is measured against
    rows = [{"Item": i, "Old price": money(previous[i]) if i in previous else None, "New price": money(current[i])}
            for i in current if previous.get(i) != current[i]]  # fmt: skip

    people = inst.people(2)
    folder = box_folder(inst, f"{vendor} contract")
    name = f"{vendor} price list.docx"
    versions = [(_doc(vendor, base, "Prices valid until further notice."), inst.day(-40, 10), people[0]["email"]),
                (_doc(vendor, current, "Revised prices."), inst.day(-2, 15), people[1]["email"])]  # fmt: skip
    if shape == "three_versions":
        versions.insert(0, (_doc(vendor, first, "Prices for the first half."), inst.day(-120, 10), people[0]["email"]))
    source = box_file(inst, name, folder["id"], versions)
    then_number = len(versions) - 1  # the version before the current one

    target = f"{vendor} price changes.xlsx"
    since = "the version before it" if shape == "three_versions" else "the previous version"
    instruction = compose(
        inst,
        [
            (f"compare the current '{name}' in Box with {since} and list every item whose price changed",
             f"work out which prices in the {vendor} price list (Box, '{name}') changed in the latest revision",
             f"check what the newest upload of '{name}' changed against {since}"),
            (f"save the changed lines as a new workbook '{target}' in the '{vendor} contract' folder, with columns "
             "Item, Old price and New price",
             f"upload '{target}' to the '{vendor} contract' folder: Item, Old price, New price, one row per change",
             f"put them in a workbook called '{target}' (Item, Old price, New price) in '{vendor} contract'"),
        ],
        (f"{vendor} sent a revised price list", f"procurement needs to approve the {vendor} price changes",
         f"{inst.first(people[1])} uploaded a new {vendor} price list"),
        by=inst.first(people[1]),
        tail=(("new items have no old price: leave it empty", "leave Old price empty for new items")
              if shape == "new_items" else ("only the lines that changed", "unchanged items stay out", "")),
    )  # fmt: skip

    old_path, new_path, path = "in/price list old.docx", "in/price list new.docx", f"out/{target}"

    def download(number: int, where: str) -> dict[str, Any]:
        return {"tool": "box.download_file", "args": {"file_id": source["id"], "version": number, "save_as": where}}

    fetch = [download(then_number, old_path), download(0, new_path)]
    upload = {"tool": "box.upload_file", "args": {"folder_id": folder["id"], "path": path}}
    done = {"tool": "complete_task", "args": {"summary": f"Uploaded {target} to {vendor} contract."}}
    compute = python_step(_script(old_path, new_path, path))
    if shape == "two_versions":
        mistake = ("lists-every-item", "lists every item, changed or not",
                   [*fetch, python_step(_script(old_path, new_path, path, "every_item"))])
    elif shape == "new_items":
        mistake = ("misses-new-items", "leaves out the items the new list added",
                   [*fetch, python_step(_script(old_path, new_path, path, "skip_new"))])
    else:
        mistake = ("against-first-version", "compares the current list with the first version",
                   [download(1, old_path), download(0, new_path), compute])
    typed = "Item,Old price,New price\n" + "".join(
        f"{r['Item']},{'' if r['Old price'] is None else r['Old price']},{r['New price']}\n" for r in rows
    )
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "checks": [
            {
                "name": "changes_workbook_filed",
                "kind": "record",
                "app": "box",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {"name": {"ieq": target}, "parent_id": folder["id"], "blob": table_check("", rows)},
            },
        ],
        "allowed_changes": [
            {"app": "box", "collection": "files", "kinds": ["add"],
             "where": {"parent_id": folder["id"], "name": {"ieq": target}}},
            {"app": "box", "collection": "versions", "kinds": ["add"]},
        ],  # fmt: skip
        "solution": [
            {"tool": "box.list_versions", "args": {"file_id": source["id"]}},
            *fetch,
            compute,
            upload,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1], "steps": [*mistake[2], upload, done]},
            {"name": "typed-changes", "why": "types the changes into a CSV file instead of making the workbook",
             "steps": [{"tool": "box.upload_file", "args": {"folder_id": folder["id"], "content": typed,
                                                            "name": target.replace(".xlsx", ".csv")}}, done]},
            {"name": "wrong-folder", "why": "files the right workbook at the top of Box, not in the vendor's folder",
             "steps": [*fetch, compute, {"tool": "box.upload_file", "args": {"folder_id": "0", "path": path}}, done]},
            {"name": "stops-halfway", "why": "works out the changes but never files them",
             "steps": [*fetch, compute, done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="box-price-list-changes",
    apps=("box",),
    summary="compare two versions of a Box price list in the shell and file the changed lines as a new workbook",
    build=_build,
    decision=True,
    kind="document",
)
