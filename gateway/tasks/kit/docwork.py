"""Document work in the shell: the steps and values the ``document`` families share.

A document family's reference downloads a file into the workspace, runs a Python script there with a shell step
(the sandbox's ``python3`` has openpyxl, python-docx and pypdf), and files the new document; its controls run the
same script with one real mistake in it. Scripts are plain Python text; they must not hold ``{name}`` (the step
language would read it as a saved value), so they build dicts with ``dict()`` and format with ``%``.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from gateway.tasks.kit.base import Instance

__all__ = ["MONTHS", "cents", "exposure", "money", "python_step", "table_check"]

#: Month names for periods in names ("March"), in calendar order.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip
_VAR = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def python_step(script: str) -> dict[str, Any]:
    """A shell step running ``script`` (dedented) with the sandbox's ``python3``, in the workspace.

    Raises:
        ValueError: the script holds ``{name}``, which the step language would replace.
    """
    body = textwrap.dedent(script).strip()
    if _VAR.search(body):
        raise ValueError(f"python_step: {_VAR.search(body)!r} would be read as a saved value; use dict() or %")
    return {"shell": f"python3 - <<'PY'\n{body}\nPY"}


def exposure(inst: Instance) -> str:
    """The instance's exposure: ``cli`` or ``http`` by seed (document work needs a shell)."""
    return ("cli", "http")[inst.seed % 2]


def cents(inst: Instance, low: int, high: int) -> int:
    """An amount in cents between ``low`` and ``high`` dollars, never a whole dollar (so totals carry cents)."""
    return inst.rng.randint(low * 100, high * 100) // 5 * 5 + inst.rng.choice((5, 15, 35, 55, 75, 95))


def money(amount_cents: int) -> float:
    """Cents as dollars (a float with two decimals), as a workbook holds them."""
    return round(amount_cents / 100, 2)


def table_check(
    name: str, rows: list[dict[str, Any]], *, only: bool = True, numbers: bool = False,
    optional: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The ``table_rows`` matcher for a made file's rows: text (folded), a ``num`` for numbers, None for empty.

    ``name`` is the table (a sheet's title) the rows must be in, ``""`` any table of the file; ``only``: no
    other row may be there; ``numbers``: the request asks for numbers, so a number must be a number cell
    (``gte`` holds only for one), not text that reads as one (``'44.5'``); ``optional``: rows that may be
    there too (matchers as given), such as a grand total the request did not rule out.
    """

    def matcher(value: Any) -> dict[str, Any]:
        if value is None:
            return {"exists": False}
        if isinstance(value, int | float) and not isinstance(value, bool):
            return {"num": value, "gte": value - 0.005} if numbers else {"num": value}
        return {"ieq": str(value)}

    wanted = [{k: matcher(v) for k, v in row.items()} for row in rows]
    # every family files a workbook or a .docx: CSV text under that name (typed, not computed) is no table
    spec: dict[str, Any] = {"rows": wanted, "only": only, "packed": True}
    if optional:
        spec["optional"] = optional
    return {"table_rows": {"table": name, **spec} if name else spec}
