"""OneDrive's part of the default company: counts, shapes, real documents, agreement with the facts."""

from tools.apps.onedrive import OneDriveState
from tools.companies import NOW, USER, build_default
from tools.companies.default.onedrive import build
from tools.companies.default.people import people_records
from tools.companies.shared import BLOBS
from tools.kernel.documents import extract_text, read_cell


def test_fixture_counts_and_shape():
    state = OneDriveState.model_validate(build_default()["onedrive"])
    items = state.items
    assert len(items) == 49
    assert sum(i.kind == "folder" for i in items.values()) == 12
    assert sorted(i.name for i in items.values() if i.parent_id == "") == [
        "Atlas cutover checklist.docx",
        "Contoso negotiation notes.docx",
        "Exec staff agenda template.docx",
        "Offsite seating.xlsx",
        "Q1 forecast.xlsx",
        "REQ-1045 interview scorecards.xlsx",
    ]
    assert sorted(i.id for i in items.values() if i.deleted is not None) == [
        "itm_old_shot_1",
        "itm_old_shot_2",
        "itm_q1_budget_old",
        "itm_screenshots_2025",
        "itm_untitled",
    ]
    for i in items.values():
        assert i.parent_id in ("root", "") or items[i.parent_id].kind == "folder"
        assert i.permissions[0].email == i.owner and i.permissions[0].role == "owner"
        assert i.created <= i.modified < NOW
        assert (i.parent_id == "") == (i.owner != USER)
        if i.kind == "file":
            data = BLOBS[i.blob]
            assert i.size == len(data) and i.versions[-1].blob == i.blob and i.versions[-1].size == i.size
            assert [v.number for v in i.versions] == list(range(1, len(i.versions) + 1))
        else:
            assert i.blob == "" and i.size == 0 and i.versions == []
    assert len(state.links) == 6
    assert [lnk.id for lnk in state.links.values() if lnk.expires and lnk.expires < NOW.date()] == [
        "lnk_lodge_contract_public"
    ]
    assert all(lnk.item_id in items for lnk in state.links.values())


def test_fixture_files_are_real_documents():
    items = build_default()["onedrive"]["items"]
    magic = {".docx": b"PK", ".xlsx": b"PK", ".pdf": b"%PDF", ".png": b"\x89PNG"}
    kinds = set()
    for it in items.values():
        if it["kind"] == "file":
            suffix = "." + it["name"].rsplit(".", 1)[-1]
            kinds.add(suffix)
            if suffix in magic:
                assert BLOBS[it["blob"]].startswith(magic[suffix]), it["name"]
    assert kinds == {".docx", ".xlsx", ".pdf", ".csv", ".md", ".txt", ".png"}
    forecast = BLOBS[items["itm_shared_q1_forecast"]["blob"]]
    assert read_cell(forecast, "Summary", "A3") == "Q2 2026"
    assert read_cell(forecast, "Summary", "B3") == 3400000
    assert "NWT-4471" in extract_text(BLOBS[items["itm_lodge_contract"]["blob"]], "x.pdf")
    assert "$12,480.00" in extract_text(BLOBS[items["itm_inv_20417"]["blob"]], "x.pdf")


def test_fixture_agrees_with_company_facts():
    items = build_default()["onedrive"]["items"]
    q1 = BLOBS[items["itm_q1_budget"]["blob"]]
    assert read_cell(q1, "Q1 2026", "B5") == "Events" and read_cell(q1, "Q1 2026", "E5") == -13250
    pricing = BLOBS[items["itm_contoso_pricing"]["blob"]]
    assert read_cell(pricing, "Pricing", "C2") == 432000 and read_cell(pricing, "Pricing", "C3") == 444960
    assert "Saturday April 18, 06:00-10:00 ET" in extract_text(
        BLOBS[items["itm_shared_cutover_checklist"]["blob"]], "x.docx"
    )
    assert read_cell(BLOBS[items["itm_offsite_budget"]["blob"]], "Budget", "C2") == 38500


def test_fixture_is_deterministic():
    assert build(people_records(), NOW, USER) == build(people_records(), NOW, USER)
