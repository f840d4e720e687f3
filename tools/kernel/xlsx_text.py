"""A plain .xlsx workbook's cell values read straight from its XML: what openpyxl's read-only mode gives.

openpyxl builds a workbook's styles, theme and properties before a cell can be read (~4 ms for a one-sheet
workbook of a few rows). :func:`workbook_values` reads the workbook's sheet list and each worksheet's cells
alone, as ``openpyxl.load_workbook(read_only=True, data_only=True)`` and ``iter_rows(values_only=True)`` give
them: rows 1 to the sheet's recorded dimension, missing rows and cells as None, numbers as int or float,
booleans, inline and shared strings.

It reads only plain workbooks (:func:`tools.kernel.opc.package` checks the package as openpyxl would open it):
no cell styles, and a first cell format that shows numbers as they are (a style may make a number a date),
no formulas, error or date cells, rich text, DTDs or other encodings than UTF-8, comments or entities inside a
value, rows or dimensions outside their usual places, one workbook main part, sheets it can place. Rows are
read as openpyxl reads them, past the dimension's last row by one (so a bad value there refuses the file as
openpyxl does). For anything else it answers None and the caller reads the file with openpyxl. Left: a bad
attribute value openpyxl validates in a part this does not read (a sheet's margins, column widths, the
workbook's views) makes openpyxl refuse a file this reads. ``tests/tools/kernel/test_xlsx_text.py`` and
``test_fast_readers_on_builtin_documents.py`` compare the two.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from typing import Any

from tools.kernel.opc import NotPlain, Package, package

__all__ = ["workbook_values"]

_S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_WORKBOOK = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
_STRINGS = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_WORKSHEET = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
_STYLES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
_BOOK = "/xl/workbook.xml"
_STATES = ("visible", "hidden", "veryHidden")


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
            return _read(package(archive, ("/", _BOOK)))
    except (NotPlain, KeyError, ValueError, IndexError, zipfile.BadZipFile, OSError, EOFError, RuntimeError):
        return None


def _read(found: Package) -> list[tuple[str, list[Sequence[Any]]]]:
    mains = sorted(part for part, kind in found.overrides.items() if kind.endswith(".main+xml") and "sheet" in kind)
    if mains != [_BOOK] or found.overrides[_BOOK] != _WORKBOOK:
        raise NotPlain  # openpyxl picks the macro-enabled or template main part first: one alone is plain
    strings_parts = sorted(part for part, kind in found.overrides.items() if kind == _STRINGS)
    if len(strings_parts) > 1:
        raise NotPlain
    strings = _strings(found.xml(strings_parts[0])) if strings_parts else None
    rels = {rid: (kind, part) for rid, kind, part in found.rels.get(_BOOK, [])}
    styles = [part for kind, part in rels.values() if kind == _STYLES]
    if styles and not _general_first(found.xml(styles[0])):
        raise NotPlain  # style 0, every unstyled cell's, formats numbers as dates or times
    book = found.xml(_BOOK)
    lists = list(book.iter(_S + "sheets"))
    if book.tag != _S + "workbook" or len(lists) != 1 or lists[0].getparent() is not book:
        raise NotPlain
    out = []
    for sheet in lists[0]:
        name, number, state = sheet.get("name"), sheet.get("sheetId") or "", sheet.get("state", "visible")
        if sheet.tag != _S + "sheet" or not name or not number.isdigit() or state not in _STATES:
            raise NotPlain  # openpyxl counts any element named sheet, and refuses bad attributes
        kind, part = rels[sheet.get(_R + "id")]
        if kind != _WORKSHEET:
            raise NotPlain  # a chartsheet, or a sheet openpyxl places another way
        out.append((name, _rows(found.xml(part), strings)))
    return out


def _general_first(styles: Any) -> bool:
    """Whether the first cell format of a styles part shows numbers as they are (number format 0, General)."""
    first = styles.find(f"{_S}cellXfs/{_S}xf")
    return first is None or first.get("numFmtId") in (None, "0")


def _text(element: Any) -> str:
    """An element's text; NotPlain when it holds anything but text (a comment, an entity: parsers differ there)."""
    if len(element):
        raise NotPlain
    return str(element.text or "")


def _strings(table: Any) -> list[str]:
    items = list(table)
    nested = len(list(table.iter(_S + "si"))) != len(items)
    if table.tag != _S + "sst" or any(i.tag != _S + "si" for i in items) or nested:
        raise NotPlain
    out = []
    for item in items:
        children = list(item)
        if len(children) != 1 or children[0].tag != _S + "t":
            raise NotPlain  # rich text or phonetic runs
        out.append(_text(children[0]).replace("x005F_", ""))  # as openpyxl's string table reads it
    return out


def _rows(sheet: Any, strings: list[str] | None) -> list[Sequence[Any]]:
    """The sheet's rows as openpyxl's ``ReadOnlyWorksheet.iter_rows(values_only=True)`` yields them."""
    datas = list(sheet.iter(_S + "sheetData"))
    if sheet.tag != _S + "worksheet" or len(datas) > 1 or (datas and datas[0].getparent() is not sheet):
        raise NotPlain
    data = datas[0] if datas else None
    rows = list(data.iterchildren(_S + "row")) if data is not None else []
    if len(rows) != len(list(sheet.iter(_S + "row"))):
        raise NotPlain  # rows outside the sheet's data: openpyxl reads them too
    dimensions = list(sheet.iter(_S + "dimension"))
    max_col = max_row = None
    if dimensions:
        first = dimensions[0]
        late = data is not None and sheet.index(first) > sheet.index(data)
        if len(dimensions) > 1 or first.getparent() is not sheet or late:
            raise NotPlain  # openpyxl takes the first one ending before the sheet's data ends
        _, _, max_col, max_row = _boundaries(first.get("ref") or "")
    empty: Sequence[Any] = (None,) * max_col if max_col is not None else []  # openpyxl's own filler, list and all
    out: list[Sequence[Any]] = []
    counter, idx = 1, 1
    for row in rows:
        idx = int(row.get("r") or "x")
        cells = [_cell(c, strings) for c in row]  # read before the bounds, as openpyxl reads it (and fails on it)
        if max_row is not None and idx > max_row:
            break
        while counter < idx:
            counter += 1
            out.append(empty)
        if counter <= idx:
            out.append(_placed(cells, max_col))
            counter += 1
    if max_row is not None and max_row < idx:
        out.extend(empty for _ in range(counter, max_row + 1))
    return out


def _placed(cells: list[tuple[int, Any]], max_col: int | None) -> tuple[Any, ...]:
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
        raise NotPlain
    column = _column(c.get("r") or "")
    kind = c.get("t", "n")
    if kind == "inlineStr":
        inline = c.find(_S + "is")
        if inline is None:
            return column, None
        parts = list(inline)
        if any(p.tag != _S + "t" for p in parts) or len(parts) > 1:
            raise NotPlain
        return column, _text(parts[0]) if parts else ""
    found = c.find(_S + "v")
    value = (_text(found) if found is not None else "") or None
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
    raise NotPlain  # errors, dates, or a shared string with no table


def _column(ref: str) -> int:
    letters = ref.rstrip("0123456789")
    if not letters or not letters.isalpha() or not letters.isupper() or len(letters) > 3 or ref == letters:
        raise NotPlain  # no reference: openpyxl counts columns itself
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
            raise NotPlain  # a whole row or column, or nothing: openpyxl's own rules
        cells.append((_column(part), int(digits)))
    return cells[0][0], cells[0][1], cells[1][0], cells[1][1]
