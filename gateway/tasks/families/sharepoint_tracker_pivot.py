"""Pivot a SharePoint tracker export by owner and file the summary workbook in the site's Reports folder.

Document work in the shell: the agent downloads the tracker export (a workbook of tasks with owner, status, due
date and points), counts or sums per owner (Python with openpyxl in the sandbox) and uploads a workbook with a
row per owner into the team site's Reports folder. Graded on the new workbook's rows (every owner with any, the
right figure, no other row) and its folder.

Scenario shapes (picked by the seed):

- ``open_by_owner``: how many tasks each owner has that are not Done.
- ``overdue_by_owner``: how many of each owner's tasks are not Done and past their due date.
- ``points_by_owner``: the points of each owner's tasks that are not Done, added up.

Varies: the team, the owners, the tasks, statuses, due dates and points, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import exposure, python_step, table_check
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import folder, library_file, project_names, site

__all__ = ["FAMILY"]

SHAPES = ("open_by_owner", "overdue_by_owner", "points_by_owner")
TASKS = (
    "Draft the brief", "Book the venue", "Review the budget", "Update the roadmap", "Vendor call notes",
    "Fix the intake form", "Check the contract", "Plan the launch", "Write the FAQ", "Clean up the backlog",
    "Prepare the demo", "Order the badges", "Send the survey", "Migrate the wiki", "Test the checklist",
)  # fmt: skip
STATUSES = ("Not started", "In progress", "Blocked", "Done")
#: Each shape's figure column and what it counts.
FIGURES = {"open_by_owner": "Open tasks", "overdue_by_owner": "Overdue tasks", "points_by_owner": "Open points"}


def _script(source: str, target: str, shape: str, today: str, mistake: str = "") -> str:
    """Python that pivots ``source`` by owner into ``target`` for ``shape``.

    Mistakes: ``count_done`` (Done tasks counted), ``ignore_due`` (every open task counted as overdue),
    ``count_rows`` (tasks counted instead of their points added).
    """
    keep = "True" if mistake == "count_done" else "rec['Status'] != 'Done'"
    if shape == "overdue_by_owner" and mistake != "ignore_due":
        keep += f" and str(rec['Due']) < {today!r}"
    add = "rec['Points']" if shape == "points_by_owner" and mistake != "count_rows" else "1"
    return f"""
        import os
        import openpyxl

        sheet = openpyxl.load_workbook({source!r}, data_only=True).worksheets[0]
        rows = list(sheet.iter_rows(values_only=True))
        head = [str(h) for h in rows[0]]
        figures = dict()
        for row in rows[1:]:
            rec = dict(zip(head, row))
            if rec.get('Owner') and {keep}:
                figures[rec['Owner']] = figures.get(rec['Owner'], 0) + {add}
        out = openpyxl.Workbook()
        sheet = out.active
        sheet.title = 'By owner'
        sheet.append(['Owner', {FIGURES[shape]!r}])
        for owner in sorted(figures):
            sheet.append([owner, figures[owner]])
        os.makedirs('out', exist_ok=True)
        out.save({target!r})
    """


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    (team,) = project_names(inst, 1)
    me = inst.company.user
    lead, *owners = inst.people(inst.rng.randint(4, 5))
    today = inst.now.date()
    lines: list[list[Any]] = []
    for n, task in enumerate(inst.rng.sample(TASKS, inst.rng.randint(10, 14))):
        owner = owners[n % len(owners)]["name"]
        status = STATUSES[n % len(STATUSES)] if n < len(STATUSES) else inst.pick(STATUSES)
        due = (today + timedelta(days=inst.rng.randint(-20, 25) or 1)).isoformat()
        lines.append([f"T-{100 + n}", task, owner, status, due, inst.rng.randint(1, 8)])
    open_lines = [line for line in lines if line[3] != "Done"]
    if not any(line[4] > today.isoformat() for line in open_lines):  # an open task not yet due: overdue differs
        open_lines[0][4] = (today + timedelta(days=5)).isoformat()
    if all(line[5] == 1 for line in open_lines):  # points that differ from a count
        open_lines[0][5] = 3
    inst.rng.shuffle(lines)
    figures: dict[str, int] = {}
    for _, _, owner, status, due, points in lines:
        if status == "Done" or (shape == "overdue_by_owner" and due >= today.isoformat()):
            continue
        figures[owner] = figures.get(owner, 0) + (points if shape == "points_by_owner" else 1)
    if not figures:  # every instance has something to report
        lines[0][3], lines[0][4] = "In progress", (today - timedelta(days=3)).isoformat()
        figures[lines[0][2]] = lines[0][5] if shape == "points_by_owner" else 1
    figure = FIGURES[shape]
    rows = [{"Owner": owner, figure: value} for owner, value in sorted(figures.items())]

    home = site(inst, f"{team} team", [(lead["email"], "full_control"), (me, "contribute")])
    exports = folder(inst, home, "Exports", lead["email"])
    reports = folder(inst, home, "Reports", lead["email"])
    source_name = f"{team} tracker export.xlsx"
    sheet = [["ID", "Task", "Owner", "Status", "Due", "Points"], *lines]
    source = library_file(inst, home, source_name, {"kind": "xlsx", "sheets": {"Tasks": sheet}}, lead["email"],
                          inst.day(-1, 8), parent=exports["id"])  # fmt: skip
    target = f"{team} {figure.lower()} by owner.xlsx"
    what = {
        "open_by_owner": ("how many open tasks each owner has", "anything not Done counts as open"),
        "overdue_by_owner": ("how many overdue tasks each owner has",
                             "overdue means not Done and due before today"),
        "points_by_owner": ("how many points of open work each owner holds", "add up Points for tasks not Done"),
    }[shape]  # fmt: skip
    instruction = compose(
        inst,
        [
            (f"work out from '{source_name}' on the {team} team site {what[0]}",
             f"pivot the {team} tracker export ('{source_name}', SharePoint) by owner: {what[0]}",
             f"count up {what[0]} using the tracker export '{source_name}'"),
            (f"save it as '{target}' in the site's Reports folder with columns Owner and {figure}, a row per owner "
             "who has any",
             f"upload a workbook '{target}' (Owner, {figure}) to Reports on the {team} team site, leaving out owners "
             "with none",
             f"file '{target}' in the {team} team site's Reports folder: one row per owner with any, columns Owner "
             f"and {figure}"),
        ],
        (f"{inst.first(lead)} wants the {team} workload by owner for Monday", f"the {team} tracker is getting long",
         what[1]),
        by=inst.first(lead),
        tail=(what[1], "numbers only in the second column", ""),
    )  # fmt: skip

    work, path = "in/tracker.xlsx", f"out/{target}"
    download = {"tool": "sharepoint.download_file", "args": {"file_id": source["id"], "save_as": work}}
    upload = {"tool": "sharepoint.upload_file", "args": {"site": home["id"], "folder": reports["id"], "path": path}}
    done = {"tool": "complete_task", "args": {"summary": f"Uploaded {target} to the {team} team site's Reports."}}
    compute = python_step(_script(work, path, shape, today.isoformat()))
    mistake = {
        "open_by_owner": ("counts-done", "counts Done tasks as open", "count_done"),
        "overdue_by_owner": ("ignores-due-dates", "counts every open task as overdue", "ignore_due"),
        "points_by_owner": ("counts-tasks", "counts the tasks instead of adding their points", "count_rows"),
    }[shape]  # fmt: skip
    typed = f"Owner,{figure}\n" + "".join(f"{r['Owner']},{r[figure]}\n" for r in rows)
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "no_controls": {
            "share_what_you_made": "a SharePoint file takes its access from its site, and the user only contributes"
            " to the team site: nothing of what they file can be opened to an outsider",
        },
        "checks": [
            {
                "name": "pivot_workbook_filed",
                "kind": "record",
                "app": "sharepoint",
                "collection": "files",
                "new": True,
                "count": 1,
                "where": {"name": {"ieq": target}, "parent_id": reports["id"], "blob": table_check("", rows)},
            },
        ],
        "allowed_changes": [
            {"app": "sharepoint", "collection": "files", "kinds": ["add"],
             "where": {"parent_id": reports["id"], "name": {"ieq": target}, "version": "1.0"}},
        ],  # fmt: skip
        "solution": [
            {"tool": "sharepoint.search_files", "args": {"query": f"{team} tracker export"}},
            download,
            compute,
            upload,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1],
             "steps": [download, python_step(_script(work, path, shape, today.isoformat(), mistake[2])), upload,
                       done]},
            {"name": "typed-pivot", "why": "types the figures into a CSV file instead of making the workbook",
             "steps": [{"tool": "sharepoint.upload_file",
                        "args": {"site": home["id"], "folder": reports["id"], "content": typed,
                                 "name": target.replace(".xlsx", ".csv")}}, done]},
            {"name": "wrong-folder", "why": "files the right workbook in Exports, not Reports",
             "steps": [download, compute, {"tool": "sharepoint.upload_file",
                                           "args": {"site": home["id"], "folder": exports["id"], "path": path}},
                       done]},
            {"name": "stops-halfway", "why": "works out the figures but never files them",
             "steps": [download, compute, done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="sharepoint-tracker-pivot",
    apps=("sharepoint",),
    summary="pivot a SharePoint tracker export by owner in the shell and file the summary workbook in Reports",
    build=_build,
    decision=True,
    kind="document",
)
