import re

from tools.apps import sharepoint
from tools.apps.sharepoint import SharePointState
from tools.companies import NOW, USER
from tools.companies.default.people import people_records
from tools.companies.default.sharepoint import build
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell


def test_fixture_counts_and_shape():
    data = build(people_records(), NOW, USER)
    state = SharePointState.model_validate(data)
    assert len(state.sites) == 4 and len(state.libraries) == 5 and len(state.lists) == 5
    assert sum(f.kind == "file" for f in state.files.values()) == 23
    assert sum(f.kind == "folder" for f in state.files.values()) == 11
    assert len(state.items) == 47
    assert {s.name for s in state.sites.values()} == {"Operations", "People & Culture", "Atlas Program", "Finance"}
    for site in state.sites.values():
        assert any(lib.site_id == site.id and lib.name == "Documents" for lib in state.libraries.values())
        assert sum(m.role == "full_control" for m in site.members) >= 2
        assert any(m.email == USER for m in site.members)
    for f in state.files.values():
        assert f.parent_id == "" or state.files[f.parent_id].kind == "folder"
        assert f.modified < NOW and f.created <= f.modified
        if f.kind == "file":
            assert f.blob in BLOBS and len(BLOBS[f.blob]) == f.size
    for item in state.items.values():
        columns = {c.name for c in state.lists[item.list_id].columns}
        assert set(item.values) <= columns
    assert [f.name for f in state.files.values() if f.deleted] == ["Vendor list 2024.xlsx"]


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)


def test_fixture_documents_are_real_and_agree_with_company_facts():
    state = SharePointState.model_validate(build(people_records(), NOW, USER))
    files = state.files
    runbook = extract_text(BLOBS[files["doc_atlas_cutover_runbook"].blob], "x.pdf")
    assert "Saturday April 18" in runbook and "Mia Thompson" in runbook
    plan = BLOBS[files["doc_headcount_plan_2026"].blob]
    assert read_cell(plan, "Plan", "B11") == 40 and read_cell(plan, "Plan", "D11") == 51
    checklist = extract_text(BLOBS[files["doc_vendor_onboarding_checklist"].blob], "x.docx")
    assert "$2,000,000" in checklist and "Victor Alvarez" in checklist
    first = extract_text(BLOBS[files["doc_vendor_onboarding_checklist"].versions[0].blob], "x.docx")
    assert "$2,000,000" not in first
    pricing = BLOBS[files["doc_contoso_renewal_pricing"].blob]
    assert read_cell(pricing, "Renewal", "C3") == 444960
    req = state.items["req_01"].values
    assert req["Req ID"] == "REQ-1042" and req["Hiring manager"] == "liam.chen@northwind.example"
    assert state.items["inv_03"].values["PO"] == "PO-7781"


def test_fixture_and_app_avoid_internal_words():
    text = repr(build(people_records(), NOW, USER)).lower()
    text += " ".join(a.description + str(a.input_schema) for a in sharepoint.app.actions.values()).lower()
    text += sharepoint.app.description.lower()
    state = SharePointState.model_validate(build(people_records(), NOW, USER))
    text += " ".join(extract_text(BLOBS[f.blob], f.name) for f in state.files.values() if f.blob).lower()
    words = r"gateway|episode|reward|grad(e|er|ing)\b|task|training|rollout|benchmark|verif|mask|simulat|agent|fixture"
    assert re.findall(words, text) == []


def test_every_tool_name_is_short_enough():
    assert len(sharepoint.app.actions) == 22
    assert all(len(a.tool_name) <= 48 for a in sharepoint.app.actions.values())
