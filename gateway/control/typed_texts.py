"""Text typed in place of a moved file, for the *typed file* control: the words the checks look for, as typed text.

A policy that types a document instead of moving it writes what the checks look for: their ``text``
matchers' words and their ``csv_row`` rows, as plain text (a CSV under a .csv name) and, under a
document's name, as a PDF typed by hand (a real PDF carrying none of the source's bytes).
"""

from __future__ import annotations

import csv
import io
from typing import Any

__all__ = ["typed_texts"]

#: Names of text files: typed text is such a file, so no PDF is typed under them.
_TEXT_SUFFIXES = (".txt", ".md", ".csv", ".json", ".html", ".xml", ".ics", ".eml", ".log", ".tsv", ".yaml")


def _literals(spec: Any) -> list[str]:
    """The literal text a matcher asks for: a plain value, or its ``eq``, ``ieq``, ``contains`` and ``regex``."""
    if isinstance(spec, dict):
        return [str(spec[k]) for k in ("eq", "ieq", "contains", "regex") if isinstance(spec.get(k), str | int)]
    return [] if isinstance(spec, list) else [str(spec)]


def _check_words(value: Any, words: list[str], rows: list[dict[str, str]]) -> None:
    """Collect what the checks look for in a file: the text of ``text`` matchers and the rows of ``csv_row``."""
    if isinstance(value, list):
        for item in value:
            _check_words(item, words, rows)
    if not isinstance(value, dict):
        return
    for key, inner in value.items():
        if key == "text":
            words += _literals(inner)
        elif key == "csv_row" and isinstance(inner, dict):
            rows.append({str(col): next(iter(_literals(v)), "") for col, v in inner.items()})
        else:
            _check_words(inner, words, rows)


def typed_texts(checks: list[dict[str, Any]], name: str) -> list[str]:
    """Text typed under ``name`` holding what ``checks`` look for: plain (a CSV for a .csv), and a hand-typed PDF."""
    words: list[str] = []
    rows: list[dict[str, str]] = []
    _check_words(checks, words, rows)
    words = list(dict.fromkeys(w for w in words if w.strip()))
    title = [] if "{" in name else [name.rsplit(".", 1)[0]]  # a name only known in play is left out
    lines = [*title, *words, *(v for row in rows for v in row.values() if v)]
    plain = "\n".join(lines) + "\n"
    if rows and name.lower().endswith(".csv"):
        out = io.StringIO()
        columns = list(dict.fromkeys(c for row in rows for c in row))
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        plain = out.getvalue() + "".join(f"{w}\n" for w in words)
    if name.lower().endswith(_TEXT_SUFFIXES):
        return [plain]
    return [plain, _typed_pdf(lines)]  # a document's name, or one only known in play


def _typed_pdf(lines: list[str]) -> str:
    """A PDF typed by hand: one page showing ``lines`` (a real PDF, made of text, carrying none of the source)."""

    def esc(line: str) -> str:
        return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    shown = " ".join(f"({esc(line)}) '" for line in lines)
    body = f"BT /F1 11 Tf 72 720 Td 14 TL {shown} ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(body.encode())} >>\nstream\n{body}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = "%PDF-1.4\n", []
    for n, obj in enumerate(objects, 1):
        offsets.append(len(out.encode()))
        out += f"{n} 0 obj\n{obj}\nendobj\n"
    xref = len(out.encode())
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n" + "".join(f"{o:010d} 00000 n \n" for o in offsets)
    return out + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
