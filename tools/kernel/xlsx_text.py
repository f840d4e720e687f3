"""A plain .xlsx workbook's cell values read straight from its XML: what openpyxl's read-only mode gives.

openpyxl builds a workbook's styles, theme and properties before a cell can be read (~4 ms for a one-sheet
workbook of a few rows). :func:`workbook_values` reads the workbook's sheet list and each worksheet's cells
alone, as ``openpyxl.load_workbook(read_only=True, data_only=True)`` and ``iter_rows(values_only=True)`` give
them: rows 1 to the sheet's recorded dimension, missing rows and cells as None, numbers as int or float,
booleans, inline and shared strings.

It reads only plain workbooks: no cell styles (a style may make a number a date), formulas, error or date
cells, rich text, or sheets it cannot place. For anything else it answers None and the caller reads the file
with openpyxl. ``tests/tools/kernel/test_xlsx_text.py`` compares the two.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from typing import Any

from lxml import etree

__all__ = ["workbook_values"]

_S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_WORKBOOK = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
_STRINGS = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_WORKSHEET = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
_PARSER = etree.XMLParser(resolve_entities=False)


class _NotPlain(Exception):
    """The workbook holds something only openpyxl reads right."""


def workbook_values(data: bytes) -> list[tuple[str, list[Sequence[Any]]]] | None:
    """Each sheet's title and rows of values, as openpyxl's read-only mode gives them; None: use openpyxl.

    Args:
        data: The workbook's bytes (the caller has checked they unpack small).

    Returns:
        ``[(title, [row, ...]), ...]`` in the workbook's sheet order, a row a tuple of values (None for an empty
        cell; a missing row of a sheet with no recorded dimension is ``[]``, as openpyxl gives it); None when
        the workbook is not plain (see the module's text) or does not parse.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return _read(archive)
    except (_NotPlain, KeyError, ValueError, IndexError, zipfile.BadZipFile, OSError, EOFError, etree.XMLSyntaxError):
        return None


def _xml(archive: zipfile.ZipFile, name: str) -> Any:
    return etree.fromstring(archive.read(name), _PARSER)


def _read(archive: zipfile.ZipFile) -> list[tuple[str, list[Sequence[Any]]]]:
    types = _xml(archive, "[Content_Types].xml")
    overrides = {o.get("PartName"): o.get("ContentType") for o in types.iter(_CT + "Override")}
    if overrides.get("/xl/workbook.xml") != _WORKBOOK:
        raise _NotPlain
    strings_parts = sorted(name for name, kind in overrides.items() if kind == _STRINGS and name)
    strings = _strings(archive, strings_parts[0][1:]) if len(strings_parts) == 1 else None
    if len(strings_parts) > 1:
        raise _NotPlain
    targets = {}
    for rel in _xml(archive, "xl/_rels/workbook.xml.rels").iter(_PR + "Relationship"):
        targets[rel.get("Id")] = (rel.get("Type"), rel.get("Target") or "")
    book = _xml(archive, "xl/workbook.xml")
    if book.tag != _S + "workbook":
        raise _NotPlain
    out = []
    for sheet in book.iterfind(f"{_S}sheets/{_S}sheet"):
        kind, target = targets[sheet.get(_R + "id")]
        if kind != _WORKSHEET:
            raise _NotPlain  # a chartsheet, or a sheet openpyxl places another way
        path = target[1:] if target.startswith("/") else "xl/" + target
        out.append((sheet.get("name"), _rows(_xml(archive, path), strings)))
    return out


def _strings(archive: zipfile.ZipFile, name: str) -> list[str]:
    out = []
    for item in _xml(archive, name).iterchildren(_S + "si"):
        children = list(item)
        if len(children) != 1 or children[0].tag != _S + "t":
            raise _NotPlain  # rich text or phonetic runs
        out.append(children[0].text or "")
    return out


def _rows(sheet: Any, strings: list[str] | None) -> list[Sequence[Any]]:
    """The sheet's rows as openpyxl's ``ReadOnlyWorksheet.iter_rows(values_only=True)`` yields them."""
    if sheet.tag != _S + "worksheet":
        raise _NotPlain
    dimension = sheet.find(_S + "dimension")
    max_col = max_row = None
    if dimension is not None:
        _, _, max_col, max_row = _boundaries(dimension.get("ref") or "")
    data = sheet.find(_S + "sheetData")
    empty: Sequence[Any] = (None,) * max_col if max_col is not None else []  # openpyxl's own filler, list and all
    out: list[Sequence[Any]] = []
    counter, idx = 1, 1
    for row in data.iterchildren(_S + "row") if data is not None else ():
        idx = int(row.get("r") or "x")
        if max_row is not None and idx > max_row:
            break
        while counter < idx:
            counter += 1
            out.append(empty)
        if counter <= idx:
            out.append(_row(row, max_col, strings))
            counter += 1
    if max_row is not None and max_row < idx:
        out.extend(empty for _ in range(counter, max_row + 1))
    return out


def _row(row: Any, max_col: int | None, strings: list[str] | None) -> tuple[Any, ...]:
    cells = [_cell(c, strings) for c in row]
    if not cells and not max_col:
        return ()
    width = max_col or cells[-1][0]
    values: list[Any] = [None] * width
    for column, value in cells:
        if 1 <= column <= width:
            values[column - 1] = value
    return tuple(values)


def _cell(c: Any, strings: list[str] | None) -> tuple[int, Any]:
    if c.tag != _S + "c" or c.get("s") not in (None, "0") or c.find(_S + "f") is not None:
        raise _NotPlain
    column = _column(c.get("r") or "")
    kind = c.get("t", "n")
    if kind == "inlineStr":
        inline = c.find(_S + "is")
        if inline is None:
            return column, None
        parts = list(inline)
        if any(p.tag != _S + "t" for p in parts) or len(parts) > 1:
            raise _NotPlain
        return column, (parts[0].text or "") if parts else ""
    value = c.findtext(_S + "v", None) or None
    if value is None:
        return column, None
    if kind == "n":
        return column, float(value) if "." in value or "E" in value or "e" in value else int(value)
    if kind == "s" and strings is not None:
        return column, strings[int(value)]
    if kind == "str":
        return column, value
    if kind == "b":
        return column, bool(int(value))
    raise _NotPlain  # errors, dates, or a shared string with no table


def _column(ref: str) -> int:
    letters = ref.rstrip("0123456789")
    if not letters or not letters.isalpha() or not letters.isupper() or len(letters) > 3 or ref == letters:
        raise _NotPlain  # no reference: openpyxl counts columns itself
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _boundaries(ref: str) -> tuple[int, int, int, int]:
    """``A1:C5`` (or ``B2``) as (min column, min row, max column, max row)."""
    first, _, last = ref.replace("$", "").partition(":")
    last = last or first
    cells = []
    for part in (first, last):
        letters = part.rstrip("0123456789")
        digits = part[len(letters) :]
        if not letters or not digits:
            raise _NotPlain  # a whole row or column, or nothing: openpyxl's own rules
        cells.append((_column(part), int(digits)))
    return cells[0][0], cells[0][1], cells[1][0], cells[1][1]
