"""Sum a Drive sales export by region and file a Word memo with the figures as a table.

Document work in the shell: the agent downloads the sales export (a CSV file), adds up the orders per region
(Python in the sandbox) and writes a .docx memo (python-docx) whose table gives each region's total, then
uploads it into the sales folder. Graded on the memo's table (the regions asked for with their totals to the
cent, no other row) and its folder; a .docx cannot be typed into Drive, so it came from the workspace.

Scenario shapes (picked by the seed):

- ``all_regions``: every region's total.
- ``one_quarter``: the export covers two quarters; only the quarter asked about counts.
- ``top_three``: only the three regions with the highest totals.

Varies: the team, the regions, the orders (amounts in cents), the quarters, the phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import cents, exposure, money, python_step, table_check
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import project_names

__all__ = ["FAMILY"]

SHAPES = ("all_regions", "one_quarter", "top_three")
REGIONS = ("North", "South", "East", "West", "Central", "Coastal")


def _script(source: str, target: str, title: str, quarter: str, top: int, mistake: str = "") -> str:
    """Python that sums ``source`` (CSV) per region (``quarter`` only, when given) into a .docx memo ``target``.

    ``top`` keeps the highest totals only (0: all). Mistakes: ``both_quarters`` (the quarter ignored),
    ``lowest`` (the lowest totals kept instead of the highest).
    """
    test = "True" if mistake == "both_quarters" or not quarter else f"rec['Quarter'] == {quarter!r}"
    order = "" if mistake == "lowest" else ", reverse=True"
    return f"""
        import csv
        import os

        import docx

        totals = dict()
        with open({source!r}, newline='') as handle:
            for rec in csv.DictReader(handle):
                if {test}:
                    totals[rec['Region']] = totals.get(rec['Region'], 0) + round(float(rec['Amount']) * 100)
        ranked = sorted(totals, key=lambda region: totals[region]{order})
        keep = ranked[:{top}] if {top} else sorted(totals)
        memo = docx.Document()
        memo.add_heading({title!r}, level=1)
        memo.add_paragraph('Sales by region, from the sales export.')
        table = memo.add_table(rows=1, cols=2)
        table.rows[0].cells[0].text = 'Region'
        table.rows[0].cells[1].text = 'Total'
        for region in keep:
            cells = table.add_row().cells
            cells[0].text = region
            cells[1].text = '%.2f' % (totals[region] / 100)
        os.makedirs('out', exist_ok=True)
        memo.save({target!r})
    """


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    (team,) = project_names(inst, 1)
    regions = inst.rng.sample(REGIONS, 5 if shape == "top_three" else inst.rng.randint(3, 5))
    year = inst.now.year - 1
    quarter, other_quarter = f"Q4 {year}", f"Q3 {year}"
    orders: list[list[str]] = []
    counted: dict[str, int] = {}
    for n in range(inst.rng.randint(14, 20)):
        region = regions[n % len(regions)]
        amount = cents(inst, 40, 4800)
        when = other_quarter if shape == "one_quarter" and n >= len(regions) and n % 3 == 2 else quarter
        orders.append([f"SO-{5000 + n * 7}", region, when, f"{money(amount):.2f}"])
        if when == quarter:
            counted[region] = counted.get(region, 0) + amount
    inst.rng.shuffle(orders)
    csv_text = "Order,Region,Quarter,Amount\n" + "".join(",".join(o) + "\n" for o in orders)
    top = 3 if shape == "top_three" else 0
    ranked = sorted(counted, key=lambda r: -counted[r])
    kept = ranked[:top] if top else sorted(counted)
    rows = [{"Region": r, "Total": money(counted[r])} for r in kept]

    sales = drive_folder(inst, f"{team} sales")
    exports = drive_folder(inst, "Exports", sales["id"])
    source_name = f"{team} sales export.csv"
    source = drive_file(inst, source_name, exports["id"], {"kind": "text", "text": csv_text}, inst.day(-1, 7))
    target = f"{team} sales by region.docx"
    title = f"{team} sales by region, {quarter}"
    scope = {"all_regions": "every region", "one_quarter": f"every region, {quarter} orders only",
             "top_three": "the three regions with the highest sales"}[shape]  # fmt: skip
    instruction = compose(
        inst,
        [
            (f"add up the orders in '{source_name}' (Drive) by region: {scope}",
             f"total the {team} sales export '{source_name}' per region ({scope})",
             f"work out the sales per region from '{source_name}', {scope}"),
            (f"write it up as a Word memo '{target}' with a table of Region and Total, and save it in the "
             f"'{team} sales' folder",
             f"put the figures in a short memo '{target}' (a Region / Total table) in '{team} sales'",
             f"file a .docx memo called '{target}' in Drive's '{team} sales' folder with a two-column table, "
             "Region and Total"),
        ],
        (f"the {team} quarterly review needs the regional numbers", f"leadership asked for {team} sales by region",
         f"the {quarter} numbers are due Friday"),
        by=inst.first(inst.person()),
        tail=("totals to the cent", "one table row per region", ""),
    )  # fmt: skip

    work, path = "in/sales.csv", f"out/{target}"
    download = {"tool": "drive.download_file", "args": {"file_id": source["id"], "save_as": work}}
    upload = {"tool": "drive.upload_file", "args": {"path": path, "parent_id": sales["id"]}}
    done = {"tool": "complete_task", "args": {"summary": f"Saved {target} in {team} sales."}}
    scoped = quarter if shape == "one_quarter" else ""
    compute = python_step(_script(work, path, title, scoped, top))
    if shape == "all_regions":
        wrong = python_step(_script(work, path, title, scoped, 2))
        mistake = ("leaves-out-regions", "puts only the two biggest regions in the memo", wrong)
    elif shape == "one_quarter":
        wrong = python_step(_script(work, path, title, scoped, top, "both_quarters"))
        mistake = ("both-quarters", "adds the other quarter's orders in", wrong)
    else:
        wrong = python_step(_script(work, path, title, scoped, top, "lowest"))
        mistake = ("lowest-three", "lists the three lowest regions", wrong)
    # unless asked for one row per region, a grand total row (the sum of the rows listed) may close the table
    total = [] if "row per region" in instruction else [
        {"Region": {"regex": r"^\s*(?:all(?: regions)?|(?:grand )?total|sum)\s*:?\s*$"},
         "Total": {"num": round(sum(money(counted[r]) for r in kept), 2)}}]  # fmt: skip
    typed = f"{title}\n\n" + "".join(f"{r['Region']}: {r['Total']:.2f}\n" for r in rows)
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "checks": [
            {
                "name": "memo_filed",
                "kind": "record",
                "app": "drive",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {"name": {"ieq": target}, "parent_id": sales["id"], "trashed": False,
                          "blob": table_check("", rows, optional=total)},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "drive", "collection": "files", "kinds": ["add"],
             "where": {"parent_id": sales["id"], "name": {"ieq": target}}},
        ],  # fmt: skip
        "solution": [
            {"tool": "drive.search_files", "args": {"query": f"{team} sales export"}},
            download,
            compute,
            upload,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1], "steps": [download, mistake[2], upload, done]},
            {"name": "typed-memo", "why": "types the figures into a text note instead of writing the Word memo",
             "steps": [{"tool": "drive.create_file", "args": {"name": target.replace(".docx", ".md"),
                                                              "parent_id": sales["id"], "content": typed}}, done]},
            {"name": "wrong-folder", "why": "files the memo beside the export, not in the sales folder",
             "steps": [download, compute,
                       {"tool": "drive.upload_file", "args": {"path": path, "parent_id": exports["id"]}}, done]},
            {"name": "stops-halfway", "why": "writes the memo but never files it",
             "steps": [download, compute, done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="drive-sales-region-memo",
    apps=("drive",),
    summary="sum a Drive sales export by region in the shell and file a Word memo with the totals table",
    build=_build,
    decision=True,
    kind="document",
)
