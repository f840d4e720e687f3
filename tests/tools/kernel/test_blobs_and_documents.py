import pytest

from tools.kernel.blobs import BlobStore, blob_id
from tools.kernel.documents import (
    csv_rows,
    extract_text,
    make_docx,
    make_pdf,
    make_png,
    make_xlsx,
    mime_type_for,
    read_cell,
    sniff,
)


def test_blob_store_layers_over_a_shared_base():
    base = {blob_id(b"shared"): b"shared"}
    store = BlobStore(base)
    assert store.put(b"shared") == blob_id(b"shared")
    assert store.own_size() == 0
    key = store.put(b"mine")
    assert store.get(key) == b"mine" and store.own_size() == 4
    twin = store.copy()
    twin.put(b"twin only")
    assert blob_id(b"twin only") not in store
    assert base == {blob_id(b"shared"): b"shared"}


def test_blob_store_rolls_back_to_a_mark_and_counts_only_what_stays():
    store = BlobStore({blob_id(b"shared"): b"shared"})
    kept = store.put(b"kept")
    mark = store.mark()
    added = [store.put(b"one"), store.put(b"shared"), store.put(b"kept"), store.put(b"three")]
    assert store.own_size() == 4 + 3 + 5 and store.mark() == mark + 2
    store.rollback(mark)
    assert store.own_size() == 4 and store.mark() == mark
    assert kept in store and added[0] not in store and added[3] not in store and added[1] in store
    assert store.copy().own_size() == 4


def test_documents_are_real_and_deterministic():
    doc = make_docx("Memo", ["Line one"], [["a", "b"], [1, 2]])
    assert doc == make_docx("Memo", ["Line one"], [["a", "b"], [1, 2]])
    assert sniff(doc) == ".docx" and "Line one" in extract_text(doc, "memo.docx")
    book = make_xlsx({"S": [["k", "v"], ["x", 3]]})
    assert sniff(book) == ".xlsx" and read_cell(book, "S", "B2") == 3 and read_cell(book, "T", "B2") is None
    pdf = make_pdf("Title", ["hello pdf"])
    assert pdf == make_pdf("Title", ["hello pdf"]) and "hello pdf" in extract_text(pdf)
    png = make_png(2, 2, (255, 0, 0))
    assert sniff(png) == ".png" and extract_text(png) == ""
    assert csv_rows(b"a,b\n1,2\n") == [{"a": "1", "b": "2"}] and csv_rows(b"\xff\xfe") == []
    assert mime_type_for("Q1.XLSX").endswith("spreadsheetml.sheet")
    assert mime_type_for("x.bin") == "application/octet-stream"


def test_made_documents_are_kept_on_disk_by_their_inputs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = make_pdf("Cached", ["a line"])
    kept = list((tmp_path / "company-gateway" / "documents").iterdir())
    assert len(kept) == 1 and kept[0].read_bytes() == first
    kept[0].write_bytes(b"%PDF-from-cache")
    assert make_pdf("Cached", ["a line"]) == b"%PDF-from-cache"  # read back, not made again
    assert make_pdf("Cached", ["another line"]) != b"%PDF-from-cache"


def test_what_reading_a_file_costs_is_bounded_whatever_the_file(monkeypatch):
    import io
    import zipfile

    from tools.kernel import documents

    # A .docx that unpacks to more than the bound (a zip bomb) has no text; one within it does.
    small = make_docx("Notes", ["budget approved"])
    assert "budget approved" in extract_text(small, "notes.docx")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in zipfile.ZipFile(io.BytesIO(small)).infolist():
            archive.writestr(info.filename, zipfile.ZipFile(io.BytesIO(small)).read(info.filename))
        archive.writestr("word/padding.bin", b"\0" * (documents.MAX_UNPACKED_BYTES + 1))
    assert len(bomb.getvalue()) < 100_000
    assert extract_text(bomb.getvalue(), "notes.docx") == ""
    # A PDF gives its first pages only; every kind keeps at most so many characters.
    monkeypatch.setattr(documents, "MAX_PDF_PAGES", 1)
    pdf = extract_text(make_pdf("Report", [f"line {i}" for i in range(60)]), "report.pdf")
    assert "line 10" in pdf and "line 59" not in pdf  # 60 lines take two pages
    monkeypatch.setattr(documents, "MAX_TEXT_CHARS", 100)
    assert extract_text(b"word " * 1000, "a.txt") == "word " * 20
    sheet = extract_text(make_xlsx({"S": [[f"cell {i}", i] for i in range(500)]}), "a.xlsx")
    assert sheet.startswith("cell 0\t0\ncell 1\t1") and len(sheet) == 100


