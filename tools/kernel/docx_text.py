"""A .docx file's text read straight from its XML: what python-docx gives, at a tenth of its cost.

python-docx opens every part of a package (styles, numbering, theme, settings) into its object model before
a paragraph can be read: ~9 ms for a one-page document, most of a proof's document searches. The text
:func:`tools.kernel.documents.extract_text` wants (the body's paragraphs, then every body table's rows as
tab-separated cells) needs only ``word/document.xml``. :func:`docx_text` reads that part alone, as
python-docx 1.x reads it: a run's ``w:t``, ``w:tab``, ``w:ptab``, ``w:cr``, ``w:noBreakHyphen`` and
text-wrapping ``w:br``; a paragraph's runs and hyperlinks in order; a cell's paragraphs joined by newlines.

Where its reading could differ from python-docx's (a merged or spanned cell, a main part other than
``word/document.xml``, anything it cannot parse) it answers None, and the caller reads the file with
python-docx. ``tests/kernel/test_docx_text.py`` compares the two on every document the built-in tasks make.
"""

from __future__ import annotations

import io
import zipfile

from lxml import etree

__all__ = ["docx_text"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MAIN = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_PARSER = etree.XMLParser(remove_blank_text=True, resolve_entities=False)  # python-docx's own settings
#: A cell spread over grid columns or rows: python-docx repeats it, which this reader does not.
_SPANS = (b"gridSpan", b"vMerge")
_RUN_TEXT = {_W + "tab": "\t", _W + "ptab": "\t", _W + "cr": "\n", _W + "noBreakHyphen": "-"}


def docx_text(data: bytes) -> str | None:
    """The text python-docx reads from a .docx: body paragraphs, then table rows (cells tab-separated).

    Args:
        data: The file's bytes (the caller has checked they unpack small).

    Returns:
        The text, one line per paragraph and per table row; None when this reader may not read it as
        python-docx does (the caller then uses python-docx): spanned or merged cells, a main part elsewhere or
        of another kind, or anything that does not parse.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            types = archive.read("[Content_Types].xml")
            rels = archive.read("_rels/.rels")
            xml = archive.read("word/document.xml")
    except (KeyError, zipfile.BadZipFile, OSError, ValueError, EOFError):
        return None
    if _MAIN not in types or b'Target="word/document.xml"' not in rels and b'Target="/word/document.xml"' not in rels:
        return None
    if any(span in xml for span in _SPANS):
        return None
    try:
        root = etree.fromstring(xml, _PARSER)
    except (etree.XMLSyntaxError, ValueError):
        return None
    body = root.find(_W + "body")
    if root.tag != _W + "document" or body is None:
        return None
    lines = [_paragraph(p) for p in body.iterchildren(_W + "p")]
    for table in body.iterchildren(_W + "tbl"):
        for row in table.iterchildren(_W + "tr"):
            cells = row.iterchildren(_W + "tc")
            lines.append("\t".join("\n".join(_paragraph(p) for p in cell.iterchildren(_W + "p")) for cell in cells))
    return "\n".join(lines)


def _paragraph(p: etree._Element) -> str:
    out: list[str] = []
    for child in p.iterchildren(_W + "r", _W + "hyperlink"):
        if child.tag == _W + "r":
            _run(child, out)
        else:
            for run in child.iterchildren(_W + "r"):
                _run(run, out)
    return "".join(out)


def _run(r: etree._Element, out: list[str]) -> None:
    for item in r.iterchildren():
        tag = item.tag
        if tag == _W + "t":
            out.append(item.text or "")
        elif tag == _W + "br":
            out.append("\n" if item.get(_W + "type", "textWrapping") == "textWrapping" else "")
        else:
            out.append(_RUN_TEXT.get(tag, ""))
