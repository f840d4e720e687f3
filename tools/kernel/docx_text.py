"""A .docx file's text read straight from its XML: what python-docx gives, at a tenth of its cost.

python-docx opens every part of a package (styles, numbering, theme, settings) into its object model before
a paragraph can be read: ~9 ms for a one-page document, most of a proof's document searches. The text
:func:`tools.kernel.documents.extract_text` wants (the body's paragraphs, then every body table's rows as
tab-separated cells) needs only the main part. :func:`docx_text` checks the package as python-docx would
open it (every reachable part there and typed: :func:`tools.kernel.opc.package`) and reads the
main part with plain lxml, as python-docx 1.x reads it: a run's ``w:t``, ``w:tab``, ``w:ptab``, ``w:cr``,
``w:noBreakHyphen`` and text-wrapping ``w:br``; a paragraph's runs and hyperlinks in order; a cell's
paragraphs joined by newlines.

Where its reading could differ from python-docx's (a merged or spanned cell, a main part of another kind, a
DTD or another encoding than UTF-8, a package python-docx would refuse) it answers None, and the caller reads
the file with python-docx. ``tests/tools/kernel/test_docx_text.py`` and
``test_fast_readers_on_builtin_documents.py`` compare the two.
"""

from __future__ import annotations

import io
import zipfile

from lxml import etree

from tools.kernel.opc import NotPlain, package

__all__ = ["docx_text"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_OFFICE_DOCUMENT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
#: A cell spread over grid columns or rows: python-docx repeats it, which this reader does not.
_SPANS = (_W + "gridSpan", _W + "vMerge")
_RUN_TEXT = {_W + "tab": "\t", _W + "ptab": "\t", _W + "cr": "\n", _W + "noBreakHyphen": "-"}


def docx_text(data: bytes) -> str | None:
    """The text python-docx reads from a .docx: body paragraphs, then table rows (cells tab-separated).

    Args:
        data: The file's bytes (the caller has checked they unpack small).

    Returns:
        The text, one line per paragraph and per table row; None when this reader may not read it as
        python-docx does (the caller then uses python-docx): spanned or merged cells, a main part of another
        kind, a package python-docx would refuse (:func:`tools.kernel.opc.package`), or anything that does not
        parse.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            found = package(archive, drop_blank=True)
            mains = [part for _, kind, part in found.rels.get("/", []) if kind == _OFFICE_DOCUMENT]
            if len(mains) != 1 or found.types.get(mains[0]) != _MAIN:
                return None
            root = found.xml(mains[0])
    except (NotPlain, KeyError, zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError):
        return None
    body = root.find(_W + "body")
    if root.tag != _W + "document" or body is None or next(root.iter(*_SPANS), None) is not None:
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
