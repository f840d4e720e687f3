"""List who worked overtime from a OneDrive timesheet workbook, as a new workbook in the payroll folder.

Document work in the shell: the agent downloads the timesheet, adds up each person's hours for the week (Python
with openpyxl in the sandbox), and uploads a new workbook listing only the people over 40 hours with their hours
and overtime. Graded on the new workbook's rows (exactly those people, hours and overtime) and its folder.

Scenario shapes (picked by the seed):

- ``daily_rows``: one row per person and day (Date, Employee, Hours).
- ``weekly_columns``: one row per person with a column per weekday (Mon ... Fri).
- ``two_weeks``: daily rows for two weeks (a Week column); only the week asked about counts.

Varies: the team, the people, the hours (half hours), the week, the phrasing (composed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import exposure, python_step, table_check
from gateway.tasks.kit.files import onedrive_file, onedrive_folder
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import project_names

__all__ = ["FAMILY"]

SHAPES = ("daily_rows", "weekly_columns", "two_weeks")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri")
LIMIT = 40


def _script(source: str, target: str, week: str, mistake: str = "") -> str:
    """Python that lists who is over 40 hours in ``source`` (for ``week`` when the sheet has weeks) into ``target``.

    Mistakes: ``everyone`` (every person listed, overtime 0 for most), ``no_friday`` (Friday left out of the
    weekday columns), ``both_weeks`` (the two weeks added together), ``text`` (the hours written as text cells).
    """
    days = "['Mon', 'Tue', 'Wed', 'Thu']" if mistake == "no_friday" else "['Mon', 'Tue', 'Wed', 'Thu', 'Fri']"
    week_test = "True" if mistake == "both_weeks" else f"rec.get('Week') in (None, {week!r})"
    keep = "True" if mistake == "everyone" else f"hours > {LIMIT}"
    cells = f"[name, hours, max(hours - {LIMIT}, 0)]"
    if mistake == "text":
        cells = f"[name, str(hours), str(max(hours - {LIMIT}, 0))]"
    return f"""
        import os
        import openpyxl

        sheet = openpyxl.load_workbook({source!r}, data_only=True).worksheets[0]
        rows = list(sheet.iter_rows(values_only=True))
        head = [str(h) for h in rows[0]]
        totals = dict()
        for row in rows[1:]:
            rec = dict(zip(head, row))
            if not rec.get('Employee'):
                continue
            if 'Hours' in rec:
                if {week_test}:
                    totals[rec['Employee']] = totals.get(rec['Employee'], 0) + rec['Hours']
            else:
                totals[rec['Employee']] = sum(rec[d] or 0 for d in {days})
        out = openpyxl.Workbook()
        sheet = out.active
        sheet.title = 'Overtime'
        sheet.append(['Employee', 'Hours', 'Overtime'])
        for name in sorted(totals):
            hours = totals[name]
            if {keep}:
                sheet.append({cells})
        os.makedirs('out', exist_ok=True)
        out.save({target!r})
    """


def _week_hours(inst: Instance, over: bool) -> list[float]:
    """Five days of half-hour shifts adding up to more than 40 (``over``) or less."""
    while True:
        days = [inst.rng.randint(14, 22) / 2 if over else inst.rng.randint(12, 17) / 2 for _ in DAYS]
        if (sum(days) > LIMIT + 0.5) if over else (sum(days) < LIMIT - 0.5):
            return days


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    (team,) = project_names(inst, 1)
    people = sorted(inst.people(inst.rng.randint(5, 7)), key=lambda p: p["name"])
    overs = set(inst.rng.sample(range(len(people)), inst.rng.randint(2, 3)))
    monday = inst.day(-7 - inst.now.weekday())  # last week's
    earlier = monday - timedelta(days=7)
    week, other_week = (f"Week of {d.strftime('%B')} {d.day}" for d in (monday, earlier))
    hours = {p["name"]: _week_hours(inst, i in overs) for i, p in enumerate(people)}
    if shape == "weekly_columns":
        sheet = [["Employee", *DAYS], *([name, *days] for name, days in hours.items())]
    else:
        head = ["Week", "Date", "Employee", "Hours"] if shape == "two_weeks" else ["Date", "Employee", "Hours"]
        sheet = [head]
        for n in range(len(DAYS)):
            for name, days in hours.items():
                date = (monday + timedelta(days=n)).strftime("%a %b %d")
                sheet.append([*([week] if shape == "two_weeks" else []), date, name, days[n]])
        if shape == "two_weeks":  # the other week: everyone over 40, so adding it in lists everyone
            for n in range(len(DAYS)):
                for name in hours:
                    sheet.append([other_week, (earlier + timedelta(days=n)).strftime("%a %b %d"), name, 9.0])
    over = [{"Employee": name, "Hours": sum(days), "Overtime": sum(days) - LIMIT}
            for name, days in sorted(hours.items()) if sum(days) > LIMIT]  # fmt: skip

    payroll = onedrive_folder(inst, f"{team} payroll")
    timesheets = onedrive_folder(inst, "Timesheets", payroll["id"])
    source_name = f"{team} timesheet.xlsx"
    source = onedrive_file(inst, source_name, timesheets["id"], {"kind": "xlsx", "sheets": {"Hours": sheet}},
                           inst.day(-1, 17))  # fmt: skip
    target = f"{team} overtime.xlsx"
    which = f" for the week of {monday.strftime('%B')} {monday.day}" if shape == "two_weeks" else ""
    instruction = compose(
        inst,
        [
            (f"work out from '{source_name}' in OneDrive who went over {LIMIT} hours{which}",
             f"check the {team} timesheet ('{source_name}', OneDrive) for anyone above {LIMIT} hours{which}",
             f"find everyone in '{source_name}' who logged more than {LIMIT} hours{which}"),
            (f"save a workbook '{target}' in the '{team} payroll' folder listing just those people, with columns "
             "Employee, Hours and Overtime (hours over 40)",
             f"put them in a new '{target}' in '{team} payroll': Employee, Hours, Overtime (the hours past 40), "
             "one row per person over",
             f"upload '{target}' to OneDrive's '{team} payroll' folder with an Employee, Hours and Overtime "
             "column, only for the people over 40"),
        ],
        (f"payroll needs the {team} overtime before the run", f"the {team} timesheet for last week is in",
         "overtime has to be approved before payroll closes"),
        by=inst.first(people[0]),
        tail=("nobody under the limit in it", "hours as numbers, please", ""),
    )  # fmt: skip

    work = "in/timesheet.xlsx"
    path = f"out/{target}"
    download = {"tool": "onedrive.download_file", "args": {"item": source["id"], "save_as": work}}
    upload = {"tool": "onedrive.upload_file", "args": {"path": path, "folder": payroll["id"]}}
    done = {"tool": "complete_task", "args": {"summary": f"Saved {target} in {team} payroll."}}
    compute = python_step(_script(work, path, week))
    mistake = {
        "daily_rows": ("lists-everyone", "lists every person, not only those over 40", "everyone"),
        "weekly_columns": ("misses-friday", "adds up Monday to Thursday only", "no_friday"),
        "two_weeks": ("both-weeks", "adds both weeks' hours together", "both_weeks"),
    }[shape]  # fmt: skip
    numbers = "as numbers" in instruction  # then a text cell reading '44.5' is not what was asked
    as_text = [{"name": "hours-as-text", "why": "writes the hours and overtime as text cells, not numbers",
                "steps": [download, python_step(_script(work, path, week, "text")), upload, done]}] if numbers else []
    typed = "Employee,Hours,Overtime\n" + "".join(f"{r['Employee']},{r['Hours']},{r['Overtime']}\n" for r in over)
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "checks": [
            {
                "name": "overtime_workbook_filed",
                "kind": "record",
                "app": "onedrive",
                "collection": "items",
                "new": True,
                "count": 1,
                "where": {
                    "name": {"ieq": target},
                    "parent_id": payroll["id"],
                    "blob": table_check("", over, numbers=numbers),
                },
            },
        ],
        "allowed_changes": [
            {"app": "onedrive", "collection": "items", "kinds": ["add"],
             "where": {"parent_id": payroll["id"], "name": {"ieq": target}}},
        ],  # fmt: skip
        "solution": [
            {"tool": "onedrive.search_items", "args": {"query": f"{team} timesheet"}},
            download,
            compute,
            upload,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1],
             "steps": [download, python_step(_script(work, path, week, mistake[2])), upload, done]},
            {"name": "typed-list", "why": "types the list into a CSV file instead of making the workbook",
             "steps": [{"tool": "onedrive.upload_file", "args": {"name": target.replace(".xlsx", ".csv"),
                                                                 "folder": payroll["id"], "content": typed}}, done]},
            {"name": "wrong-folder", "why": "files the right workbook beside the timesheet, not in the payroll folder",
             "steps": [download, compute, {"tool": "onedrive.upload_file",
                                           "args": {"path": path, "folder": timesheets["id"]}}, done]},
            {"name": "stops-halfway", "why": "works out the list but never files it",
             "steps": [download, compute, done]},
            *as_text,
        ],  # fmt: skip
    }


FAMILY = Family(
    name="onedrive-timesheet-overtime",
    apps=("onedrive",),
    summary="list who is over 40 hours in a OneDrive timesheet workbook, as a new workbook in the payroll folder",
    build=_build,
    decision=True,
    kind="document",
)
