"""The fast .docx and .xlsx readers against the libraries on every document the built-in tasks hold.

One family's row documents and one company's documents per reader in the default tier, the rest slow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from gateway.control.rows import load_builtin_tasks
from gateway.control.worlds import _blob_ids, world_template
from tests.tiers import sampled
from tests.tools.kernel.test_docx_text import python_docx_text
from tests.tools.kernel.test_xlsx_text import openpyxl_values
from tools.companies.catalog import company_state
from tools.companies.generated.backgrounds import BACKGROUNDS
from tools.companies.shared import BLOBS
from tools.kernel.docx_text import docx_text
from tools.kernel.xlsx_text import workbook_values

TASKS = load_builtin_tasks()
#: Reader name -> (the part a file of its kind holds, the fast reader, the library's reading).
READERS: dict[str, tuple[bytes, Callable[[bytes], Any], Callable[[bytes], Any]]] = {
    "docx": (b"word/document.xml", docx_text, python_docx_text),
    "xlsx": (b"xl/workbook.xml", workbook_values, openpyxl_values),
}
#: (an instance of each family whose rows make documents of the reader's kind, the reader).
ROWS = sorted(
    {(t.family, reader): (tid, reader) for tid, t in sorted(TASKS.items()) for reader in READERS
     if t.family and any(spec.get("kind") == reader for spec in t.documents.values())}.values()
)  # fmt: skip
COMPANIES = sorted({tid.split(".")[1] for tid, t in TASKS.items() if t.family})


def compare_all(blobs: Mapping[str, bytes], reader: str) -> int:
    """Read every file of the reader's kind in ``blobs`` both ways; how many the fast reader read."""
    part, fast_reader, library = READERS[reader]
    read = 0
    for key in sorted(blobs):
        data = blobs[key]
        if data.startswith(b"PK") and part in data and (fast := fast_reader(data)) is not None:
            assert fast == library(data), key
            read += 1
    return read


@pytest.mark.parametrize(("task_id", "reader"), sampled(ROWS, 2, seed="fast-readers"))
def test_every_document_a_row_makes_reads_the_same_both_ways(task_id, reader):
    """An instance of each family that makes documents of the kind (its company's: the test below)."""
    task = TASKS[task_id]
    blobs = world_template(task).blobs  # holds the row's documents, made (or already in the shared store)
    assert compare_all({blob: blobs[blob] for blob in task.documents}, reader) > 0


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("company", sampled(COMPANIES, 1, seed="fast-readers"))
def test_every_document_of_a_company_reads_the_same_both_ways(company, reader):
    """The company's own files only: the shared store also holds what other tests' rows made."""
    states = [company_state(company, app, copy=False) for app in BACKGROUNDS]
    held = {blob: BLOBS[blob] for blob in _blob_ids(states)}
    assert compare_all(held, reader) > 0  # every company keeps both kinds
