import base64
import re
from datetime import datetime

import pytest

from tests.conftest import MemoryFiles, make_ctx
from tools.apps.box import BoxState, app
from tools.apps.box.fixture import build
from tools.fixtures import NOW, USER
from tools.fixtures.people import people_records
from tools.fixtures.shared import BLOBS
from tools.kernel.blobs import BlobStore
from tools.kernel.documents import extract_text, make_docx, make_pdf, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

DATA = build(people_records(), NOW, USER)
DOCX = "file_ct2291_agreement_docx"


def ctx(files=None):
    c = make_ctx("box", BoxState.model_validate(DATA), files)
    c.world.blobs = BlobStore(BLOBS)
    return c


def call(c, action, /, **args):
    return app.actions[action].invoke(c, args)


def names(results):
    return [r["name"] for r in results]


def text(c, blob, name):
    return extract_text(c.blobs.get(blob), name)


# ---- fixture ------------------------------------------------------------------------------------


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
    c = ctx()
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


def test_tool_names_fit_clients():
    assert len(app.actions) == 24
    assert all(len(a.tool_name) <= 48 for a in app.actions.values())


# ---- browsing -------------------------------------------------------------------------------------


def test_list_folder_root_hides_what_you_cannot_see():
    out = call(ctx(), "list_folder")
    assert out["folder"] == {"id": "0", "name": "All Files", "path": "/"}
    assert names(out["results"]) == [
        "Finance",
        "Legal",
        "Partners",
        "SOC 2 evidence - Crestview",
        "Chief of staff - open decisions.docx",
    ]


def test_list_folder_sorts_folders_first_and_pages():
    c = ctx()
    out = call(c, "list_folder", folder_id="folder_finance", sort="date", direction="desc", page_size=3)
    assert names(out["results"]) == ["Payments", "Vendor invoices", "CT-2291 renewal pricing model.xlsx"]
    assert out["total"] == 3 and out["next_page"] is None
    feb = call(c, "list_folder", folder_id="folder_invoices_2026_02", sort="size", page_size=5)
    sizes = [r["size"] for r in feb["results"]]
    assert sizes == sorted(sizes) and feb["total"] == 8 and feb["next_page"] == 2
    assert feb["folder"]["path"] == "/Finance/Vendor invoices/2026-02"


def test_list_folder_hides_trash():
    out = call(ctx(), "list_folder", folder_id="folder_payments")
    assert names(out["results"]) == ["Payment run 2026-03-06.csv", "Vendor payments 2026.xlsx"]
    assert out["results"][0]["id"] == "file_payment_run_2026_03_06"


def test_list_folder_errors():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "list_folder", folder_id="folder_compensation")
    assert err.value.parameter == "folder_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_folder", folder_id="file_inv_20417")
    assert "not a folder" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "list_folder", folder_id="folder_soc2_evidence")
    assert "uploader" in err.value.message and "kai.nakamura" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "list_folder", folder_id="folder_contoso_old_drafts")
    assert "trash" in err.value.message


def test_get_item_shows_path_role_and_link():
    c = ctx()
    out = call(c, "get_item", item_id="file_contoso_proposed_terms")
    assert out["path"] == "/Partners/Contoso/Contoso renewal - proposed terms.pdf"
    assert [p["id"] for p in out["path_collection"]] == ["0", "folder_partners", "folder_partners_contoso"]
    assert out["your_role"] == "owner" and out["comments"] == 2 and out["versions"] == 1
    link = out["shared_link"]
    assert link["access"] == "open" and link["password_protected"] is True and link["expires"] == "2026-03-31"
    assert link["url"].startswith("https://northwind.app.box.com/s/")
    folder = call(c, "get_item", item_id="folder_partners_lakeside")
    assert (
        folder["item_count"] == 2
        and folder["collaborators"] == 2
        and folder["shared_link"]["access"] == "collaborators"
    )


def test_roles_follow_collaborations_down_the_tree():
    c = ctx()
    roles = {i: call(c, "get_item", item_id=i)["your_role"] for i in (
        "folder_legal", "file_mutual_nda_template", "folder_contracts", DOCX, "file_inv_20417",
        "folder_partners_fabrikam", "folder_soc2_evidence", "file_access_review_q4",
    )}  # fmt: skip
    assert roles == {
        "folder_legal": "viewer",
        "file_mutual_nda_template": "viewer",
        "folder_contracts": "editor",
        DOCX: "editor",
        "file_inv_20417": "editor",
        "folder_partners_fabrikam": "owner",
        "folder_soc2_evidence": "uploader",
        "file_access_review_q4": "uploader",
    }


