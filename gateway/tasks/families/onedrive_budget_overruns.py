"""Find the budget lines whose actual spend ran over, from a OneDrive workbook, and file them as a new workbook.

Document work in the shell: the agent downloads the budget workbook, compares actual spend with the budget per
line (Python with openpyxl in the sandbox) and uploads a workbook of the lines over budget with the overrun
into the team's finance folder. Graded on the new workbook's rows (exactly those lines, every figure to the
cent) and its folder.

Scenario shapes (picked by the seed):

- ``one_sheet``: Budget and Actual side by side, one row per line.
- ``two_sheets``: a Budget sheet and an Actuals sheet, in different orders; lines are matched by name.
- ``over_ten_percent``: only the lines more than 10% over their budget count.

Varies: the team, the budget lines and amounts (cents), the overruns, the phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import cents, exposure, money, python_step, table_check
from gateway.tasks.kit.files import onedrive_file, onedrive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import project_names

__all__ = ["FAMILY"]

SHAPES = ("one_sheet", "two_sheets", "over_ten_percent")
LINES = ("Travel", "Contractors", "Software licences", "Hardware", "Events", "Training", "Catering", "Printing",
         "Cloud hosting", "Recruiting")  # fmt: skip


def _script(source: str, target: str, shape: str, mistake: str = "") -> str:
    """Python that lists the lines of ``source`` over budget into ``target`` (Line, Budget, Actual, Over).

    Mistakes: ``every_line`` (every line listed), ``by_position`` (the two sheets paired row by row),
    ``any_overrun`` (every overrun, not only those past 10%).
    """
    if shape == "two_sheets":
        join = "list(zip(budget, actual.values()))" if mistake == "by_position" else "[(k, actual[k]) for k in budget]"
        read = f"""
        budget = dict((r[0], r[1]) for r in book['Budget'].iter_rows(min_row=2, values_only=True) if r[0])
        actual = dict((r[0], r[1]) for r in book['Actuals'].iter_rows(min_row=2, values_only=True) if r[0])
        lines = [(line, budget[line], spent) for line, spent in {join}]"""
    else:
        read = """
        rows = list(book.worksheets[0].iter_rows(min_row=2, values_only=True))
        lines = [(r[0], r[1], r[2]) for r in rows if r[0]]"""
    limit = "1.10" if shape == "over_ten_percent" and mistake != "any_overrun" else "1"
    keep = "True" if mistake == "every_line" else f"round(spent * 100) > round(planned * 100 * {limit})"
    return f"""
        import os
        import openpyxl

        book = openpyxl.load_workbook({source!r}, data_only=True){read}
        out = openpyxl.Workbook()
        sheet = out.active
        sheet.title = 'Over budget'
        sheet.append(['Line', 'Budget', 'Actual', 'Over'])
        for line, planned, spent in lines:
            if {keep}:
                sheet.append([line, planned, spent, round(spent - planned, 2)])
        os.makedirs('out', exist_ok=True)
        out.save({target!r})
    """


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    (team,) = project_names(inst, 1)
    names = inst.rng.sample(LINES, inst.rng.randint(6, 8))
    plan: dict[str, tuple[int, int]] = {}
    for n, name in enumerate(names):
        budget = cents(inst, 800, 24000) // 100 * 100  # whole dollars
        kind = n % 3  # 0: under, 1: a little over (under 10%), 2: well over
        if kind == 0:
            spent = budget - cents(inst, 10, budget // 400)
        elif kind == 1:
            spent = budget + max(5, budget * inst.rng.randint(2, 8) // 100 // 5 * 5)
        else:
            spent = budget + budget * inst.rng.randint(15, 40) // 100 // 5 * 5
        plan[name] = (budget, spent)
    limit = 1.10 if shape == "over_ten_percent" else 1.0
    over = [name for name in names if plan[name][1] > round(plan[name][0] * limit)]
    rows = [{"Line": n, "Budget": money(plan[n][0]), "Actual": money(plan[n][1]),
             "Over": money(plan[n][1] - plan[n][0])} for n in over]  # fmt: skip
    if shape == "two_sheets":
        actual_order = list(names)
        while actual_order == names:
            inst.rng.shuffle(actual_order)
        sheets = {"Budget": [["Line", "Amount"], *([n, money(plan[n][0])] for n in names)],
                  "Actuals": [["Line", "Amount"], *([n, money(plan[n][1])] for n in actual_order)]}  # fmt: skip
    else:
        sheets = {"Lines": [["Line", "Budget", "Actual"], *([n, money(b), money(a)] for n, (b, a) in plan.items())]}

    finance = onedrive_folder(inst, f"{team} finance")
    source_name = f"{team} budget vs actuals.xlsx"
    source = onedrive_file(inst, source_name, finance["id"], {"kind": "xlsx", "sheets": sheets}, inst.day(-2, 18))
    reviews = onedrive_folder(inst, "Reviews", finance["id"])
    target = f"{team} over budget.xlsx"
    rule = "more than 10% over budget" if shape == "over_ten_percent" else "over budget"
    instruction = compose(
        inst,
        [
            (f"go through '{source_name}' in OneDrive and find every line that came in {rule}",
             f"compare actuals with budget in the {team} workbook '{source_name}' and pick out the lines {rule}",
             f"check which budget lines in '{source_name}' are {rule}"),
            (f"save them as '{target}' in the Reviews folder under '{team} finance', with columns Line, Budget, "
             "Actual and Over (actual minus budget)",
             f"file a workbook '{target}' (Line, Budget, Actual, Over) in '{team} finance/Reviews'",
             f"upload '{target}' to the {team} finance Reviews folder: Line, Budget, Actual, Over, a row per line"),
        ],
        (f"the {team} budget review is on Thursday", f"finance flagged the {team} spend",
         "budget and actuals are in separate sheets" if shape == "two_sheets" else f"the {team} actuals are in"),
        by=inst.first(inst.person()),
        tail=("amounts to the cent", "leave the lines within budget out", ""),
    )  # fmt: skip

    work, path = "in/budget.xlsx", f"out/{target}"
    download = {"tool": "onedrive.download_file", "args": {"item": source["id"], "save_as": work}}
    upload = {"tool": "onedrive.upload_file", "args": {"path": path, "folder": reviews["id"]}}
    done = {"tool": "complete_task", "args": {"summary": f"Saved {target} in {team} finance/Reviews."}}
    compute = python_step(_script(work, path, shape))
    mistake = {
        "one_sheet": ("lists-every-line", "lists every line, within budget or not", "every_line"),
        "two_sheets": ("paired-by-position", "pairs the Budget and Actuals rows by position, not by line",
                       "by_position"),
        "over_ten_percent": ("every-overrun", "lists lines a little over budget too", "any_overrun"),
    }[shape]  # fmt: skip
    typed = "Line,Budget,Actual,Over\n" + "".join(
        f"{r['Line']},{r['Budget']:.2f},{r['Actual']:.2f},{r['Over']:.2f}\n" for r in rows
    )
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "checks": [
            {
                "name": "overruns_workbook_filed",
                "kind": "record",
                "app": "onedrive",
                "collection": "items",
                "new": True,
                "count": 1,
                "where": {"name": {"ieq": target}, "parent_id": reviews["id"], "blob": table_check("", rows)},
            },
        ],
        "allowed_changes": [
            {"app": "onedrive", "collection": "items", "kinds": ["add"],
             "where": {"parent_id": reviews["id"], "name": {"ieq": target}}},
        ],  # fmt: skip
        "solution": [
            {"tool": "onedrive.search_items", "args": {"query": f"{team} budget"}},
            download,
            compute,
            upload,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1],
             "steps": [download, python_step(_script(work, path, shape, mistake[2])), upload, done]},
            {"name": "typed-lines", "why": "types the lines into a CSV file instead of making the workbook",
             "steps": [{"tool": "onedrive.upload_file", "args": {"name": target.replace(".xlsx", ".csv"),
                                                                 "folder": reviews["id"], "content": typed}}, done]},
            {"name": "wrong-folder", "why": "files the workbook beside the budget, not in Reviews",
             "steps": [download, compute, {"tool": "onedrive.upload_file",
                                           "args": {"path": path, "folder": finance["id"]}}, done]},
            {"name": "stops-halfway", "why": "works out the lines but never files them",
             "steps": [download, compute, done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="onedrive-budget-overruns",
    apps=("onedrive",),
    summary="compare budget and actuals in a OneDrive workbook in the shell and file the overruns as a workbook",
    build=_build,
    decision=True,
    kind="document",
)
