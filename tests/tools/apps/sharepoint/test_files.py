import base64

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.sharepoint.conftest import ctx, names, set_role
from tools.companies import NOW, USER
from tools.kernel.documents import extract_text, make_docx
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_search_files_by_name_and_document_text():
    c = ctx()
    assert names(call(c, "search_files", query="runbook")["results"]) == ["Atlas cutover runbook.pdf"]
    by_text = call(c, "search_files", query="general liability")
    assert names(by_text["results"]) == ["Vendor onboarding checklist.docx"]
    pdfs = call(c, "search_files", file_type=".PDF", site="Finance")
    assert sorted(names(pdfs["results"])) == ["INV-20401 Litware Cloud Services.pdf",
                                              "INV-20422 Northwind Office Supply.pdf"]  # fmt: skip
    folders = call(c, "search_files", query="status", kind="folder")
    assert names(folders["results"]) == ["Status reports"]
    assert call(c, "search_files", query="Vendor list 2024")["total"] == 0  # in the recycle bin


def test_search_files_newest_first_and_paged():
    c = ctx()
    everything = call(c, "search_files", page_size=100)["results"]
    assert len(everything) == 33
    stamps = [r["modified"] for r in everything]
    assert everything[0]["name"] == "Operations weekly 2026-03-06.docx"
    second = call(c, "search_files", page=2, page_size=10)
    assert second["results"] == everything[10:20] and second["next_page"] == 3
    assert len(stamps) == len({r["id"] for r in everything})


def test_get_file_shows_versions_and_folder_counts():
    c = ctx()
    out = call(c, "get_file", file_id="doc_vendor_onboarding_checklist")
    assert out["version"] == "3.0" and [v["version"] for v in out["versions"]] == ["1.0", "2.0"]
    assert out["versions"][1]["modified_by"] == "victor.alvarez@northwind.example"
    assert out["created_by"] == "maya.young@northwind.example"
    assert out["url"].endswith("/sites/Operations/Documents/Vendor%20management/Vendor%20onboarding%20checklist.docx")
    folder = call(c, "get_file", file_id="folder_atlas_status_reports")
    assert folder["items"] == 1 and "versions" not in folder
    assert call(c, "get_file", file_id="doc_vendor_list_2024")["in_recycle_bin"] is True
    err = unchanged(c, "get_file", NotFound, file_id="doc_nope")
    assert err.parameter == "file_id"


def test_download_saves_into_the_workspace():
    files = MemoryFiles()
    c = ctx(files)
    out = call(c, "download_file", file_id="doc_atlas_cutover_runbook")
    assert out == {"id": "doc_atlas_cutover_runbook", "name": "Atlas cutover runbook.pdf",
                   "mime_type": "application/pdf", "version": "1.0", "saved_to": "downloads/Atlas cutover runbook.pdf",
                   "size": c.state.files["doc_atlas_cutover_runbook"].size}  # fmt: skip
    assert files.files["downloads/Atlas cutover runbook.pdf"].startswith(b"%PDF")
    old = call(c, "download_file", file_id="doc_vendor_onboarding_checklist", version="1.0", save_as="v1.docx")
    assert old["version"] == "1.0" and "$2,000,000" not in extract_text(files.files["v1.docx"], "v1.docx")


def test_download_without_a_workspace_inlines_text_only():
    c = ctx()
    out = call(c, "download_file", file_id="doc_atlas_cutover_contacts")
    assert out["content"].startswith("Role,Name,Email,Phone,On duty (ET)\nCutover lead,Mia Thompson,")
    assert "saved_to" not in out
    err = unchanged(c, "download_file", InvalidArgument, file_id="doc_headcount_plan_2026")
    assert "not a text file" in err.message


def test_download_errors():
    c = ctx(MemoryFiles())
    err = unchanged(c, "download_file", NotFound, file_id="doc_vendor_onboarding_checklist", version="4.0")
    assert err.parameter == "version" and "1.0, 2.0, 3.0" in err.message
    err = unchanged(c, "download_file", InvalidArgument, file_id="folder_ops_facilities")
    assert "list-library" in err.message
    err = unchanged(c, "download_file", NotFound, file_id="doc_vendor_list_2024")
    assert "recycle bin" in err.message and "restore-file" in err.message


def test_upload_from_the_workspace_keeps_the_real_bytes():
    data = make_docx("Quote", ["Alpine Ski House quote: $5,400."])
    files = MemoryFiles({"out/quote.docx": data})
    c = ctx(files)
    out = call(c, "upload_file", site="Operations", folder="Vendor management", path="out/quote.docx")
    assert out["name"] == "quote.docx" and out["version"] == "1.0" and out["id"] == "doc_n1"
    assert out["path"] == "Documents/Vendor management/quote.docx" and out["size"] == len(data)
    rec = c.state.files[out["id"]]
    assert rec.mime_type.endswith("wordprocessingml.document") and rec.created_by == USER and rec.modified == NOW
    assert c.blobs.get(rec.blob) == data
    assert "Alpine Ski House" in extract_text(c.blobs.get(rec.blob), rec.name)


def test_upload_text_inline_and_new_versions():
    c = ctx()
    first = call(c, "upload_file", site="Finance", name="Notes.md", folder="Invoices", content="# v1\n")
    err = unchanged(c, "upload_file", Conflict, site="Finance", name="notes.md", folder="Invoices", content="v2")
    assert err.parameter == "name" and "overwrite=true" in err.message
    second = call(c, "upload_file", site="Finance", name="Notes.md", folder="Invoices", content="# v2\n",
                  overwrite=True)  # fmt: skip
    assert second["id"] == first["id"] and second["version"] == "2.0"
    assert [v["version"] for v in second["versions"]] == ["1.0"]
    rec = c.state.files[first["id"]]
    assert c.blobs.get(rec.blob) == b"# v2\n" and c.blobs.get(rec.versions[0].blob) == b"# v1\n"
    assert call(c, "download_file", file_id=first["id"], version="1.0")["content"] == "# v1\n"