def test_get_item_errors():
    c = ctx()
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item_id="file_comp_bands_2026")
    assert err.value.parameter == "item_id" and "box search" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item_id="file_fabrikam_coi_2026")
    assert "list-trash" in err.value.message
    with pytest.raises(NotFound):
        call(c, "get_item", item_id="file_ct2291_early_outline")  # inside a trashed folder


# ---- search ---------------------------------------------------------------------------------------


def test_search_reads_document_text():
    out = call(ctx(), "search", query="Fabrikam 12,480", file_extensions=["pdf"])
    assert [r["id"] for r in out["results"]] == ["file_inv_20417"]
    hit = out["results"][0]
    assert hit["matched_in"] == ["content"] and "inv-20417" in hit["snippet"]
    assert hit["path"] == "/Finance/Vendor invoices/2026-02/INV-20417 Fabrikam Logistics.pdf"


def test_search_phrases_names_first_then_newest():
    c = ctx()
    out = call(c, "search", query='"CPI-U"')
    assert [r["id"] for r in out["results"]] == [DOCX]
    contoso = call(c, "search", query="CT-2291", page_size=100)["results"]
    by_name = [r for r in contoso if "name" in r["matched_in"]]
    assert contoso[: len(by_name)] == by_name and len(by_name) == 7  # 6 files and the "Contoso Ltd" folder
    stamps = [datetime.fromisoformat(r["modified"]) for r in by_name]
    assert stamps == sorted(stamps, reverse=True)


def test_search_filters():
    c = ctx()
    xlsx = call(c, "search", file_extensions=[".XLSX"], page_size=50)
    assert sorted(names(xlsx["results"])) == [
        "CT-2291 renewal pricing model.xlsx",
        "Contoso warehouse go-live status.xlsx",
        "Fabrikam rate card 2026.xlsx",
        "Fabrikam shipping schedule March 2026.xlsx",
        "Offsite rooming list.xlsx",
        "Vendor payments 2026.xlsx",
    ]  # not the compensation bands (no access) nor the SOC 2 workbook (uploader only)
    folders = call(c, "search", query="contoso", item_type="folder")
    assert sorted(names(folders["results"])) == ["Contoso", "Contoso Ltd"]
    inside = call(c, "search", query="invoice", folder_id="folder_invoices_2026_03", search_in="content")
    assert sorted(names(inside["results"])) == [
        "INV-20455 Litware Cloud Services.pdf",
        "INV-20459 Wide World Importers.pdf",
        "INV-20470 Proseware Recruiting.pdf",
    ]
    mine = call(c, "search", owner="alex.morgan", item_type="file", page_size=50)
    assert mine["total"] == 7
    only_names = call(c, "search", query="PO-88213", search_in="name")
    assert only_names["total"] == 0
    assert call(c, "search", query="PO-88213", search_in="content")["total"] >= 4


def test_search_skips_trash():
    c = ctx()
    assert call(c, "search", query="certificate of insurance")["total"] == 0
    assert call(c, "search", query="early outline")["total"] == 0
    call(c, "restore_item", item_id="file_fabrikam_coi_2026")
    assert names(call(c, "search", query="Humongous")["results"]) == ["Fabrikam certificate of insurance 2026.pdf"]


# ---- download and versions -----------------------------------------------------------------------


def test_download_text_inline_without_workspace():
    out = call(ctx(), "download_file", file_id="file_payment_run_2026_03_06")
    assert out["content"].startswith("payment_id,invoice,vendor")
    assert "PAY-30613" in out["content"] and out["size"] == len(out["content"])


def test_download_binary_needs_a_workspace():
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "download_file", file_id="file_inv_20417")
    assert err.value.parameter == "save_as" and "workspace" in err.value.message


def test_download_into_workspace_current_and_older_version():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "download_file", file_id=DOCX)
    assert out == {
        "id": DOCX,
        "name": "CT-2291 Contoso renewal agreement.docx",
        "version_number": 3,
        "mime_type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "saved_to": "downloads/CT-2291 Contoso renewal agreement.docx",
        "size": c.state.files[DOCX].size,
    }
    assert "CPI" in extract_text(files.files[out["saved_to"]], "a.docx")
    old = call(c, "download_file", file_id=DOCX, version=2, save_as="work/v2.docx")
    assert old["saved_to"] == "work/v2.docx" and old["version_number"] == 2
    assert "fixed for years 2 and 3" in extract_text(files.files["work/v2.docx"], "a.docx")


