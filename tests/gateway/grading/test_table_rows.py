"""``table_rows`` reads a made document's tables (workbook sheets, .docx tables, CSV) and ``num`` its numbers."""

import pytest

from gateway.control.rows import Task
from gateway.grading import grade, validate_checks
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import document_tables, make_docx, make_xlsx

TOTALS = [["Category", "Total"], ["Travel", 412.5], ["Meals", "1,180.00"], [None, None], ["Lodging", 96]]


def _check(where):
    return [{"name": "doc", "kind": "record", "app": "drive", "collection": "files", "where": where}]


def _passes(data: bytes, spec) -> bool:
    blobs = BlobStore()
    snap = {"drive": {"files": {"f1": {"id": "f1", "blob": blobs.put(data)}}}}
    return grade(_check({"blob": spec}), [], snap, snap, None, blobs).checks[0].passed


def test_document_tables_key_rows_by_their_header_and_skip_empty_rows():
    book = make_xlsx({"Notes": [["just text"]], "Totals": TOTALS})
    assert document_tables(book) == [
        ("Notes", []),
        ("Totals", [{"Category": "Travel", "Total": 412.5}, {"Category": "Meals", "Total": "1,180.00"},
                    {"Category": "Lodging", "Total": 96}]),
    ]  # fmt: skip
    doc = make_docx("Changes", ["Two prices changed."], [["Item", "Old", "New"], ["Desk", "120", "135"]])
    assert document_tables(doc) == [("table 1", [{"Item": "Desk", "Old": "120", "New": "135"}])]
    assert document_tables(b"Item,Price\nDesk,135\n") == [("csv", [{"Item": "Desk", "Price": "135"}])]
    assert document_tables(b"%PDF-1.4 not a table") == []
    assert document_tables(b"PK\x03\x04 broken zip") == []


@pytest.mark.parametrize(
    ("value", "want", "passes"),
    [(412.5, 412.5, True), ("$412.50", 412.5, True), ("1,180.00", 1180, True), (96, 96.0, True),
     (412.51, 412.5, False), ("412.5 USD or so", 412.5, False), (True, 1, False), (None, 0, False),
     ("-3", -3, True), ("", 0, False)],
)  # fmt: skip
def test_num_reads_numbers_and_number_text_to_the_cent(value, want, passes):
    snap = {"drive": {"files": {"f1": {"id": "f1", "v": value}}}}
    assert grade(_check({"v": {"num": want}}), [], snap, snap, None).checks[0].passed is passes


def test_table_rows_wants_a_row_of_its_own_for_each_and_with_only_no_other():
    book = make_xlsx({"Notes": [["Category", "Total"], ["Travel", 1]], "Totals": TOTALS})
    travel = {"Category": "Travel", "Total": {"num": 412.5}}
    meals = {"Category": {"ieq": "meals"}, "Total": {"num": 1180}}
    lodging = {"Category": "Lodging", "Total": {"num": 96}}
    assert _passes(book, {"table_rows": {"rows": [travel, meals]}})
    assert _passes(book, {"table_rows": {"rows": [travel, meals, lodging], "only": True}})
    assert not _passes(book, {"table_rows": {"rows": [travel, meals], "only": True}})  # Lodging is left over
    assert not _passes(book, {"table_rows": {"rows": [travel, travel]}})  # one Travel row cannot count twice
    assert not _passes(book, {"table_rows": {"table": "Notes", "rows": [travel]}})  # Notes' Travel is 1
    assert _passes(book, {"table_rows": {"table": "totals", "rows": [travel]}})
    wrong = make_xlsx({"Totals": [["Category", "Total"], ["Travel", 412.0], ["Meals", 1180]]})
    assert not _passes(wrong, {"table_rows": {"rows": [travel, meals]}})
    doc = make_docx("Changes", [], [["Item", "New"], ["Desk", "135"]])
    assert _passes(doc, {"table_rows": {"rows": [{"Item": "Desk", "New": {"num": 135}}], "only": True}})
    assert _passes(b"Item,New\nDesk,$135.00\n", {"table_rows": {"rows": [{"Item": "Desk", "New": {"num": 135}}]}})
    assert _passes(b"item , NEW\nDesk,135\n", {"table_rows": {"rows": [{"Item": "Desk", "New": {"num": 135}}]}})


