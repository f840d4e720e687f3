import re

from tests.tools.apps.drive.conftest import XLSX
from tools.apps.drive import DriveState, app
from tools.companies import NOW, USER
from tools.companies.default.drive import build
from tools.companies.default.people import people_records
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell


def test_fixture_counts_and_shape():
    state = DriveState.model_validate(build(people_records(), NOW, USER))
    files = state.files
    assert len(files) == 113
    assert sum(f.kind == "folder" for f in files.values()) == 28
    assert sum(f.owner == USER for f in files.values()) == 15
    assert sum(bool(f.drive_id) for f in files.values()) == 15
    assert {f.name for f in files.values() if f.trashed} == {"Q4 2025 budget draft.csv", "Untitled document.txt"}
    assert set(state.shared_drives) == {"sd_company_policies", "sd_atlas_program", "sd_sales_enablement"}
    assert len(state.comments) == 7
    for f in files.values():
        assert f.parent_id == "root" or f.parent_id in state.shared_drives or files[f.parent_id].kind == "folder"
        if f.parent_id in files:
            assert files[f.parent_id].drive_id == f.drive_id
        if not f.drive_id:
            assert f.permissions[0].email == f.owner and f.permissions[0].role == "owner"
        assert f.created <= f.modified < NOW
        assert (f.kind == "file") == bool(f.blob)
        if f.blob:
            assert f.size == len(BLOBS[f.blob]) > 0
        for n, v in enumerate(f.versions, start=1):
            assert v.number == n and v.modified <= f.modified and len(BLOBS[v.blob]) == v.size


def test_fixture_holds_real_documents():
    state = DriveState.model_validate(build(people_records(), NOW, USER))
    kinds = {f.name.rsplit(".", 1)[-1] for f in state.files.values() if f.kind == "file"}
    assert {"docx", "xlsx", "pdf", "png", "csv", "md", "txt"} <= kinds
    q1 = BLOBS[state.files["file_q1_budget"].blob]
    assert state.files["file_q1_budget"].name == "Q1 budget.xlsx" and state.files["file_q1_budget"].mime_type == XLSX
    assert read_cell(q1, "Engineering", "B2") == 186000
    assert read_cell(q1, "Marketing", "D2") == -13250
    assert read_cell(q1, "Summary", "A9") == "Total"
    contract = extract_text(BLOBS[state.files["file_lakeside_lodge_contract_signed"].blob])
    assert "NWT-4471" in contract and "Free cancellation until Monday March 23, 2026" in contract
    assert BLOBS[state.files["file_leadership_offsite_2025_team_photo"].blob].startswith(b"\x89PNG")
    pricing = state.files["file_contoso_renewal_pricing"]
    assert [read_cell(BLOBS[v.blob], "Pricing", "C2") for v in pricing.versions] == [453600, 444960]
    assert read_cell(BLOBS[pricing.blob], "Pricing", "C2") == 432000
    assert pricing.modified_by == "benjamin.clark@northwind.example"


def test_fixture_comment_quotes_appear_in_their_files():
    state = DriveState.model_validate(build(people_records(), NOW, USER))
    for cmt in state.comments.values():
        text = " ".join(extract_text(BLOBS[state.files[cmt.file_id].blob], state.files[cmt.file_id].name).split())
        assert cmt.quote.lower() in text.lower(), cmt.id
        assert all(r.created >= cmt.created for r in cmt.replies)


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_fixture_and_app_avoid_internal_words():
    data = build(people_records(), NOW, USER)
    blob = repr(data).lower()
    blob += " ".join(extract_text(BLOBS[f["blob"]], f["name"]) for f in data["files"].values() if f["blob"]).lower()
    blob += " ".join(a.description + str(a.input_schema) for a in app.actions.values()).lower()
    blob += app.description.lower()
    words = r"gateway|episode|reward|grad(e|er|ing)|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, blob) == []
    assert re.findall(r"\brl\b", blob) == []
