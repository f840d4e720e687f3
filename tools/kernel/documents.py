"""Real office documents: make .docx, .xlsx, .pdf and .png bytes, and read text, cells and rows back.

The company's files are real files: a download yields bytes that Word, Excel or
a PDF reader opens. Grading reads them back with the same functions, so a check
can ask for a document's text, a spreadsheet cell or a CSV row. Built on
python-docx, openpyxl, reportlab, pypdf and Pillow.
"""

from __future__ import annotations

import collections
import contextlib
import csv
import datetime
import functools
import hashlib
import io
import os
import re
import sys
import threading
import zipfile
from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = [
    "DOCUMENT_CACHE_MAX_BYTES",
    "MAX_PDF_PAGES",
    "MAX_TEXT_CHARS",
    "MAX_UNPACKED_BYTES",
    "MIME_TYPES",
    "TEXT_CACHE_MAX_BYTES",
    "blob_text",
    "csv_rows",
    "document_tables",
    "extract_text",
    "forget_texts",
    "make_docx",
    "make_pdf",
    "make_png",
    "make_xlsx",
    "mime_type_for",
    "read_cell",
    "read_texts",
    "prune_document_cache",
    "set_document_cache_limit",
    "set_text_cache_limit",
    "sniff",
    "text_cache_size",
    "unpacks_small",
    "workbook_text",
]

#: MIME type by file extension, for the kinds of file the company keeps.
MIME_TYPES: dict[str, str] = {
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".csv": "text/csv",
    ".md": "text/markdown",
    ".txt": "text/plain",
    ".json": "application/json",
    ".html": "text/html",
}


def mime_type_for(name: str) -> str:
    """The MIME type for a file name, by extension (``application/octet-stream`` when unknown)."""
    return MIME_TYPES.get(PurePosixPath(name).suffix.lower(), "application/octet-stream")


def _cache_dir() -> Path | None:
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(root) / "company-gateway" / "documents"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


@functools.cache
def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for dist in ("python-docx", "openpyxl", "reportlab", "pillow"):
        try:
            out.append(f"{dist}={version(dist)}")
        except PackageNotFoundError:
            out.append(f"{dist}=?")
    return ",".join(out)


#: Default most bytes the on-disk cache of made documents keeps (``document_cache_max_bytes``).
DOCUMENT_CACHE_MAX_BYTES = 1024 * 1024 * 1024
#: New documents written between two checks of the cache's size.
_PRUNE_EVERY = 64
_doc_cache = {"max_bytes": DOCUMENT_CACHE_MAX_BYTES, "writes": 0}


def set_document_cache_limit(max_bytes: int) -> None:
    """Keep at most ``max_bytes`` in the on-disk cache of made documents; the ones used longest ago go first.

    Raises:
        ValueError: ``max_bytes`` is negative.
    """
    if max_bytes < 0:
        raise ValueError(f"the document cache's bound is 0 bytes or more, not {max_bytes}")
    _doc_cache["max_bytes"] = max_bytes


def prune_document_cache(folder: Path | None = None) -> int:
    """Delete the documents used longest ago until the cache holds at most three quarters of its bound.

    "Used" is the file's modification time, which a hit renews.

    Returns:
        How many documents were deleted (0 when the cache is within its bound).
    """
    folder = folder or _cache_dir()
    if folder is None:
        return 0
    entries = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            with contextlib.suppress(OSError):
                if entry.is_file() and not entry.name.endswith(".tmp"):
                    st = entry.stat()
                    entries.append((st.st_mtime, entry.name, st.st_size))
    total = sum(size for _, _, size in entries)
    if total <= _doc_cache["max_bytes"]:
        return 0
    goal, deleted = _doc_cache["max_bytes"] * 3 // 4, 0
    for _, name, size in sorted(entries):
        if total <= goal:
            break
        with contextlib.suppress(OSError):
            (folder / name).unlink()
            total, deleted = total - size, deleted + 1
    return deleted