def test_an_optional_row_may_be_there_once_and_only_as_given():
    rows = [{"Region": "North", "Total": {"num": 10}}, {"Region": "South", "Total": {"num": 5}}]
    total = [{"Region": {"regex": "^all regions$"}, "Total": {"num": 15}}]
    spec = {"table_rows": {"rows": rows, "only": True, "optional": total}}
    plain = [["Region", "Total"], ["North", 10], ["South", 5]]
    assert _passes(make_xlsx({"S": plain}), spec)
    assert _passes(make_xlsx({"S": [*plain, ["All regions", 15]]}), spec)
    assert not _passes(make_xlsx({"S": [*plain, ["All regions", 16]]}), spec)  # not the sum
    assert not _passes(make_xlsx({"S": [*plain, ["All regions", 15], ["All regions", 15]]}), spec)  # twice
    assert not _passes(make_xlsx({"S": [*plain, ["All regions", 15]]}), {"table_rows": {"rows": rows, "only": True}})


@pytest.mark.parametrize(
    ("spec", "says"),
    [({"table_rows": {"rows": []}}, "table_rows: write"), ({"table_rows": {"rows": [{}], "sheet": "x"}}, "write"),
     ({"table_rows": {"rows": [{"Total": {"nope": 1}}]}}, "unknown operators"), ({"num": "412"}, "give a number"),
     ({"table_rows": {"rows": [{}], "optional": [{"Total": {"nope": 1}}]}}, "unknown operators")],
)  # fmt: skip
def test_bad_table_rows_and_num_specs_are_refused_when_the_row_loads(spec, says):
    task = Task.model_construct(checks=_check({"blob": spec}), allowed_changes=[], apps=["drive"])
    with pytest.raises(ValueError, match=says):
        validate_checks(task)


def test_workbook_dates_read_as_iso_text():
    import datetime as dt

    row = ["LT-1", dt.date(2026, 3, 9), dt.datetime(2026, 3, 9, 14, 5)]
    book = make_xlsx({"Assets": [["Tag", "Ends", "Seen"], row]})
    assert document_tables(book)[0][1] == [{"Tag": "LT-1", "Ends": "2026-03-09", "Seen": "2026-03-09T14:05:00"}]
    assert _passes(book, {"table_rows": {"rows": [{"Ends": {"ieq": "2026-03-09"}}], "only": True}})


def test_packed_wants_a_real_workbook_not_csv_text_under_its_name():
    rows = [{"item": {"ieq": "Desk"}, "price": {"num": 135}}]
    csv_text = b"Item,Price\nDesk,135\n"
    assert _passes(csv_text, {"table_rows": {"rows": rows}})  # CSV text is read as a table
    assert not _passes(csv_text, {"table_rows": {"rows": rows, "packed": True}})  # but it is no workbook
    book = make_xlsx({"Sheet1": [["Item", "Price"], ["Desk", 135]]})
    assert _passes(book, {"table_rows": {"rows": rows, "packed": True}})


def test_a_document_read_again_is_answered_from_its_bytes_without_opening_it(monkeypatch):
    import tools.kernel.documents as documents

    opened: list[int] = []
    real = documents._read_tables
    monkeypatch.setattr(documents, "_read_tables", lambda data: opened.append(len(data)) or real(data))
    first = documents.document_tables(b"Item,Price\nLamp,40\n")
    assert documents.document_tables(b"Item,Price\nLamp,40\n") == first == [("csv", [{"Item": "Lamp", "Price": "40"}])]
    assert documents.document_tables(b"Item,Price\nLamp,41\n") == [("csv", [{"Item": "Lamp", "Price": "41"}])]
    assert len(opened) == 2  # the same bytes were read once
