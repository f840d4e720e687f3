"""Total a team's expense workbook by category and file the totals as a new workbook in a Drive folder.

Document work in the shell: the agent downloads the workbook, sums its lines by category (Python with openpyxl
in the sandbox) and uploads a new workbook, one row per category, into the team's reports folder. Graded on the
new workbook's rows (every category's total to the cent, no other row) and its place; a workbook cannot be typed
into Drive, so it came from the workspace.

Scenario shapes (picked by the seed):

- ``single_sheet``: the lines are on one sheet.
- ``two_sheets``: card lines and reimbursement lines are on two sheets; both count.
- ``with_rejected``: a Status column marks some lines Rejected; only Approved lines count.

Varies: the team (a project code name), the month, the categories, the lines (people, days, amounts in cents),
the folder names, the phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import MONTHS, cents, exposure, money, python_step, table_check
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import project_names

__all__ = ["FAMILY"]

CATEGORIES = ("Travel", "Meals", "Lodging", "Software", "Office supplies", "Training", "Client gifts", "Taxis")
SHAPES = ("single_sheet", "two_sheets", "with_rejected")


def _script(source: str, target: str, shape: str, mistake: str = "") -> str:
    """The Python that sums ``source`` by category into ``target``, right for ``shape`` or with ``mistake``.

    Mistakes: ``drop_last`` (the last line left out), ``first_sheet`` (only the first sheet totalled),
    ``count_rejected`` (rejected lines counted).
    """
    pick = "book.worksheets[:1]" if mistake == "first_sheet" else "book.worksheets"
    rows = "rows[1:-1]" if mistake == "drop_last" else "rows[1:]"
    approved_only = shape == "with_rejected" and mistake != "count_rejected"
    keep = "rec.get('Status') == 'Approved'" if approved_only else "True"
    return f"""
        import os
        import openpyxl

        book = openpyxl.load_workbook({source!r}, data_only=True)
        totals = dict()
        for sheet in {pick}:
            rows = list(sheet.iter_rows(values_only=True))
            head = [str(h) for h in rows[0]]
            for row in {rows}:
                rec = dict(zip(head, row))
                if rec.get('Category') and {keep}:
                    totals[rec['Category']] = totals.get(rec['Category'], 0) + round(rec['Amount'] * 100)
        out = openpyxl.Workbook()
        sheet = out.active
        sheet.title = 'Totals'
        sheet.append(['Category', 'Total'])
        for category in sorted(totals):
            sheet.append([category, totals[category] / 100])
        os.makedirs('out', exist_ok=True)
        out.save({target!r})
        print(len(totals), 'categories')
    """


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    (team,) = project_names(inst, 1)
    month = MONTHS[(inst.now.month - 2) % 12]  # last month
    categories = sorted(inst.rng.sample(CATEGORIES, inst.rng.randint(4, 5)))
    people = inst.people(4)
    head = ["Date", "Employee", "Category", "Amount"] + (["Status"] if shape == "with_rejected" else [])
    lines: list[list[Any]] = []
    counted: dict[str, int] = {}
    n = inst.rng.randint(12, 18)
    for i in range(n):
        category = categories[i] if i < len(categories) else inst.pick(categories)
        amount = cents(inst, 8, 640)
        day = f"{month[:3]} {inst.rng.randint(1, 28)}"
        rejected = shape == "with_rejected" and i >= len(categories) and inst.rng.random() < 0.3
        status = "Rejected" if rejected else "Approved"
        line = [day, inst.pick(people)["name"], category, money(amount)]
        line += [status] if shape == "with_rejected" else []
        lines.append(line)
        if status == "Approved":
            counted[category] = counted.get(category, 0) + amount
    if shape == "with_rejected" and all(line[-1] == "Approved" for line in lines):
        lines[-1][-1] = "Rejected"
        counted[lines[-1][2]] -= round(lines[-1][3] * 100)
    inst.rng.shuffle(lines)
    if shape == "two_sheets":
        cut = len(lines) // 2
        sheets = {"Card": [head, *lines[:cut]], "Reimbursements": [head, *lines[cut:]]}
    else:
        sheets = {"Expenses": [head, *lines]}

    finance = drive_folder(inst, f"{team} finance")
    expenses = drive_folder(inst, "Expenses", finance["id"])
    reports = drive_folder(inst, f"{team} reports", finance["id"])
    source_name = f"{team} expenses {month}.xlsx"
    source = drive_file(inst, source_name, expenses["id"], {"kind": "xlsx", "sheets": sheets}, inst.day(-3, 16))
    target = f"{team} expense totals {month}.xlsx"
    totals = [{"Category": c, "Total": money(counted[c])} for c in sorted(counted)]

    which = {"single_sheet": "", "two_sheets": " (both sheets)", "with_rejected": " (approved lines only)"}[shape]
    note = {
        "single_sheet": ("", "every line counts"),
        "two_sheets": ("card and reimbursement lines are on separate sheets and both count",
                       "include both sheets"),
        "with_rejected": ("rejected lines stay in the sheet but don't count", "skip anything marked Rejected"),
    }[shape]  # fmt: skip
    instruction = compose(
        inst,
        [
            (f"total the '{source_name}' workbook in Drive by category{which}",
             f"add up the {month} expenses in '{source_name}' per category{which}",
             f"work out the {team} {month} expense totals by category from '{source_name}'{which}"),
            (f"save them as a new workbook '{target}' in the '{team} reports' folder, one row per category with "
             "columns Category and Total",
             f"put the result in a new workbook called '{target}' (columns Category and Total, a row per category) "
             f"in '{team} reports'",
             f"file a workbook '{target}' in Drive's '{team} reports' folder with a Category and a Total column"),
        ],
        (f"finance wants the {team} {month} numbers by category", f"the {month} close needs the {team} totals",
         *([note[0]] if note[0] else [])),
        by=inst.first(people[0]),
        tail=(note[1], "totals to the cent, please", ""),
    )  # fmt: skip

    work = "in/expenses.xlsx"
    path = f"out/{target}"
    download = {"tool": "drive.download_file", "args": {"file_id": source["id"], "save_as": work}}
    upload = {"tool": "drive.upload_file", "args": {"path": path, "parent_id": reports["id"]}}
    done = {"tool": "complete_task", "args": {"summary": f"Saved {target} in {team} reports with the totals."}}
    mistake = {
        "single_sheet": ("drops-last-line", "leaves the sheet's last line out of the totals", "drop_last"),
        "two_sheets": ("first-sheet-only", "totals only the first sheet", "first_sheet"),
        "with_rejected": ("counts-rejected", "counts the rejected lines too", "count_rejected"),
    }[shape]  # fmt: skip
    typed = "Category,Total\n" + "".join(f"{r['Category']},{r['Total']:.2f}\n" for r in totals)
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "checks": [
            {
                "name": "totals_workbook_filed",
                "kind": "record",
                "app": "drive",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {"name": {"ieq": target}, "parent_id": reports["id"], "trashed": False,
                          "blob": table_check("", totals)},
            },
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "drive", "collection": "files", "kinds": ["add"],
             "where": {"parent_id": reports["id"], "name": {"ieq": target}}},
        ],  # fmt: skip
        "solution": [
            {"tool": "drive.search_files", "args": {"query": source_name, "kind": "file"}},
            download,
            python_step(_script(work, path, shape)),
            {"tool": "drive.search_files", "args": {"query": f"{team} reports", "kind": "folder"}},
            upload,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1],
             "steps": [download, python_step(_script(work, path, shape, mistake[2])), upload, done]},
            {"name": "typed-totals", "why": "types the totals into a CSV file instead of making the workbook",
             "steps": [{"tool": "drive.create_file", "args": {"name": target.replace(".xlsx", ".csv"),
                                                              "parent_id": reports["id"], "content": typed}}, done]},
            {"name": "wrong-folder", "why": "files the right workbook beside the expenses, not in the reports folder",
             "steps": [download, python_step(_script(work, path, shape)),
                       {"tool": "drive.upload_file", "args": {"path": path, "parent_id": expenses["id"]}}, done]},
            {"name": "stops-halfway", "why": "computes the totals but never files the workbook",
             "steps": [download, python_step(_script(work, path, shape)), done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="drive-expense-totals-workbook",
    apps=("drive",),
    summary="sum a Drive expense workbook by category in the shell and file the totals as a new workbook",
    build=_build,
    decision=True,
    kind="document",
)