def _cached(make: Callable[..., bytes]) -> Callable[..., bytes]:
    """Keep made documents on disk by their inputs (bytes are deterministic), so a second start is fast.

    The key covers the function, its arguments and the versions of the libraries that write the bytes;
    without a writable cache folder the document is simply made again. The cache is bounded
    (:func:`set_document_cache_limit`): every 64th new document, the ones used longest ago are deleted.
    """

    @functools.wraps(make)
    def wrapper(*args: Any, **kwargs: Any) -> bytes:
        key = hashlib.sha256(repr((make.__name__, args, sorted(kwargs.items()), _versions())).encode()).hexdigest()
        folder = _cache_dir()
        path = folder / key if folder else None
        if path is not None and path.is_file():
            with contextlib.suppress(OSError):
                data = path.read_bytes()
                os.utime(path)  # used now: the last to go when the cache is pruned
                return data
        data = make(*args, **kwargs)
        if path is not None and folder is not None:
            with contextlib.suppress(OSError):
                tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")  # actions run in threads
                tmp.write_bytes(data)
                tmp.replace(path)
            _doc_cache["writes"] += 1
            if _doc_cache["writes"] % _PRUNE_EVERY == 0:
                prune_document_cache(folder)
        return data

    return wrapper


@_cached
def make_docx(title: str, paragraphs: Sequence[str], table: Sequence[Sequence[Any]] | None = None) -> bytes:
    """A Word document: a heading, paragraphs, and optionally a table (first row is the header)."""
    import docx

    doc = docx.Document()
    doc.core_properties.title = title
    doc.core_properties.author = ""
    doc.add_heading(title, level=1)
    for para in paragraphs:
        doc.add_paragraph(para)
    if table:
        grid = doc.add_table(rows=len(table), cols=len(table[0]))
        for line, row in zip(grid.rows, table, strict=True):  # row by row: grid.cell(r, c) walks the whole table
            for cell, value in zip(line.cells, row, strict=False):
                cell.text = str(value)
    out = io.BytesIO()
    doc.save(out)
    return _stable_zip(out.getvalue())


@_cached
def make_xlsx(sheets: dict[str, Sequence[Sequence[Any]]]) -> bytes:
    """An Excel workbook: one sheet per entry, rows of values (first row usually the header)."""
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return _stable_zip(out.getvalue())


@_cached
def make_pdf(title: str, lines: Sequence[str]) -> bytes:
    """A one-or-more page PDF with a title and lines of text (deterministic bytes)."""
    from reportlab.lib.pagesizes import LETTER
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=LETTER, invariant=1)
    pdf.setTitle(title)
    y = 740
    pdf.setFont("Helvetica-Bold", 14)
    pdf.drawString(72, y, title)
    pdf.setFont("Helvetica", 10)
    for line in lines:
        y -= 16
        if y < 72:
            pdf.showPage()
            pdf.setFont("Helvetica", 10)
            y = 740
        pdf.drawString(72, y, line)
    pdf.save()
    return out.getvalue()


def make_png(width: int, height: int, color: tuple[int, int, int]) -> bytes:
    """A plain PNG image of one colour."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="PNG", optimize=False)
    return out.getvalue()


def _stable_zip(data: bytes) -> bytes:
    """Rewrite a zip (docx/xlsx) with fixed timestamps so the same content gives the same bytes."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _strip_dates(body)
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, body)
    return out.getvalue()


def _strip_dates(xml: bytes) -> bytes:
    import re

    return re.sub(rb"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:)", rb"\g<1>2026-01-01T00:00:00Z\g<3>", xml)


def _row_text(row: Sequence[Any]) -> str:
    return "\t".join("" if v is None else str(v) for v in row)


def sniff(data: bytes) -> str:
    """The extension that fits ``data`` by its first bytes: .pdf, .png, .docx, .xlsx, or .txt."""
    if data.startswith(b"%PDF"):
        return ".pdf"
    if data.startswith(b"\x89PNG"):
        return ".png"
    if data.startswith(b"PK"):
        if b"word/" in data[:4000]:
            return ".docx"
        if b"xl/" in data[:4000]:
            return ".xlsx"
    return ".txt"


#: Most bytes a .docx or .xlsx may unpack to for its text to be read (larger: no text; a zip bomb costs nothing);
#: a worksheet named by several sheets counts once for each. Reading 8 MiB of the worst XML takes ~5 s.
MAX_UNPACKED_BYTES = 8 * 1024 * 1024
#: Most pages of a PDF read for its text, and most characters of text kept from any file.
MAX_PDF_PAGES = 300
MAX_TEXT_CHARS = 2_000_000


def extract_text(data: bytes, name: str = "") -> str:
    """The text of a file, by its name's extension (by its first bytes when no name is given).

    .docx: paragraphs and table cells; .xlsx: every cell, tab-separated rows; .pdf: page
    text; text kinds: decoded UTF-8. Anything else (images, unreadable bytes): ``""``.
    What it reads is bounded whatever the file: a .docx or .xlsx unpacking to more than
    :data:`MAX_UNPACKED_BYTES` has no text, a PDF gives its first :data:`MAX_PDF_PAGES` pages, and
    at most :data:`MAX_TEXT_CHARS` characters are kept.
    """
    suffix = PurePosixPath(name).suffix.lower() if name else sniff(data)
    return _extract(data, suffix)[:MAX_TEXT_CHARS]