def test_download_errors():
    c = ctx(MemoryFiles())
    with pytest.raises(NotFound) as err:
        call(c, "download_file", file_id=DOCX, version=9)
    assert err.value.parameter == "version" and "1 to 3" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "download_file", file_id="file_access_review_q4")
    assert "uploader" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", file_id="folder_legal")
    assert "folder" in err.value.message


def test_previewer_can_look_but_not_download():
    c = ctx(MemoryFiles())
    c.state.collaborations["collab_alex_legal"].role = "previewer"
    assert call(c, "list_folder", folder_id="folder_legal_templates")["total"] == 3
    with pytest.raises(Conflict) as err:
        call(c, "download_file", file_id="file_mutual_nda_template")
    assert "previewer" in err.value.message


def test_list_versions_newest_first():
    out = call(ctx(), "list_versions", file_id=DOCX)
    assert out["current_version"] == 3
    assert [(v["number"], v["current"], v["uploaded_by"]) for v in out["versions"]] == [
        (3, True, "hannah.wood@northwind.example"),
        (2, False, "maya.young@northwind.example"),
        (1, False, "maya.young@northwind.example"),
    ]


def test_promote_version_copies_it_as_newest():
    c = ctx()
    v2 = c.state.versions["ver_ct2291_agreement_docx_2"].blob
    out = call(c, "promote_version", file_id=DOCX, version=2)
    assert out["version_number"] == 4 and out["promoted_from"] == 2 and out["modified_by"] == USER
    f = c.state.files[DOCX]
    assert f.blob == v2 and f.modified == NOW
    newest = [v for v in c.state.versions.values() if v.file_id == DOCX and v.number == 4]
    assert len(newest) == 1 and newest[0].promoted_from == 2 and newest[0].blob == v2
    assert len(call(c, "list_versions", file_id=DOCX)["versions"]) == 4


def test_promote_version_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "promote_version", file_id=DOCX, version=3)
    assert "already the current" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "promote_version", file_id=DOCX, version=7)
    assert err.value.parameter == "version"
    with pytest.raises(InvalidArgument) as err:
        call(c, "promote_version", file_id=DOCX, version=0)
    assert err.value.parameter == "version"


# ---- uploads --------------------------------------------------------------------------------------


def test_upload_text_file_inline():
    c = ctx()
    out = call(c, "upload_file", folder_id="folder_payments", name="Notes.md", content="# Notes\n- INV-20417\n")
    assert out["id"] == "file_n1" and out["mime_type"] == "text/markdown" and out["size"] == 20
    assert out["owner"] == "priya.shah@northwind.example" and out["created_by"] == USER
    assert out["path"] == "/Finance/Payments/Notes.md" and out["version_number"] == 1
    assert call(c, "download_file", file_id="file_n1")["content"] == "# Notes\n- INV-20417\n"
    assert [v.number for v in c.state.versions.values() if v.file_id == "file_n1"] == [1]


def test_upload_document_from_workspace_takes_name_from_path():
    pdf = make_pdf("Invoice INV-20480", ["Total due: $980.00"])
    c = ctx(MemoryFiles({"downloads/INV-20480 Contoso Cafe.pdf": pdf}))
    out = call(c, "upload_file", folder_id="folder_invoices_2026_03", path="downloads/INV-20480 Contoso Cafe.pdf")
    assert out["name"] == "INV-20480 Contoso Cafe.pdf" and out["mime_type"] == "application/pdf"
    assert c.blobs.get(c.state.files[out["id"]].blob) == pdf
    assert call(c, "search", query="980.00")["results"][0]["id"] == out["id"]
    top = call(c, "upload_file", name="Scratch.pdf", path="downloads/INV-20480 Contoso Cafe.pdf")
    assert top["parent_id"] == "0" and top["owner"] == USER


def test_upload_into_uploader_folder_is_allowed():
    c = ctx()
    out = call(c, "upload_file", folder_id="folder_soc2_evidence", name="CR-04 vendor reviews.csv", content="a,b\n")
    assert out["owner"] == "kai.nakamura@northwind.example" and out["your_role"] == "uploader"


