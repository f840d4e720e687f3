"""The fast workbook reader gives openpyxl's read-only values, or None where it might not (openpyxl reads it)."""

from __future__ import annotations

import datetime
import io
import zipfile

import openpyxl
import pytest

from tools.kernel.documents import extract_text, make_xlsx, workbook_text
from tools.kernel.xlsx_text import workbook_values

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def openpyxl_values(data: bytes) -> list[tuple[str, list[tuple]]]:
    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    return [(sheet.title, list(sheet.iter_rows(values_only=True))) for sheet in book]


def with_parts(data: bytes, parts: dict[str, bytes]) -> bytes:
    """``data`` (an .xlsx) with these parts replaced or added."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, parts.get(info.filename, src.read(info.filename)))
        for name, part in parts.items():
            if name not in src.namelist():
                dst.writestr(name, part)
    return out.getvalue()


def part_of(data: bytes, name: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(name)


BOOK = make_xlsx({"Ledger": [["Vendor", "Amount"], ["Adatum", 1200]], "Notes": [["x"]]})


def with_sheet(sheet_data: str, dimension: str | None = "A1:C4", strings: list[str] | None = None) -> bytes:
    """BOOK with its first sheet's cells replaced (and a shared-string table, when given)."""
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    sheet = f'<worksheet xmlns="{MAIN}">{dim}<sheetData>{sheet_data}</sheetData></worksheet>'
    parts = {"xl/worksheets/sheet1.xml": sheet.encode()}
    if strings is not None:
        items = "".join(f"<si><t>{s}</t></si>" for s in strings)
        parts["xl/sharedStrings.xml"] = f'<sst xmlns="{MAIN}">{items}</sst>'.encode()
        types = part_of(BOOK, "[Content_Types].xml").replace(
            b"</Types>",
            b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument'
            b'.spreadsheetml.sharedStrings+xml"/></Types>',
        )
        parts["[Content_Types].xml"] = types
    return with_parts(BOOK, parts)


CELLS = (
    '<row r="1"><c r="A1" t="s"><v>0</v></c>'
    '<c r="C1" t="inlineStr"><is><t xml:space="preserve"> inline </t></is></c></row>'
    '<row r="3"><c r="A3" t="n"><v>1.50</v></c><c r="B3"><v>42</v></c><c r="C3" t="b"><v>1</v></c>'
    '<c r="D3" t="str"><v>beyond the dimension</v></c></row>'
    '<row r="4" spans="1:3"><c r="B4" t="s"><v>1</v></c><c r="C4" t="n"><v>1E3</v></c></row>'
    '<row r="9"><c r="A9"><v>9</v></c></row>'
)


@pytest.mark.parametrize(
    "data",
    [
        BOOK,
        make_xlsx({"Only": [[None, "b", None], [1.25, None, True], [], ["last"]]}),
        with_sheet(CELLS, strings=["Shared", "second"]),
        with_sheet(CELLS, dimension="A1:B12", strings=["Shared", "second"]),
        with_sheet(CELLS, dimension=None, strings=["Shared", "second"]),
        with_sheet('<row r="2"/>', dimension="A1:B3"),
        with_sheet("", dimension="A1"),
    ],
    ids=["made", "gaps", "shared", "taller", "no-dimension", "empty-row", "empty"],
)
def test_the_fast_reader_reads_what_openpyxl_reads(data):
    fast = workbook_values(data)
    assert fast is not None
    assert fast == openpyxl_values(data)


def test_what_the_cells_read_as():
    (title, rows), _ = workbook_values(with_sheet(CELLS, strings=["Shared", "second"]))
    assert title == "Ledger"
    assert rows == [("Shared", None, " inline "), (None, None, None), (1.5, 42, True), (None, "second", 1000.0)]
    assert workbook_text(with_sheet(CELLS, strings=["Shared", "second"]), headings=True).startswith(
        "## Sheet: Ledger\nShared\t\t inline \n\t\t\n1.5\t42\tTrue\n\tsecond\t1000.0\n## Sheet: Notes\nx\n"
    )