def test_a_workbook_that_unpacks_too_large_is_not_read_by_cell_nor_by_drive_read_file(monkeypatch):
    import io
    import zipfile

    from tools.apps.drive._rules import readable_text
    from tools.kernel import documents

    book = make_xlsx({"Prices": [["item", "price"], ["desk", 120]]})
    assert documents.read_cell(book, "Prices", "B2") == 120
    assert "## Sheet: Prices\nitem\tprice\ndesk\t120" in readable_text(book, "prices.xlsx")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        src = zipfile.ZipFile(io.BytesIO(book))
        for info in src.infolist():
            archive.writestr(info.filename, src.read(info.filename))
        archive.writestr("xl/padding.bin", b"\0" * (documents.MAX_UNPACKED_BYTES + 1))
    assert documents.read_cell(bomb.getvalue(), "Prices", "B2") is None
    assert readable_text(bomb.getvalue(), "prices.xlsx") == ""
    monkeypatch.setattr(documents, "MAX_TEXT_CHARS", 40)
    long_book = make_xlsx({"S": [[f"row {i}", i] for i in range(100)]})
    assert readable_text(long_book, "long.xlsx") == "## Sheet: S\nrow 0\t0\nrow 1\t1\nrow 2\t2\nrow 3\t3\n"[:40]


@pytest.mark.slow
def test_a_worksheet_named_by_several_sheets_counts_once_for_each():
    import io
    import re
    import zipfile

    from tools.kernel import documents

    def workbook(sheets: int) -> bytes:
        src, out = zipfile.ZipFile(io.BytesIO(make_xlsx({"A": [["price", 120]]}))), io.BytesIO()
        padding = b"<x/>" * (documents.MAX_UNPACKED_BYTES // 4 // 2)  # half the bound, of elements read for nothing
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                data = src.read(info.filename)
                if info.filename == "xl/worksheets/sheet1.xml":
                    data = data.replace(b"<sheetData>", b"<sheetData>" + padding)
                if info.filename == "xl/workbook.xml":
                    data = re.sub(rb"(<sheet [^>]*/>)", rb"\1" * sheets, data)
                dst.writestr(info.filename, data)
        return out.getvalue()

    one, three = workbook(1), workbook(3)
    assert documents.unpacks_small(one) and documents.read_cell(one, "A", "B1") == 120
    assert len(three) < 100_000 and not documents.unpacks_small(three)  # 1.5x the bound, read three times
    assert extract_text(three, "prices.xlsx") == "" and documents.read_cell(three, "A", "B1") is None


def test_the_document_cache_keeps_to_its_bound_and_deletes_the_least_recently_used(tmp_path, monkeypatch):
    import os

    from tools.kernel import documents

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "company-gateway" / "documents"
    made = [documents.make_pdf(f"Doc {i}", [f"line {i}"] * 20) for i in range(6)]
    files = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime_ns)
    assert len(files) == 6 and all(len(m) > 0 for m in made)
    for age, path in enumerate(files):  # the first made is the oldest
        os.utime(path, (1_000_000 + age, 1_000_000 + age))
    documents.make_pdf("Doc 0", ["line 0"] * 20)  # a hit: Doc 0 is now the most recently used
    size = max(p.stat().st_size for p in files)
    monkeypatch.setitem(documents._doc_cache, "max_bytes", 4 * size)
    deleted = documents.prune_document_cache()
    left = {p.name for p in folder.iterdir()}
    assert deleted == 3 and len(left) == 3  # down to three quarters of the bound
    assert files[0].name in left  # renewed by the hit
    assert {files[1].name, files[2].name, files[3].name}.isdisjoint(left)  # the least recently used went
    assert documents.prune_document_cache() == 0  # within its bound now
    with pytest.raises(ValueError, match="0 bytes or more"):
        documents.set_document_cache_limit(-1)