def test_upload_refuses_base64_and_data_uris():
    c = ctx(MemoryFiles())
    encoded = base64.b64encode(make_pdf("x", ["y"])).decode()
    for pasted in (encoded, "data:application/pdf;base64," + encoded[:40]):
        with pytest.raises(InvalidArgument) as err:
            call(c, "upload_file", folder_id="folder_payments", name="x.csv", content=pasted)
        assert err.value.parameter == "content" and "pass path=" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_version", file_id="file_payment_run_2026_03_06", content=encoded)
    assert "save the file in your workspace" in err.value.message


def test_upload_errors():
    c = ctx(MemoryFiles({"a.txt": b"plain words", "good.csv": b"x\n"}))
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", folder_id="folder_payments", name="payment RUN 2026-03-06.csv", content="x")
    assert "upload-version" in err.value.message and "file_payment_run_2026_03_06" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments", name="Memo.docx", content="hello")
    assert err.value.parameter == "content" and "path=" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments", name="Memo.pdf", path="a.txt")
    assert err.value.parameter == "path" and ".pdf" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", folder_id="folder_legal_templates", name="x.md", content="x")
    assert "viewer" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments")
    assert err.value.parameter == "name"
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", folder_id="folder_payments", name="a/b.md", content="x")
    assert err.value.parameter == "name"
    with pytest.raises(NotFound):
        call(c, "upload_file", folder_id="folder_payments", path="missing.csv")
    with pytest.raises(InvalidArgument) as err:
        call(ctx(), "upload_file", folder_id="folder_payments", path="good.csv")
    assert err.value.parameter == "path" and "no workspace" in err.value.message


def test_upload_version_from_workspace():
    new = make_docx("Redline", ["9.4 Security incident notice: 72 hours"])
    c = ctx(MemoryFiles({"redline.docx": new}))
    out = call(c, "upload_version", file_id=DOCX, path="redline.docx")
    assert out["version_number"] == 4 and out["modified_by"] == USER and out["name"].endswith(".docx")
    assert c.blobs.get(c.state.files[DOCX].blob) == new
    assert "72 hours" in call(c, "search", query='"security incident"')["results"][0]["snippet"]
    with pytest.raises(Conflict) as err:
        call(c, "upload_version", file_id=DOCX, path="redline.docx")
    assert "same as the current version 4" in err.value.message


def test_upload_version_errors():
    c = ctx(MemoryFiles({"notes.txt": b"not a pdf"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_version", file_id="file_inv_20417", path="notes.txt")
    assert "not a .pdf" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_version", file_id=DOCX, content="new text")
    assert err.value.parameter == "content"
    with pytest.raises(Conflict) as err:
        call(c, "upload_version", file_id="file_nda_guidance", content="# new")
    assert "viewer" in err.value.message
    out = call(c, "upload_version", file_id="file_payment_run_2026_03_06", content="payment_id\nPAY-1\n")
    assert out["version_number"] == 2 and out["size"] == 17


# ---- folders, move, copy, rename --------------------------------------------------------------------


def test_create_folder():
    c = ctx()
    out = call(c, "create_folder", name="2026-04", parent_id="folder_vendor_invoices", description="April")
    assert out["id"] == "folder_n1" and out["path"] == "/Finance/Vendor invoices/2026-04"
    assert out["owner"] == "priya.shah@northwind.example" and out["description"] == "April"
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="2026-04", parent_id="folder_vendor_invoices")
    assert "folder_n1" in err.value.message
    with pytest.raises(Conflict):
        call(c, "create_folder", name="Drafts", parent_id="folder_signed_ndas")
    with pytest.raises(NotFound):
        call(c, "create_folder", name="x", parent_id="folder_contoso_old_drafts")
    assert call(c, "create_folder", name="Board")["parent_id"] == "0"


def test_move_item():
    c = ctx()
    out = call(c, "move_item", item_id="file_inv_20463", folder_id="folder_invoices_2026_03")
    assert out["path"] == "/Finance/Vendor invoices/2026-03/INV-20463 Fabrikam Logistics.pdf"
    assert c.state.files["file_inv_20463"].modified == NOW
    assert call(c, "list_folder", folder_id="folder_invoices_2026_02")["total"] == 7


def test_move_item_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "move_item", item_id="folder_partners", folder_id="folder_partners_contoso")
    assert err.value.parameter == "folder_id"
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="file_inv_20417", folder_id="folder_invoices_2026_02")
    assert "already in that folder" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="file_mutual_nda_template", folder_id="folder_partners")
    assert err.value.parameter == "item_id" and "viewer" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="file_inv_20417", folder_id="folder_signed_ndas")
    assert err.value.parameter == "folder_id"
    call(c, "create_folder", name="2026-02", parent_id="folder_partners")
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item_id="folder_invoices_2026_02", folder_id="folder_partners")
    assert "already has folder '2026-02'" in err.value.message