def dated() -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["due", datetime.date(2027, 1, 5)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def formula() -> bytes:
    return with_sheet('<row r="1"><c r="A1"><f>1+1</f><v>2</v></c></row>', dimension="A1")


@pytest.mark.parametrize(
    ("data", "text"),
    [(dated(), "due\t2027-01-05 00:00:00"), (formula(), "2\nx"),
     (with_sheet('<row r="1"><c r="A1" t="e"><v>#DIV/0!</v></c></row>', dimension="A1"), "#DIV/0!\nx")],
    ids=["date", "formula", "error"],
)  # fmt: skip
def test_dates_formulas_and_errors_are_left_to_openpyxl(data, text):
    assert workbook_values(data) is None
    assert extract_text(data, "book.xlsx") == text


def test_not_a_plain_workbook_is_left_to_openpyxl():
    types = part_of(BOOK, "[Content_Types].xml").replace(b"sheet.main+xml", b"template.main+xml")
    assert workbook_values(with_parts(BOOK, {"[Content_Types].xml": types})) is None  # an .xltx
    assert workbook_values(with_sheet('<row><c r="A1"><v>1</v></c></row>')) is None  # a row with no number
    assert workbook_values(with_sheet('<row r="1"><c><v>1</v></c></row>')) is None  # a cell with no reference
    assert workbook_values(with_sheet('<row r="1"><c r="A1" s="3"><v>1</v></c></row>')) is None  # a style
    assert workbook_values(b"PK\x03\x04 not a zip") is None


def raw_sheet(head: str, body: str) -> bytes:
    """BOOK with its first sheet's XML ``head`` (before the root) and ``body`` (inside it) as given."""
    sheet = f'{head}<worksheet xmlns="{MAIN}">{body}</worksheet>'
    return with_parts(BOOK, {"xl/worksheets/sheet1.xml": sheet.encode()})


STYLES_DATE_FIRST = (
    f'<styleSheet xmlns="{MAIN}"><cellXfs count="1"><xf numFmtId="14" fontId="0" fillId="0" borderId="0"/>'
    "</cellXfs></styleSheet>"
).encode()


@pytest.mark.parametrize(
    "data",
    [
        with_sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', dimension="A1", strings=["_x005F_x0041_"]),
        with_sheet('<row r="1"><c r="A1"><v>1<!--z-->2</v></c></row>', dimension="A1"),
        with_sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>ab<?pi x?>cd</t></is></c></row>', dimension="A1"),
        raw_sheet('<!DOCTYPE worksheet [<!ENTITY e "E">]>',
                  '<sheetData><row r="1"><c r="A1" t="str"><v>a&e;b</v></c></row></sheetData>'),
        with_parts(BOOK, {"xl/styles.xml": STYLES_DATE_FIRST}),
        raw_sheet("", '<sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="3"><c r="A3"><v>3</v></c></row>'
                  '</sheetData><dimension ref="A1:D2"/>'),
        raw_sheet("", '<sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData>'
                  '<sheetData><row r="2"><c r="A2"><v>2</v></c></row></sheetData>'),
        with_sheet('<row r="1"><c r="A1"><v>1</v></c></row><row r="5"><c r="A5"><v>oops</v></c></row>', "A1:A2"),
        with_sheet('<row r="2"><c r="A2"><v>2</v></c></row><row r="1"><c r="A1" t="b"><v>yes</v></c></row>'),
    ],
    ids=["x005F", "comment-in-value", "pi-in-text", "dtd-entity", "style-0-a-date", "dimension-after-data",
         "two-sheet-datas", "bad-row-past-dimension", "bad-row-out-of-order"],
)  # fmt: skip
def test_what_readers_differ_on_is_left_to_openpyxl_or_read_as_it_reads(data):
    """An outside tester's finds: each is read as openpyxl reads it, or left to it (and then read by it)."""
    fast = workbook_values(data)
    try:
        library = openpyxl_values(data)
    except Exception:  # noqa: BLE001 - openpyxl refuses it: so must the fast reader
        library = None
    assert fast is None or fast == library

