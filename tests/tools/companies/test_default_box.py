import re

from tests.tools.apps.box.conftest import DOCX, text
from tests.tools.apps.conftest import app_ctx
from tools.apps.box import BoxState, app
from tools.companies import NOW, USER
from tools.companies.default.box import build
from tools.companies.default.people import people_records
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell

DATA = build(people_records(), NOW, USER)


def test_fixture_counts_and_shape():
    state = BoxState.model_validate(DATA)
    assert (len(state.folders), len(state.files), len(state.versions)) == (19, 39, 42)
    assert (len(state.collaborations), len(state.comments)) == (24, 10)
    assert sorted(i for i, x in [*state.folders.items(), *state.files.items()] if x.trashed) == [
        "file_fabrikam_coi_2026",
        "file_payment_run_2026_03_06_draft",
        "folder_contoso_old_drafts",
    ]
    assert sum(x.shared_link is not None for x in [*state.folders.values(), *state.files.values()]) == 5
    for f in state.files.values():
        assert f.parent_id == "0" or f.parent_id in state.folders
        history = sorted((v for v in state.versions.values() if v.file_id == f.id), key=lambda v: v.number)
        assert [v.number for v in history] == list(range(1, f.version_number + 1))
        assert history[-1].blob == f.blob and f.size == len(BLOBS[f.blob])
        assert f.created <= f.modified < NOW
    for c in state.collaborations.values():
        assert c.folder_id in state.folders
    for c in state.comments.values():
        assert c.file_id in state.files and c.created < NOW


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == DATA


def test_fixture_documents_are_real_and_tell_the_story():
    c = app_ctx("box")
    versions = {v.number: v.blob for v in c.state.versions.values() if v.file_id == DOCX}
    name = "a.docx"
    assert "fixed for years 2 and 3" not in text(c, versions[1], name)
    assert "fixed for years 2 and 3" in text(c, versions[2], name)
    assert "CPI" in text(c, versions[3], name) and "fixed for years 2" not in text(c, versions[3], name)
    invoice = text(c, c.state.files["file_inv_20417"].blob, "x.pdf")
    assert "INV-20417" in invoice and "$12,480.00" in invoice and "PO-7781" in invoice
    book = c.blobs.get(c.state.files["file_vendor_payments_2026"].blob)
    assert read_cell(book, "February", "A4") == "INV-20417"
    assert read_cell(book, "February", "C4") == 12480.0
    assert c.state.files["file_inv_20463"].parent_id == "folder_invoices_2026_02"  # misfiled on purpose


def test_fixture_and_app_avoid_internal_words():
    blob = repr(DATA).lower()
    blob += " ".join(a.description + str(a.input_schema) for a in app.actions.values()).lower()
    blob += " ".join(extract_text(BLOBS[f["blob"]], f["name"]) for f in DATA["files"].values()).lower()
    words = r"gateway|episode|reward|grad(e|er|ing)\b|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, blob) == []