def test_upload_refuses_encoded_content_and_binary_text():
    c = ctx(MemoryFiles())
    encoded = base64.b64encode(make_docx("X", ["hello"])).decode()
    err = unchanged(c, "upload_file", InvalidArgument, site="Operations", name="x.txt", content=encoded)
    assert err.parameter == "content" and "pass path=" in err.message
    assert err.message.startswith("looks like file content pasted as base64 or a data: URI")
    err = unchanged(c, "upload_file", InvalidArgument, site="Operations", name="x.png",
                        content="data:image/png;base64,iVBORw0KGgo=")  # fmt: skip
    assert "workspace" in err.message
    err = unchanged(c, "upload_file", InvalidArgument, site="Operations", name="Plan.docx", content="plain words")
    assert err.parameter == "content" and "path=" in err.message


def test_upload_errors_leave_the_world_unchanged():
    c = ctx(MemoryFiles({"a.csv": b"a,b\n"}))
    err = unchanged(c, "upload_file", InvalidArgument, site="Operations", name="a.csv", content="x", path="a.csv")
    assert err.parameter == "content"
    unchanged(c, "upload_file", NotFound, site="Operations", path="missing.csv")
    err = unchanged(c, "upload_file", InvalidArgument, site="Operations", name="a/b.csv", content="x")
    assert err.parameter == "name"
    assert err.message == "'a/b.csv' contains /; names cannot contain \\ / : * ? \" < > | # %"
    err = unchanged(c, "upload_file", InvalidArgument, site="Operations", name="notes.", content="x")
    assert err.parameter == "name" and "end with a dot" in err.message
    err = unchanged(c, "upload_file", InvalidArgument, site="Operations", content="x")
    assert err.parameter == "name"
    err = unchanged(c, "upload_file", Conflict, site="Operations", name="Facilities", content="x", overwrite=True)
    assert "overwrite" not in err.message
    set_role(c, "site_finance", "read")
    err = unchanged(c, "upload_file", Conflict, site="Finance", path="a.csv")
    assert err.parameter == "site" and "read access" in err.message
    err = unchanged(ctx(), "upload_file", InvalidArgument, site="Operations", path="a.csv")
    assert err.parameter == "path" and "no workspace" in err.message


def test_move_file_into_a_folder_and_to_another_site():
    c = ctx()
    out = call(c, "move_file", file_id="doc_atlas_status_2026_03_04", to_folder="Status reports")
    assert out["path"] == "Documents/Status reports/Atlas status 2026-03-04.docx"
    assert c.state.files["doc_atlas_status_2026_03_04"].modified < NOW  # moving keeps the last change
    moved = call(c, "move_file", file_id="folder_ops_offsite_2026", to_site="Finance", to_folder="Contracts")
    assert moved["site"] == "Finance" and moved["path"] == "Documents/Contracts/Offsite 2026"
    inner = c.state.files["doc_lakeside_lodge_agreement"]
    assert (inner.site_id, inner.library_id) == ("site_finance", "lib_finance_documents")
    back = call(c, "move_file", file_id="doc_lakeside_lodge_agreement", to_site="Operations")
    assert back["path"] == "Documents/Lakeside Lodge agreement NWT-4471.pdf"


def test_move_file_errors():
    c = ctx(MemoryFiles({"dup.docx": make_docx("Duplicate", ["x"])}))
    err = unchanged(c, "move_file", InvalidArgument, file_id="folder_atlas_testing", to_folder="Testing")
    assert err.parameter == "to_folder"
    call(c, "create_folder", site="Atlas Program", name="Inner", folder="Testing")
    unchanged(c, "move_file", InvalidArgument, file_id="folder_atlas_testing", to_folder="Testing/Inner")
    call(c, "upload_file", site="Atlas Program", folder="Status reports", name="Atlas status 2026-03-04.docx",
         path="dup.docx")  # fmt: skip
    err = unchanged(c, "move_file", Conflict, file_id="doc_atlas_status_2026_03_04", to_folder="Status reports")
    assert err.parameter == "to_folder"
    set_role(c, "site_finance", "read")
    err = unchanged(c, "move_file", Conflict, file_id="doc_atlas_cutover_runbook", to_site="Finance")
    assert err.parameter == "to_site"
    err = unchanged(c, "move_file", Conflict, file_id="doc_inv_20401", to_folder="Budgets")
    assert err.parameter == "file_id"
    same = call(c, "move_file", file_id="doc_atlas_cutover_runbook")
    assert same["path"] == "Documents/Atlas cutover runbook.pdf"


def test_rename_file():
    c = ctx()
    out = call(c, "rename_file", file_id="doc_ops_weekly_2026_03_06", new_name="Ops weekly - March 6.docx")
    assert out["name"] == "Ops weekly - March 6.docx" and out["modified"].startswith("2026-03-09T09:00")
    err = unchanged(c, "rename_file", InvalidArgument, file_id="doc_ops_weekly_2026_03_06", new_name="Ops.pdf")
    assert err.parameter == "new_name" and ".docx" in err.message
    err = unchanged(c, "rename_file", Conflict, file_id="folder_ops_facilities", new_name="vendor MANAGEMENT")
    assert err.parameter == "new_name"
    assert call(c, "rename_file", file_id="folder_ops_facilities", new_name="Facilities & rooms")["kind"] == "folder"
