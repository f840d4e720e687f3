"""Answer a question from a budget workbook in Drive: one line's amount in one quarter (a real .xlsx).

Varies: the department, the workbook's code, the budget lines and every amount, the line and quarter
asked about, the phrasing; so the answer differs in every instance. Distractors: the draft of the same
workbook (same name, other amounts) in a Drafts folder (control: ``draft-figure``), the neighbouring cells
(``next-quarter``), and another department's budget. Held out as the validation family.

Scenario shapes (picked by the seed):

- ``draft_folder``: only the distractors above.
- ``actuals_sheet``: the final workbook has an Actuals sheet of the same layout after its Budget sheet
  (control: ``actuals-figure`` reads the same cell of Actuals).
- ``last_year``: last year's final budget of the same department (another code) sits in a Budgets folder of
  its own (control: ``last-year-figure``).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.files import drive_file, drive_folder
from gateway.tasks.kit.phrasing import compose

__all__ = ["FAMILY"]

LINES = ("Travel", "Software", "Contractors", "Events", "Training", "Hardware", "Marketing programs", "Recruiting")
DEPARTMENTS = ("Sales", "Engineering", "Finance", "Marketing", "Customer Success", "Operations")
SHAPES = ("draft_folder", "actuals_sheet", "last_year")
QUARTERS = ("Q1", "Q2", "Q3", "Q4")


def _sheet(inst: Instance, lines: list[str]) -> list[list[Any]]:
    return [["Line", *QUARTERS], *([line, *(inst.amount(5_000, 180_000, 250) for _ in QUARTERS)] for line in lines)]


def _decoy(inst: Instance, rows: list[list[Any]], at: tuple[int, int]) -> list[list[Any]]:
    """Another sheet of the same lines, every amount redrawn; the asked cell always differs from ``rows``'."""
    out = [list(rows[0]), *([r[0], *(inst.amount(5_000, 180_000, 250) for _ in QUARTERS)] for r in rows[1:])]
    if out[at[0]][at[1]] == rows[at[0]][at[1]]:
        out[at[0]][at[1]] += 250
    return out


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
    shape = SHAPES[inst.seed % len(SHAPES)]
    sheets: dict[str, Any] = {"Budget": final_rows}
    decoy_rows: list[list[Any]] = []
    if shape == "actuals_sheet":
        decoy_rows = _decoy(inst, final_rows, (row_at, col))
        sheets["Actuals"] = decoy_rows
    final = drive_file(inst, name, budgets["id"], {"kind": "xlsx", "sheets": sheets}, inst.workday(-3, 14))
    drive_file(inst, name, drafts["id"], {"kind": "xlsx", "sheets": {"Budget": draft_rows}}, inst.workday(-20, 11))
    drive_file(
        inst,
        f"{other_code} {other_dept} budget FY{year}.xlsx",
        budgets["id"],
        {"kind": "xlsx", "sheets": {"Budget": other_rows}},
        inst.workday(-2, 9),
    )
    if shape == "last_year":
        last_rows = _decoy(inst, final_rows, (row_at, col))
        old = drive_folder(inst, f"Budgets {year - 1}")
        drive_file(inst, f"{inst.code('BUD')} {dept} budget FY{year - 1}.xlsx", old["id"],
                   {"kind": "xlsx", "sheets": {"Budget": last_rows}}, inst.day(-300, 10))  # fmt: skip
        decoy_rows = last_rows
    low = line.lower()
    instruction = compose(
        inst,
        [
            (
                f"tell me what's budgeted for {low} in {quarter} in the final {dept} budget ({code})",
                f"find out how much we set aside for {low} in {quarter} in the {dept} FY{year} budget workbook,"
                f" {code}",
                f"look up the {quarter} {low} figure in the {dept} budget, {code}",
                f"get me the {low} amount for {quarter} from {code}, the {dept} budget",
            ),
        ],
        (
            f"it's in my Budgets {year} folder in Drive",
            f"I'm checking the {dept} numbers for FY{year}",
            f"{dept} asked what they have left for {low}",
            "",
        ),
        tail=("use the final one, not the draft", "just the one figure", "the budgeted amount, not what was spent",
              ""),
    )  # fmt: skip
    numbers = sorted({v for rows in (final_rows, draft_rows, other_rows, decoy_rows) for r in rows[1:] for v in r[1:]})
    extra = []
    if decoy_rows:
        extra.append({
            "name": "actuals-figure" if shape == "actuals_sheet" else "last-year-figure",
            "why": "reads the same cell of the Actuals sheet" if shape == "actuals_sheet"
            else "reads last year's budget of the same department",
            "steps": [{"tool": "complete_task", "args": {"answer": f"${decoy_rows[row_at][col]:,}"}}],
        })  # fmt: skip
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
            *extra,
        ],
    }


FAMILY = Family(
    name="drive-budget-cell-answer",
    apps=("drive",),
    summary="answer one line's quarterly amount from the final budget workbook in Drive (a real .xlsx)",
    build=_build,
    split="validation",
)