def test_copy_file_and_folder():
    c = ctx()
    copy = call(c, "copy_item", item_id="file_mutual_nda_template", folder_id="folder_partners_lakeside")
    assert copy["name"] == "Mutual NDA template 2026-01.docx" and copy["owner"] == USER
    assert copy["shared_link"] is None and copy["version_number"] == 1
    assert c.state.files[copy["id"]].blob == c.state.files["file_mutual_nda_template"].blob
    tree = call(c, "copy_item", item_id="folder_partners_lakeside", folder_id="0", new_name="Offsite 2026")
    assert tree["item_count"] == 3 and tree["collaborators"] == 0 and tree["shared_link"] is None
    assert sorted(names(call(c, "list_folder", folder_id=tree["id"])["results"])) == [
        "Lakeside Lodge event order NWT-4471.pdf",
        "Mutual NDA template 2026-01.docx",
        "Offsite rooming list.xlsx",
    ]


def test_copy_item_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "copy_item", item_id="file_inv_20417", folder_id="folder_invoices_2026_02")
    assert err.value.parameter == "folder_id" and "pick another name" in err.value.message
    same = call(c, "copy_item", item_id="file_inv_20417", folder_id="folder_invoices_2026_02",
                new_name="INV-20417 Fabrikam Logistics (copy).pdf")  # fmt: skip
    assert same["parent_id"] == "folder_invoices_2026_02"
    with pytest.raises(InvalidArgument) as err:
        call(c, "copy_item", item_id="folder_partners", folder_id="folder_partners_fabrikam")
    assert "into itself" in err.value.message


def test_rename_item():
    c = ctx()
    out = call(c, "rename_item", item_id="file_payment_run_2026_03_06", new_name="Payment run 2026-03-06 (final).csv")
    assert out["name"] == "Payment run 2026-03-06 (final).csv" and c.state.files[out["id"]].modified == NOW
    with pytest.raises(InvalidArgument) as err:
        call(c, "rename_item", item_id="file_inv_20417", new_name="INV-20417.docx")
    assert "keep the extension .pdf" in err.value.message
    with pytest.raises(Conflict):
        call(c, "rename_item", item_id="file_inv_20417", new_name="INV-20417 Fabrikam Logistics.pdf")
    with pytest.raises(Conflict) as err:
        call(c, "rename_item", item_id="file_inv_20417", new_name="inv-20388 proseware recruiting.PDF")
    assert "file_inv_20388" in err.value.message
    folder = call(c, "rename_item", item_id="folder_partners_lakeside", new_name="Lakeside Lodge (offsite)")
    assert folder["path"] == "/Partners/Lakeside Lodge (offsite)"


# ---- trash ----------------------------------------------------------------------------------------


def test_trash_folder_hides_its_contents():
    c = ctx()
    out = call(c, "trash_item", item_id="folder_partners_lakeside")
    assert out == {
        "id": "folder_partners_lakeside",
        "name": "Lakeside Lodge",
        "type": "folder",
        "path": "/Partners/Lakeside Lodge",
        "trashed_at": "2026-03-09T09:00:00-04:00",
        "items_inside": 2,
    }
    assert not c.state.files["file_offsite_rooming_list"].trashed  # goes with its folder
    with pytest.raises(NotFound):
        call(c, "get_item", item_id="file_offsite_rooming_list")
    assert call(c, "search", query="rooming")["total"] == 0
    trash = call(c, "list_trash")["results"]
    assert trash[0]["id"] == "folder_partners_lakeside" and trash[0]["trashed_by"] == USER
    assert trash[0]["original_path"] == "/Partners"


def test_trash_errors():
    c = ctx()
    with pytest.raises(Conflict):
        call(c, "trash_item", item_id="file_nda_guidance")
    with pytest.raises(NotFound):
        call(c, "trash_item", item_id="file_fabrikam_coi_2026")


def test_list_trash_newest_first():
    out = call(ctx(), "list_trash")
    assert [r["id"] for r in out["results"]] == [
        "file_fabrikam_coi_2026",
        "file_payment_run_2026_03_06_draft",
        "folder_contoso_old_drafts",
    ]
    assert (
        out["results"][2]["items_inside"] == 1 and out["results"][0]["original_path"] == "/Partners/Fabrikam Logistics"
    )


