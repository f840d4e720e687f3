"""Answer a question from a budget workbook in Drive: one line's amount in one quarter (a real .xlsx).

Varies: the department, the workbook's code, the budget lines and every amount, the line and quarter
asked about, the phrasing; so the answer differs in every instance. Distractors: the draft of the same
workbook (same name, other amounts) in a Drafts folder, the neighbouring cells, and another department's
budget. Held out as the validation family.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder

__all__ = ["FAMILY"]

LINES = ("Travel", "Software", "Contractors", "Events", "Training", "Hardware", "Marketing programs", "Recruiting")
DEPARTMENTS = ("Sales", "Engineering", "Finance", "Marketing", "Customer Success", "Operations")
QUARTERS = ("Q1", "Q2", "Q3", "Q4")


def _sheet(inst: Instance, lines: list[str]) -> list[list[Any]]:
    return [["Line", *QUARTERS], *([line, *(inst.amount(5_000, 180_000, 250) for _ in QUARTERS)] for line in lines)]


def _build(inst: Instance) -> dict[str, Any]:
    dept, other_dept = inst.rng.sample(DEPARTMENTS, 2)
    code, other_code = inst.code("BUD"), inst.code("BUD")
    year = inst.now.year
    lines = inst.rng.sample(LINES, 5)
    final_rows = _sheet(inst, lines)
    draft_rows = [list(r) for r in final_rows]
    row_at, col = inst.rng.randrange(1, 6), inst.rng.randrange(1, 5)
    for r in draft_rows[1:]:
        r[col] = inst.amount(5_000, 180_000, 250)
    while draft_rows[row_at][col] == final_rows[row_at][col]:
        draft_rows[row_at][col] = inst.amount(5_000, 180_000, 250)
    other_rows = _sheet(inst, inst.rng.sample(LINES, 5))
    answer = final_rows[row_at][col]
    line, quarter = lines[row_at - 1], QUARTERS[col - 1]
    budgets = drive_folder(inst, f"Budgets {year}")
    drafts = drive_folder(inst, "Drafts")
    name = f"{code} {dept} budget FY{year}.xlsx"
    final = drive_file(
        inst, name, budgets["id"], {"kind": "xlsx", "sheets": {"Budget": final_rows}}, inst.workday(-3, 14)
    )
    drive_file(inst, name, drafts["id"], {"kind": "xlsx", "sheets": {"Budget": draft_rows}}, inst.workday(-20, 11))
    drive_file(
        inst,
        f"{other_code} {other_dept} budget FY{year}.xlsx",
        budgets["id"],
        {"kind": "xlsx", "sheets": {"Budget": other_rows}},
        inst.workday(-2, 9),
    )
    instruction = inst.phrase(
        "What's budgeted for {line} in {q} in the final {dept} budget ({code})? It's in my Budgets {year} folder"
        " in Drive.",
        "Quick one: in the {dept} FY{year} budget workbook, {code}, how much did we set aside for {line} in {q}?"
        " Use the final one, not the draft.",
        "I need the {q} {line} figure from the {dept} budget, {code} (the final version in Drive). What is it?",
    ).format(line=line.lower(), q=quarter, dept=dept, code=code, year=year)
    numbers = sorted({v for rows in (final_rows, draft_rows, other_rows) for r in rows[1:] for v in r[1:]})
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "answer",
                "kind": "answer",
                "expect": [{"kind": "number", "value": answer}],
                "candidates": {"number": {"values": numbers}},
            }
        ],
        "allowed_changes": [],
        "solution": [
            {
                "tool": "drive.search_files",
                "args": {"query": code, "folder_id": budgets["id"]},
                "save": {"fid": "results.0.id"},
            },
            {"tool": "drive.read_file", "args": {"file_id": "{fid}"}},
            {"tool": "complete_task", "args": {"answer": f"${answer:,}", "summary": f"From {name}, {line} {quarter}."}},
        ],  # fmt: skip
        "alternative_solutions": [
            [
                {"tool": "drive.search_files", "args": {"query": f"{dept} budget {code}", "mime_type": "spreadsheet"}},
                {"tool": "drive.read_file", "args": {"file_id": final["id"]}},
                {"tool": "complete_task", "args": {"answer": f"{answer:,} dollars"}},
            ]
        ],
        "negative_controls": [
            {
                "name": "draft-figure",
                "why": "reads the draft of the same name",
                "steps": [{"tool": "complete_task", "args": {"answer": f"${draft_rows[row_at][col]:,}"}}],
            },
            {
                "name": "next-quarter",
                "why": "reads the neighbouring cell",
                "steps": [
                    {"tool": "complete_task", "args": {"answer": f"${final_rows[row_at][col % 4 + 1]:,}"}},
                ],
            },
            {
                "name": "whole-row",
                "why": "lists the whole line instead of the one figure",
                "steps": [
                    {"tool": "complete_task", "args": {"answer": ", ".join(f"${v:,}" for v in final_rows[row_at][1:])}}
                ],
            },
        ],
    }


FAMILY = Family(
    name="drive-budget-cell-answer",
    apps=("drive",),
    summary="answer one line's quarterly amount from the final budget workbook in Drive (a real .xlsx)",
    build=_build,
    split="validation",
)
