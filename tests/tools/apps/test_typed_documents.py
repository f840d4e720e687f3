"""Every app that takes a file's content inline refuses typed text under a binary document's name, in one wording.

A document (.pdf, .docx, .xlsx, .png ...) comes from the workspace by path; text typed under its name is
not that document. The refusal is :func:`tools.kits.files.refuse_typed_document`, the same in every app.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tools import REGISTRY
from tools.kernel.exceptions import InvalidArgument
from tools.kits.files import TYPED_DOCUMENT_REFUSAL

TYPED = "Equipment loan agreement EQ-12345\nEmployee: Ana Lopez\nSigned by Ana Lopez"

#: (app, action, arguments but the content, the file name the refusal names): every content-taking action.
CASES: list[tuple[str, str, dict[str, Any], str]] = [
    ("drive", "create_file", {"name": "Loan_signed.pdf", "parent_id": "root"}, "Loan_signed.pdf"),
    ("drive", "update_file", {"file_id": "file_lakeside_lodge_contract_signed"},
     "Lakeside Lodge contract (signed).pdf"),
    ("onedrive", "upload_file", {"name": "Loan_signed.pdf", "folder": "/"}, "Loan_signed.pdf"),
    ("onedrive", "upload_file", {"item_id": "itm_lodge_contract"}, "Lakeside Lodge contract NWT-4471.pdf"),
    ("sharepoint", "upload_file", {"site": "Operations", "name": "Loan_signed.pdf"}, "Loan_signed.pdf"),
    ("box", "upload_file", {"folder_id": "0", "name": "Loan_signed.pdf"}, "Loan_signed.pdf"),
    ("box", "upload_version", {"file_id": "file_fabrikam_freight_agreement"},
     "Fabrikam Logistics freight services agreement.pdf"),
    ("slack", "upload_file", {"channel": "#ops", "filename": "Loan_signed.pdf"}, "Loan_signed.pdf"),
    ("helpdesk", "attach_file", {"ticket_id": "HD-1029", "name": "Loan_signed.pdf"}, "Loan_signed.pdf"),
]  # fmt: skip

REFUSAL = f"'NAME' {TYPED_DOCUMENT_REFUSAL}; save the file in your workspace and pass path=<workspace path>"


def test_the_cases_cover_every_action_that_takes_content_inline():
    takes_content = {
        (app, name)
        for app, registered in REGISTRY.apps.items()
        for name, action in registered.actions.items()
        if "content" in action.params_model.model_fields and not action.read_only
    }
    assert takes_content == {(app, action) for app, action, _, _ in CASES}


@pytest.mark.parametrize(("app", "action", "args", "name"), CASES, ids=[f"{c[0]}.{c[1]}.{c[3]}" for c in CASES])
@pytest.mark.parametrize("suffix", [".pdf", ".docx", ".xlsx", ".png"])
def test_typed_text_under_a_binary_name_is_refused_in_the_same_words(app, action, args, name, suffix):
    if suffix != ".pdf":  # a new file's name carries the type; an existing file keeps its own
        if name not in args.values():
            pytest.skip("an existing file's type is its own name's")
        args = {k: (v.replace(".pdf", suffix) if v == name else v) for k, v in args.items()}
        name = name.replace(".pdf", suffix)
    c = app_ctx(app, MemoryFiles())
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, action, **args, content=TYPED)
    assert err.value.parameter == "content"
    assert err.value.message.replace(name, "NAME") == REFUSAL
    assert c.world.snapshot() == before


@pytest.mark.parametrize(("app", "action", "args", "name"), CASES, ids=[f"{c[0]}.{c[1]}.{c[3]}" for c in CASES])
def test_the_real_document_from_the_workspace_is_taken(app, action, args, name):
    pdf = b"%PDF-1.4\n" + bytes(range(256)) + b"\n%%EOF\n"
    c = app_ctx(app, MemoryFiles({"forms/signed.pdf": pdf}))
    call(c, action, **args, path="forms/signed.pdf")
    assert pdf in {c.world.blobs.get(b) for b in _blobs(c.world.snapshot()[app])}


def test_text_under_a_text_name_and_a_real_typed_pdf_are_taken():
    c = app_ctx("helpdesk", MemoryFiles())
    assert call(c, "attach_file", ticket_id="HD-1029", name="notes.txt", content=TYPED)["name"] == "notes.txt"
    typed_pdf = (
        "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\nxref\n0 2\n0000000000 65535 f \n0000000009 00000 n \n"
        "trailer\n<< /Size 2 /Root 1 0 R >>\nstartxref\n54\n%%EOF\n"
    )
    assert call(c, "attach_file", ticket_id="HD-1029", name="form.pdf", content=typed_pdf)["name"] == "form.pdf"


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("Loan_signed.pdf", "%PDF-1.7\n" + TYPED),
        ("Loan_signed.pdf", "%PDF-1.4\n" + TYPED + "\n%%EOF\n"),  # an end marker, but no cross-reference
        ("Loan_signed.pdf", "%PDF-1.4\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
        ("Loan.docx", "PK\x03\x04" + TYPED),
        ("Loan.xlsx", "PK\x03\x04\x14\x00" + TYPED),
        ("Loan.png", "\x89PNG\r\n\x1a\n" + TYPED),
    ],
    ids=["pdf-header", "pdf-eof", "pdf-trailer", "docx", "xlsx", "png"],
)
def test_typed_text_that_starts_with_a_documents_first_bytes_is_still_typed_text(name, content):
    c = app_ctx("helpdesk", MemoryFiles())
    before = c.world.snapshot()
    with pytest.raises(InvalidArgument) as err:
        call(c, "attach_file", ticket_id="HD-1029", name=name, content=content)
    assert err.value.message.startswith(f"'{name}' {TYPED_DOCUMENT_REFUSAL}")
    assert c.world.snapshot() == before


def _blobs(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {b for v in value.values() for b in _blobs(v)}
    if isinstance(value, list):
        return {b for v in value for b in _blobs(v)}
    return {value} if isinstance(value, str) and value.startswith("sha256:") else set()