def test_restore_item():
    c = ctx()
    out = call(c, "restore_item", item_id="file_fabrikam_coi_2026")
    assert out["path"] == "/Partners/Fabrikam Logistics/Fabrikam certificate of insurance 2026.pdf"
    f = c.state.files["file_fabrikam_coi_2026"]
    assert (f.trashed, f.trashed_at, f.trashed_by) == (False, None, "")
    assert call(c, "list_folder", folder_id="folder_partners_fabrikam")["total"] == 2


def test_restore_refuses_a_name_taken_again():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="file_payment_run_2026_03_06_draft")
    assert err.value.parameter == "new_name" and "file_payment_run_2026_03_06" in err.value.message
    out = call(
        c, "restore_item", item_id="file_payment_run_2026_03_06_draft", new_name="Payment run 2026-03-06 draft.csv"
    )
    assert out["name"] == "Payment run 2026-03-06 draft.csv" and out["parent_id"] == "folder_payments"


def test_restore_folder_brings_contents_back():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="file_ct2291_early_outline")
    assert "not itself in the trash" in err.value.message
    call(c, "restore_item", item_id="folder_contoso_old_drafts")
    assert call(c, "get_item", item_id="file_ct2291_early_outline")["path"].startswith(
        "/Legal/Contracts/Contoso Ltd/Old drafts/"
    )


def test_restore_into_trashed_folder_needs_another_folder():
    c = ctx()
    call(c, "trash_item", item_id="file_offsite_rooming_list")
    call(c, "trash_item", item_id="folder_partners_lakeside")
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="file_offsite_rooming_list")
    assert err.value.parameter == "folder_id"
    out = call(c, "restore_item", item_id="file_offsite_rooming_list", folder_id="folder_partners")
    assert out["path"] == "/Partners/Offsite rooming list.xlsx"
    with pytest.raises(Conflict):
        call(c, "restore_item", item_id="file_inv_20417")


# ---- collaborations -------------------------------------------------------------------------------


def test_list_collaborations_direct_and_inherited():
    out = call(ctx(), "list_collaborations", folder_id="folder_contracts_contoso")
    assert out["owner"] == "isaac.king@northwind.example" and out["your_role"] == "editor"
    assert [(c["email"], c["role"]) for c in out["collaborations"]] == [
        ("isabella.rossi@northwind.example", "viewer"),
        ("james.okafor@northwind.example", "viewer"),
    ]
    inherited = {(c["email"], c["role"], c["inherited_from"]) for c in out["inherited"]}
    assert (USER, "editor", "/Legal/Contracts") in inherited
    assert (USER, "viewer", "/Legal") in inherited
    assert len(inherited) == 6


def test_invite_collaborators():
    c = ctx()
    inside = call(c, "invite_collaborator", folder_id="folder_partners_contoso", email="Hannah Wood", role="editor")
    assert inside["email"] == "hannah.wood@northwind.example" and inside["status"] == "accepted"
    outside = call(c, "invite_collaborator", folder_id="folder_partners_contoso", email="Legal@Contoso.example",
                   role="viewer")  # fmt: skip
    assert outside["status"] == "pending" and outside["email"] == "legal@contoso.example"
    assert c.state.collaborations[outside["id"]].invited_by == USER
    assert len(call(c, "list_collaborations", folder_id="folder_partners_contoso")["collaborations"]) == 5


def test_invite_errors():
    c = ctx()
    with pytest.raises(Conflict) as err:
        call(c, "invite_collaborator", folder_id="folder_partners_contoso", email=USER, role="viewer")
    assert "owns" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "invite_collaborator", folder_id="folder_partners_contoso", email="dana.li@contoso.example",
             role="editor")  # fmt: skip
    assert "collab_dana_li_contoso" in err.value.message and "update-collaboration" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "invite_collaborator", folder_id="folder_partners", email="nobody@northwind.example", role="viewer")
    assert err.value.parameter == "email"
    with pytest.raises(Conflict) as err:
        call(c, "invite_collaborator", folder_id="folder_finance", email="ella.moore@northwind.example",
             role="co-owner")  # fmt: skip
    assert "co-owner" in err.value.message
    with pytest.raises(Conflict):
        call(c, "invite_collaborator", folder_id="folder_legal", email="ella.moore@northwind.example", role="viewer")
    with pytest.raises(InvalidArgument) as err:
        call(c, "invite_collaborator", folder_id="0", email="ella.moore@northwind.example", role="viewer")
    assert err.value.parameter == "folder_id"
    with pytest.raises(InvalidArgument) as err:
        call(c, "invite_collaborator", folder_id="folder_partners", email="ella.moore@northwind.example", role="owner")
    assert err.value.parameter == "role"