def unpacks_small(data: bytes) -> bool:
    """Whether a zip file (.docx, .xlsx) unpacks to at most :data:`MAX_UNPACKED_BYTES` (False: not a zip file).

    Judged from the archive's directory, so a zip bomb costs nothing to judge; a workbook's worksheet is
    counted once for every sheet that names it (sheets sharing one part are read once each).
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            sizes = {info.filename: info.file_size for info in archive.infolist()}
            total = sum(sizes.values())
            rels, book = sizes.get("xl/_rels/workbook.xml.rels", 0), sizes.get("xl/workbook.xml", 0)
            if total > MAX_UNPACKED_BYTES or not rels or not book:
                return total <= MAX_UNPACKED_BYTES
            if rels + book > 1024 * 1024:
                return False
            targets = {}
            for element in _RELATION.findall(archive.read("xl/_rels/workbook.xml.rels")):
                rel_id, target = _REL_ID.search(element), _REL_TARGET.search(element)
                if rel_id and target:
                    targets[rel_id.group(1)] = target.group(1)
            for sheet_rel in _SHEET_REL.findall(archive.read("xl/workbook.xml")):
                part = "xl/" + targets.get(sheet_rel, b"").decode("utf-8", "replace").removeprefix("/xl/")
                total += sizes.get(part, 0)
            shared = sum(size for name, size in sizes.items() if name.startswith("xl/worksheets/"))
            return total - shared <= MAX_UNPACKED_BYTES
    except (zipfile.BadZipFile, ValueError, OSError, KeyError):
        return False


_RELATION = re.compile(rb"<Relationship\b[^>]*>")
_REL_ID = re.compile(rb'\bId="([^"]+)"')
_REL_TARGET = re.compile(rb'\bTarget="([^"]+)"')
_SHEET_REL = re.compile(rb'<sheet\b[^>]*?\br:id="([^"]+)"')


def workbook_text(data: bytes, headings: bool = False) -> str:
    """Every cell of an .xlsx, one tab-separated line per row, at most :data:`MAX_TEXT_CHARS` characters.

    Args:
        data: The workbook's bytes.
        headings: Put ``## Sheet: <title>`` before each sheet's rows, and end with a newline.

    Returns:
        The text; ``""`` for a workbook that is unreadable or unpacks past :data:`MAX_UNPACKED_BYTES`.
    """
    from tools.kernel.xlsx_text import workbook_values

    if not unpacks_small(data):
        return ""
    lines: list[str] = []
    size = 0
    try:
        sheets: Iterable[tuple[str, Iterable[Sequence[Any]]]] | None = workbook_values(data)  # a plain one, fast
        if sheets is None:
            import openpyxl

            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            sheets = ((sheet.title, sheet.iter_rows(values_only=True)) for sheet in book)
        for title, rows in sheets:
            if headings:
                lines.append(f"## Sheet: {title}")
            for row in rows:
                lines.append(_row_text(row))
                size += len(lines[-1]) + 1
                if size > MAX_TEXT_CHARS:
                    break
            if size > MAX_TEXT_CHARS:
                break
    except Exception:  # noqa: BLE001 - an unreadable workbook has no text
        return ""
    return ("\n".join(lines) + ("\n" if headings else ""))[:MAX_TEXT_CHARS]


def _extract(data: bytes, suffix: str) -> str:
    try:
        if suffix in (".docx", ".xlsx") and not unpacks_small(data):
            return ""
        if suffix == ".docx":
            from tools.kernel.docx_text import docx_text

            fast = docx_text(data)  # python-docx's reading of word/document.xml alone; None: read it whole
            if fast is not None:
                return fast
            import docx

            doc = docx.Document(io.BytesIO(data))
            parts = [p.text for p in doc.paragraphs]
            parts += ["\t".join(c.text for c in row.cells) for t in doc.tables for row in t.rows]
            return "\n".join(parts)
        if suffix == ".xlsx":
            return workbook_text(data)
        if suffix == ".pdf":
            import pypdf

            reader = pypdf.PdfReader(io.BytesIO(data))
            return "\n".join(page.extract_text() or "" for page in islice(reader.pages, MAX_PDF_PAGES))
        if suffix in (".png", ".jpg", ".jpeg", ".gif"):
            return ""
        if len(data) > MAX_TEXT_CHARS * 4:  # only the start is kept: a character cut at the end is dropped
            return data[: MAX_TEXT_CHARS * 4].decode("utf-8", errors="ignore")
        return data.decode("utf-8")
    except Exception:  # noqa: BLE001 - an unreadable file simply has no text to grade
        return ""


#: Text of stored blobs by (blob id, extension), the one read last at the end. A blob id names its bytes, so
#: entries never go stale.
_BLOB_TEXT: collections.OrderedDict[tuple[str, str], str] = collections.OrderedDict()
_BLOB_TEXT_MAX = 8192
#: Default most bytes of memory the cached texts take together (``text_cache_max_bytes``).
TEXT_CACHE_MAX_BYTES = 256 * 1024 * 1024
_BLOB_TEXT_LOCK = threading.Lock()
_text_cache = {"bytes": 0, "max_bytes": TEXT_CACHE_MAX_BYTES}


def _text_bytes(text: str) -> int:
    """Bytes of memory a cached text takes (the string object's size)."""
    return sys.getsizeof(text)


def set_text_cache_limit(max_bytes: int) -> None:
    """Keep at most ``max_bytes`` of text in :func:`blob_text`'s shared cache; the texts read longest ago go first.

    Raises:
        ValueError: ``max_bytes`` is negative.
    """
    if max_bytes < 0:
        raise ValueError(f"the text cache's bound is 0 bytes or more, not {max_bytes}")
    with _BLOB_TEXT_LOCK:
        _text_cache["max_bytes"] = max_bytes
        _trim_texts()


def text_cache_size() -> tuple[int, int]:
    """``(entries, bytes)`` the shared text cache holds now."""
    with _BLOB_TEXT_LOCK:
        return len(_BLOB_TEXT), _text_cache["bytes"]


def forget_texts(blobs: Iterable[str]) -> int:
    """Drop the cached text of these blob ids (a closed session's own files); returns how many entries went.

    A blob another world also holds is simply read again when next searched.
    """
    gone = set(blobs)
    if not gone:
        return 0
    with _BLOB_TEXT_LOCK:
        keys = [key for key in _BLOB_TEXT if key[0] in gone]
        for key in keys:
            _text_cache["bytes"] -= _text_bytes(_BLOB_TEXT.pop(key))
    return len(keys)


def _trim_texts() -> None:
    """Drop the texts read longest ago until the cache is within its bounds (the caller holds the lock)."""
    while _BLOB_TEXT and (len(_BLOB_TEXT) > _BLOB_TEXT_MAX or _text_cache["bytes"] > _text_cache["max_bytes"]):
        _, old = _BLOB_TEXT.popitem(last=False)
        _text_cache["bytes"] -= _text_bytes(old)


def blob_text(blobs: Any, blob: str, name: str) -> str:
    """The text of a stored file (see :func:`extract_text`), kept in a shared cache.

    The cache holds at most 8,192 texts and at most :func:`set_text_cache_limit` bytes of them
    (:data:`TEXT_CACHE_MAX_BYTES` by default), the ones read longest ago dropped first; a text larger than
    the whole bound is answered but not kept.

    Args:
        blobs: The world's blob store (``get(blob_id) -> bytes``).
        blob: The file's blob id.
        name: The file's name (its extension picks the reader).

    Returns:
        The text; ``""`` for images, unreadable bytes, or a blob the store does not hold.
    """
    if not blob or blob not in blobs:
        return ""
    key = (blob, PurePosixPath(name).suffix.lower())
    with _BLOB_TEXT_LOCK:  # actions run in worker threads
        text = _BLOB_TEXT.get(key)
        if text is not None:
            _BLOB_TEXT.move_to_end(key)
            return text
    text = extract_text(blobs.get(blob), name)  # outside the lock: two threads may both extract, harmlessly
    with _BLOB_TEXT_LOCK:
        old = _BLOB_TEXT.pop(key, None)
        if old is not None:
            _text_cache["bytes"] -= _text_bytes(old)
        _BLOB_TEXT[key] = text
        _text_cache["bytes"] += _text_bytes(text)
        _trim_texts()
    return text


def read_texts(snapshot: dict[str, Any], blobs: Any) -> int:
    """Read the text of every file in a world snapshot into :func:`blob_text`'s shared cache.

    A record is a file when it has a non-empty ``blob`` and a ``name`` (Drive, Box, OneDrive and
    SharePoint files, mail attachments). Run in a worker thread when a task's world is first built,
    so that the first search of its files does not read them all on the event loop (a company's
    files took 0.35-0.84 s there).

    Args:
        snapshot: ``World.snapshot()`` shape: app name to collection name to record id to record dict.
        blobs: The world's blob store.

    Returns:
        How many files were read (cached ones included).
    """
    read = 0
    for state in snapshot.values():
        for records in state.values() if isinstance(state, dict) else ():
            for record in records.values() if isinstance(records, dict) else ():
                if isinstance(record, dict) and record.get("blob") and isinstance(record.get("name"), str):
                    blob_text(blobs, record["blob"], record["name"])
                    read += 1
    return read


def read_cell(data: bytes, sheet: str, ref: str) -> Any:
    """The value of cell ``ref`` (e.g. ``"B2"``) on ``sheet`` of an .xlsx; ``None`` when absent or unreadable.

    The workbook is read as a stream up to the cell's row, and not at all when it unpacks to more than
    :data:`MAX_UNPACKED_BYTES` (``None``).
    """
    import openpyxl

    if not unpacks_small(data):
        return None
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        return book[sheet][ref].value if sheet in book.sheetnames else None
    except Exception:  # noqa: BLE001 - not a workbook: no cell
        return None


def csv_rows(data: bytes) -> list[dict[str, str]]:
    """The rows of a CSV file (first line is the header) as dicts; ``[]`` when it is not CSV text."""
    try:
        return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
    except (UnicodeDecodeError, csv.Error):
        return []


#: Most rows of one table :func:`document_tables` reads (a workbook's sheet, a .docx table, a CSV file).
MAX_TABLE_ROWS = 5000


def _iso(value: Any) -> Any:
    """A workbook's date or datetime cell as ISO text (``2026-03-09``, or with its time when it has one)."""
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat()
    return value.isoformat() if isinstance(value, datetime.date) else value


def _records(rows: Iterable[Sequence[Any]]) -> list[dict[str, Any]]:
    """Rows under their table's header (its first row with a value): ``{heading: value}``, empty rows left out."""
    header: list[str] | None = None
    out: list[dict[str, Any]] = []
    for n, row in enumerate(rows):
        if n > MAX_TABLE_ROWS:
            break
        values = ["" if v is None else _iso(v) for v in row]
        if not any(str(v).strip() for v in values):
            continue
        if header is None:
            header = [str(v).strip() for v in values]
            continue
        out.append({h: v for h, v in zip(header, values, strict=False) if h})
    return out


#: Largest document (bytes) whose tables are kept (the last 32 such): parsed, they stay within tens of MiB.
_TABLES_MAX_INPUT = 256 * 1024


def document_tables(data: bytes) -> list[tuple[str, list[dict[str, Any]]]]:
    """The tables of a document, each ``(name, rows)`` with rows as ``{heading: value}`` under its header row.

    The answer is shared with later calls on the same bytes: read it, never change it.

    A workbook gives one table per sheet (named by its title; values as stored: numbers stay numbers, dates are
    ISO text (``2026-03-09``), and a
    formula's cached result, which files written by a library without a spreadsheet engine lack, is None), a
    .docx one per table (``"table 1"``...; cell text), a CSV file one (``"csv"``; text). Anything else, or a file
    that unpacks past :data:`MAX_UNPACKED_BYTES`: ``[]``. At most :data:`MAX_TABLE_ROWS` rows a table are read.
    """
    if len(data) > _TABLES_MAX_INPUT:
        return _read_tables(data)  # not kept: its rows could take a hundred times its bytes
    return _kept_tables(data)


@functools.lru_cache(maxsize=32)
def _kept_tables(data: bytes) -> list[tuple[str, list[dict[str, Any]]]]:
    """:func:`_read_tables`, kept by content (a workbook takes ~10 ms to open; a grade reads one many times)."""
    return _read_tables(data)


def _read_tables(data: bytes) -> list[tuple[str, list[dict[str, Any]]]]:
    if not data.startswith(b"PK"):
        rows = csv_rows(data)[:MAX_TABLE_ROWS] if sniff(data) == ".txt" else []
        return [("csv", rows)] if rows else []
    if not unpacks_small(data):
        return []
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
        if "xl/workbook.xml" in names:
            import openpyxl

            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            return [(sheet.title, _records(sheet.iter_rows(values_only=True))) for sheet in book]
        if "word/document.xml" in names:
            import docx

            doc = docx.Document(io.BytesIO(data))
            return [
                (f"table {n}", _records([c.text for c in row.cells] for row in table.rows))
                for n, table in enumerate(doc.tables, 1)
            ]
    except Exception:  # noqa: BLE001 - an unreadable document has no tables
        return []
    return []
