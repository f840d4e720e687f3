"""The fast .docx reader gives python-docx's text, or None where it might not (then python-docx reads it)."""

from __future__ import annotations

import io
import zipfile

import docx
import pytest

from tools.kernel.documents import extract_text, make_docx
from tools.kernel.docx_text import docx_text

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def python_docx_text(data: bytes) -> str:
    """What extract_text gave before the fast reader: python-docx's paragraphs, then its tables' rows."""
    doc = docx.Document(io.BytesIO(data))
    parts = [p.text for p in doc.paragraphs]
    parts += ["\t".join(c.text for c in row.cells) for t in doc.tables for row in t.rows]
    return "\n".join(parts)


def with_part(data: bytes, name: str, part: bytes) -> bytes:
    """``data`` (a .docx) with its part ``name`` replaced by ``part``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, part if info.filename == name else src.read(info.filename))
    return out.getvalue()


def part_of(data: bytes, name: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(name)


def with_body(data: bytes, body: str) -> bytes:
    """``data`` (a .docx) with its document part's body replaced by ``body`` (WordprocessingML)."""
    xml = f'<?xml version="1.0" encoding="UTF-8"?><w:document {W}><w:body>{body}</w:body></w:document>'
    return with_part(data, "word/document.xml", xml.encode())


BASE = make_docx("Memo", ["x"])

RUNS = (
    '<w:p><w:r><w:t xml:space="preserve">Total: </w:t><w:tab/><w:t>$1,200</w:t></w:r>'
    '<w:hyperlink r:id="rId9" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    "<w:r><w:t>the invoice</w:t></w:r></w:hyperlink>"
    '<w:r><w:br/><w:t>after a line break</w:t><w:br w:type="page"/><w:t>after a page break</w:t>'
    '<w:br w:type="textWrapping"/><w:cr/><w:noBreakHyphen/><w:ptab w:relativeTo="margin" w:alignment="left" '
    'w:leader="none"/><w:t>end</w:t><w:lastRenderedPageBreak/><w:sym w:font="Symbol" w:char="F0B7"/></w:r>'
    "<w:ins><w:r><w:t>inserted (python-docx skips it)</w:t></w:r></w:ins></w:p>"
    '<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t> spaced  </w:t></w:r></w:p>'
    "<w:p/>"
    "<w:sdt><w:sdtContent><w:p><w:r><w:t>in a content control</w:t></w:r></w:p></w:sdtContent></w:sdt>"
)
TABLE = (
    "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Vendor</w:t></w:r></w:p><w:p><w:r><w:t>(second line)</w:t></w:r></w:p></w:tc>"
    "<w:tc><w:p><w:r><w:t>Amount</w:t></w:r></w:p>"
    "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>nested</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:tc></w:tr>"
    "<w:tr><w:tc><w:p><w:r><w:t>Adatum</w:t></w:r></w:p></w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl>"
)


@pytest.mark.parametrize(
    "body",
    [RUNS, TABLE, RUNS + TABLE + "<w:p><w:r><w:t>after the table</w:t></w:r></w:p>" + TABLE, ""],
    ids=["runs", "table", "both", "empty"],
)
def test_the_fast_reader_reads_what_python_docx_reads(body):
    data = with_body(BASE, body)
    fast = docx_text(data)
    assert fast is not None
    assert fast == python_docx_text(data)
    assert extract_text(data, "memo.docx") == fast


def test_what_each_run_element_reads_as():
    text = docx_text(with_body(BASE, RUNS))
    assert text == (
        "Total: \t$1,200the invoice\nafter a line breakafter a page break\n\n-\tend\n spaced  \n"
    )  # the page break and the inserted run read as nothing; the content control's paragraph is not the body's


@pytest.mark.parametrize(
    "body",
    [
        '<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>wide</w:t></w:r></w:p></w:tc>'
        "</w:tr><w:tr><w:tc><w:p/></w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl>",
        '<w:tbl><w:tr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>tall</w:t></w:r></w:p></w:tc>'
        "</w:tr><w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc></w:tr></w:tbl>",
    ],
    ids=["spanned", "merged"],
)
def test_spanned_and_merged_cells_are_left_to_python_docx(body):
    data = with_body(BASE, body)
    assert docx_text(data) is None
    text = extract_text(data, "memo.docx")
    assert text == python_docx_text(data) and text.count("wide") + text.count("tall") == 2  # repeated by python-docx


def test_not_a_word_document_is_left_to_python_docx():
    types = part_of(BASE, "[Content_Types].xml").replace(b"document.main+xml", b"template.main+xml")
    template = with_part(BASE, "[Content_Types].xml", types)  # a .dotx's main part
    assert docx_text(template) is None and extract_text(template, "memo.docx") == ""  # python-docx refuses it
    elsewhere = with_part(BASE, "_rels/.rels", part_of(BASE, "_rels/.rels").replace(b"word/document", b"word/main"))
    assert docx_text(elsewhere) is None  # the main part is another one (missing here): python-docx's call
    assert docx_text(b"PK\x03\x04 not a zip") is None
    broken = with_part(BASE, "word/document.xml", b"<w:document " + W.encode() + b"><w:body><w:p></w:body>")
    assert docx_text(broken) is None and extract_text(broken, "memo.docx") == ""


def test_a_package_python_docx_refuses_or_reads_elsewhere_is_left_to_it():
    """An outside tester's finds: a missing part, a main part elsewhere, a span hidden by another encoding."""
    rels = part_of(BASE, "word/_rels/document.xml.rels")
    missing = with_part(BASE, "word/_rels/document.xml.rels", rels.replace(b"numbering.xml", b"gone.xml"))
    assert docx_text(missing) is None and extract_text(missing, "memo.docx") == ""  # python-docx refuses it
    macro = part_of(BASE, "[Content_Types].xml").replace(
        b"wordprocessingml.document.main+xml", b"ms-word.document.macroEnabled.main+xml"
    )
    assert docx_text(with_part(BASE, "[Content_Types].xml", macro)) is None
    spanned = (
        '<?xml version="1.0" encoding="UTF-16"?>'
        f"<w:document {W}><w:body><w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val=\"2\"/></w:tcPr>"
        "<w:p><w:r><w:t>span</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:body></w:document>"
    ).encode("utf-16")
    assert docx_text(with_part(BASE, "word/document.xml", spanned)) is None
    # Left, and said in tools/kernel/opc.py: a part the reader never parses (settings, styles) may be malformed
    broken_settings = with_part(BASE, "word/settings.xml", b"<w:settings " + W.encode() + b">")
    assert docx_text(broken_settings) == "Memo\nx" and python_docx_refuses(broken_settings)


def python_docx_refuses(data: bytes) -> bool:
    try:
        python_docx_text(data)
    except Exception:  # noqa: BLE001 - any refusal
        return True
    return False