def test_update_and_remove_collaborations():
    c = ctx()
    out = call(c, "update_collaboration", collaboration_id="collab_omar_fabrikam", role="uploader")
    assert out["previous_role"] == "editor" and out["role"] == "uploader"
    assert c.state.collaborations["collab_omar_fabrikam"].modified == NOW
    gone = call(c, "remove_collaboration", collaboration_id="collab_dana_li_contoso")
    assert gone == {
        "removed": "collab_dana_li_contoso",
        "folder_id": "folder_partners_contoso",
        "email": "dana.li@contoso.example",
        "role": "viewer",
    }
    assert "collab_dana_li_contoso" not in c.state.collaborations


def test_leaving_a_folder_yourself():
    c = ctx()
    call(c, "remove_collaboration", collaboration_id="collab_alex_legal")
    assert call(c, "get_item", item_id="folder_contracts")["your_role"] == "editor"
    with pytest.raises(NotFound):
        call(c, "get_item", item_id="folder_legal_templates")


def test_collaboration_errors():
    c = ctx()
    with pytest.raises(Conflict):
        call(c, "update_collaboration", collaboration_id="collab_omar_fabrikam", role="editor")
    with pytest.raises(Conflict) as err:
        call(c, "update_collaboration", collaboration_id="collab_marcus_finance", role="editor")
    assert "co-owner" in err.value.message
    with pytest.raises(Conflict):
        call(c, "remove_collaboration", collaboration_id="collab_hannah_legal")
    with pytest.raises(NotFound) as err:
        call(c, "remove_collaboration", collaboration_id="collab_nope")
    assert err.value.parameter == "collaboration_id"


# ---- shared links ---------------------------------------------------------------------------------


def test_create_and_replace_shared_link():
    c = ctx()
    out = call(c, "create_shared_link", item_id="file_inv_20417", access="company", expires="2026-03-20",
               can_download=False)  # fmt: skip
    link = c.state.files["file_inv_20417"].shared_link
    assert out["replaced"] is False and out["shared_link"]["url"] == link.url
    assert (link.access, link.can_download, link.expires.isoformat(), link.created_by) == (
        "company", False, "2026-03-20", USER)  # fmt: skip
    again = call(c, "create_shared_link", item_id="file_inv_20417", access="open", password="Fabrikam2026")
    assert again["replaced"] is True and again["shared_link"]["url"] == link.url
    assert again["shared_link"]["password_protected"] is True and again["shared_link"]["expires"] is None
    assert "Fabrikam2026" not in repr(c.world.snapshot())


def test_shared_link_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="company", password="Secret123")
    assert err.value.parameter == "password" and "'open'" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", password="short")
    assert err.value.parameter == "password"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", expires="2026-03-08")
    assert "before today" in err.value.message
    assert (
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", expires="2026-03-09")["shared_link"][
            "expires"
        ]
        == "2026-03-09"
    )
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", expires="next friday")
    assert err.value.parameter == "expires"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="public")
    assert err.value.parameter == "access"
    with pytest.raises(Conflict):
        call(c, "create_shared_link", item_id="file_vendor_nda_template", access="company")


def test_remove_shared_link():
    c = ctx()
    url = c.state.files["file_fabrikam_shipping_schedule"].shared_link.url
    out = call(c, "remove_shared_link", item_id="file_fabrikam_shipping_schedule")
    assert out["removed_url"] == url and c.state.files["file_fabrikam_shipping_schedule"].shared_link is None
    with pytest.raises(Conflict) as err:
        call(c, "remove_shared_link", item_id="file_fabrikam_shipping_schedule")
    assert "no shared link" in err.value.message
    with pytest.raises(Conflict):
        call(c, "remove_shared_link", item_id="file_mutual_nda_template")  # a viewer cannot


# ---- comments -------------------------------------------------------------------------------------


def test_list_comments_oldest_first():
    out = call(ctx(), "list_comments", file_id="file_inv_20417")
    assert [(r["author"], r["yours"]) for r in out["results"]] == [
        ("tomas.rivera@northwind.example", False),
        ("priya.shah@northwind.example", False),
    ]
    assert "$1,640" in out["results"][0]["message"] and out["file"]["name"] == "INV-20417 Fabrikam Logistics.pdf"


def test_add_and_delete_own_comment():
    c = ctx()
    out = call(c, "add_comment", file_id="file_nda_guidance", message="  Is the 2026 template final?  ")
    assert out["message"] == "Is the 2026 template final?" and out["yours"] is True  # a viewer may comment
    assert call(c, "delete_comment", comment_id=out["id"]) == {"deleted": out["id"], "file_id": "file_nda_guidance"}
    call(c, "delete_comment", comment_id="comment_terms_password_note")
    assert call(c, "list_comments", file_id="file_contoso_proposed_terms")["total"] == 1


def test_comment_errors():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "add_comment", file_id="file_inv_20417", message="   ")
    assert err.value.parameter == "message"
    with pytest.raises(Conflict) as err:
        call(c, "delete_comment", comment_id="comment_inv_20417_priya")
    assert "priya.shah" in err.value.message
    with pytest.raises(NotFound):
        call(c, "delete_comment", comment_id="comment_nope")
    with pytest.raises(Conflict):
        call(c, "add_comment", file_id="file_access_review_q4", message="hi")
    with pytest.raises(NotFound):
        call(c, "list_comments", file_id="file_fabrikam_coi_2026")


# ---- failed writes change nothing ------------------------------------------------------------------

FAILING_WRITES = [
    ("upload_file", {"folder_id": "folder_payments", "name": "Payment run 2026-03-06.csv", "content": "x"}),
    ("upload_file", {"folder_id": "folder_legal_templates", "name": "x.md", "content": "x"}),
    ("upload_file", {"folder_id": "folder_payments", "name": "x.csv", "content": "data:text/csv;base64,eA=="}),
    ("upload_version", {"file_id": "file_inv_20417", "content": "plain"}),
    ("promote_version", {"file_id": DOCX, "version": 3}),
    ("create_folder", {"name": "Legal"}),
    ("move_item", {"item_id": "folder_partners", "folder_id": "folder_partners_lakeside"}),
    ("copy_item", {"item_id": "file_inv_20417", "folder_id": "folder_invoices_2026_02"}),
    ("rename_item", {"item_id": "file_inv_20417", "new_name": "INV-20417.xlsx"}),
    ("trash_item", {"item_id": "folder_legal"}),
    ("restore_item", {"item_id": "file_payment_run_2026_03_06_draft"}),
    (
        "invite_collaborator",
        {"folder_id": "folder_finance", "email": "ella.moore@northwind.example", "role": "co-owner"},
    ),
    ("update_collaboration", {"collaboration_id": "collab_marcus_finance", "role": "viewer"}),
    ("remove_collaboration", {"collaboration_id": "collab_hannah_legal"}),
    ("create_shared_link", {"item_id": "file_inv_20417", "access": "company", "password": "Secret123"}),
    ("remove_shared_link", {"item_id": "file_inv_20417"}),
    ("add_comment", {"file_id": "file_access_review_q4", "message": "hi"}),
    ("delete_comment", {"comment_id": "comment_agreement_cpi"}),
]


@pytest.mark.parametrize(
    ("action", "args"), FAILING_WRITES, ids=[f"{a}-{n}" for n, (a, _) in enumerate(FAILING_WRITES)]
)
def test_failed_write_leaves_world_unchanged(action, args):
    c = ctx(MemoryFiles())
    before = c.world.snapshot()
    with pytest.raises((InvalidArgument, Conflict)):
        call(c, action, **args)
    assert c.world.snapshot() == before


def test_read_actions_are_marked_read_only():
    flags = {name: a.read_only for name, a in app.actions.items()}
    assert sorted(n for n, ro in flags.items() if ro) == [
        "download_file",
        "get_item",
        "list_collaborations",
        "list_comments",
        "list_folder",
        "list_trash",
        "list_versions",
        "search",
    ]


def test_docstring_examples_name_real_ids():
    ids = set(DATA["folders"]) | set(DATA["files"]) | set(DATA["collaborations"]) | set(DATA["comments"])
    text_all = " ".join(a.description for a in app.actions.values())
    mentioned = set(re.findall(r"=\"((?:file|folder|collab|comment)_[a-z0-9_]+)\"", text_all))
    assert len(mentioned) >= 12
    assert mentioned <= ids
