"""OneDrive file actions: get-item, search-items, list-recent, download-file, upload-file, copy, move and rename."""

import base64

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.documents import extract_text, make_docx, make_xlsx, read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

PRIYA = "priya.shah@northwind.example"
RUBY = "ruby.walker@northwind.example"


def names(rows):
    return [r["name"] for r in rows]


def text_of(c, item_id):
    it = c.state.items[item_id]
    return extract_text(c.blobs.get(it.blob), it.name)


# ---- show an item -----------------------------------------------------------------------------


def test_get_item_by_path_and_id():
    c = app_ctx("onedrive")
    out = call(c, "get_item", item="/Documents/Budgets/q1 BUDGET.xlsx")
    assert out["id"] == "itm_q1_budget" and out["version"] == 3
    assert out["created_by"] == USER and out["modified_by"] == PRIYA
    assert out["modified"] == "2026-03-05T17:10:00-05:00"
    assert out["your_access"] == "owner" and out["shared"] is True and out["active_links"] == 1
    shared = call(c, "get_item", item="itm_shared_offsite_seating")
    assert shared["path"] is None and shared["shared_with_me"] is True
    assert shared["owner"] == RUBY and shared["your_access"] == "write"
    assert call(c, "get_item", item="itm_shared_q1_forecast")["your_access"] == "read"
    assert call(c, "get_item", item="itm_offsite_agenda")["your_access"] == "owner"


def test_get_item_errors():
    c = app_ctx("onedrive")
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item="itm_nope")
    assert err.value.parameter == "item" and "search-items" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "get_item", item="itm_q1_budget_old")
    assert "recycle bin" in err.value.message and "restore-item" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "get_item", item="/")
    with pytest.raises(InvalidArgument):
        call(c, "get_item", item="  ")


# ---- search and recent ------------------------------------------------------------------------


def test_search_finds_words_inside_documents():
    out = call(app_ctx("onedrive"), "search_items", query="NWT-4471")
    assert names(out["results"])[0] == "Lakeside Lodge contract NWT-4471.pdf"
    assert "Offsite agenda.docx" in names(out["results"])
    agenda = next(r for r in out["results"] if r["name"] == "Offsite agenda.docx")
    assert agenda["matched_in"] == ["text"] and "NWT-4471" in agenda["snippet"]


def test_search_includes_shared_files_unless_told():
    c = app_ctx("onedrive")
    out = call(c, "search_items", query="3400000")
    assert [(r["id"], r["shared_with_me"]) for r in out["results"]] == [("itm_shared_q1_forecast", True)]
    assert call(c, "search_items", query="3400000", include_shared=False)["total"] == 0


def test_search_filters_by_type_and_folder():
    c = app_ctx("onedrive")
    pdfs = call(c, "search_items", query="lakeside", file_type="pdf")
    assert sorted(names(pdfs["results"])) == [
        "Expense receipts February.pdf",
        "INV-20441 Lakeside Lodge deposit.pdf",
        "Lakeside Lodge contract NWT-4471.pdf",
    ]
    inside = call(c, "search_items", query="contoso", folder="/Documents/Contoso")
    assert sorted(names(inside["results"])) == [
        "Contoso renewal pricing.xlsx",
        "Contoso sign-off tracker.csv",
        "Contoso term sheet CT-2291.pdf",
    ]
    folders = call(c, "search_items", query="offsite", file_type="folder")
    assert names(folders["results"]) == ["Offsite 2026", "Offsite 2025"]


def test_search_skips_recycle_bin_and_needs_words():
    c = app_ctx("onedrive")
    assert call(c, "search_items", query="Q1 budget draft (old)")["total"] == 0
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_items", query="  ")
    assert err.value.parameter == "query"


def test_list_recent_newest_first_across_own_and_shared():
    out = call(app_ctx("onedrive"), "list_recent", days=3)
    assert names(out["results"]) == [
        "To do this week.md",
        "Offsite seating.xlsx",
        "Scratch notes.txt",
        "Q1 forecast.xlsx",
        "Board meeting April 29 - prep notes.docx",
        "Contoso sign-off tracker.csv",
        "REQ-1045 interview scorecards.xlsx",
    ]
    assert [r["shared_with_me"] for r in out["results"]] == [False, True, False, True, False, False, True]
    month = call(app_ctx("onedrive"), "list_recent")["results"]
    assert all(r["kind"] == "file" for r in month)
    assert "Q1 budget draft (old).xlsx" not in names(month) and "Headshot.png" not in names(month)


# ---- downloading ------------------------------------------------------------------------------


def test_download_text_inline_without_workspace():
    out = call(app_ctx("onedrive"), "download_file", item="/Documents/Contoso/Contoso sign-off tracker.csv")
    assert out["content"].startswith("Approver,Role,Status")
    assert out["size"] == len(out["content"].encode()) and out["mime_type"] == "text/csv"


def test_download_binary_needs_workspace_or_as_text():
    c = app_ctx("onedrive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="itm_shared_q1_forecast")
    assert err.value.parameter == "item" and "as_text=true" in err.value.message
    out = call(c, "download_file", item="itm_shared_cutover_checklist", as_text=True)
    assert "DNS switch for orders.internal\tMia Thompson\tSat April 18, 09:15" in out["text"]
    assert out["truncated"] is False


def test_download_saves_into_workspace():
    files = MemoryFiles()
    c = app_ctx("onedrive", files)
    out = call(c, "download_file", item="itm_shared_q1_forecast")
    assert out == {
        "id": "itm_shared_q1_forecast",
        "name": "Q1 forecast.xlsx",
        "mime_type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "saved_to": "downloads/Q1 forecast.xlsx",
        "size": c.state.items["itm_shared_q1_forecast"].size,
    }
    assert read_cell(files.files["downloads/Q1 forecast.xlsx"], "Summary", "B3") == 3400000
    call(c, "download_file", item="/Pictures/Headshot.png", save_as="me.png")
    assert files.files["me.png"].startswith(b"\x89PNG")


def test_download_errors():
    c = app_ctx("onedrive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="/Documents")
    assert "list-children" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="itm_headshot", as_text=True)
    assert err.value.parameter == "as_text"
    with pytest.raises(InvalidArgument) as err:
        call(c, "download_file", item="itm_offsite_agenda", as_text=True, save_as="a.txt")
    assert err.value.parameter == "save_as"


# ---- uploads ----------------------------------------------------------------------------------


def test_upload_text_file():
    c = app_ctx("onedrive")
    out = call(c, "upload_file", name="Venue call notes.md", folder="/Documents/Offsite 2026", content="# Call\n- ok\n")
    assert out["path"] == "/Documents/Offsite 2026/Venue call notes.md"
    assert out["mime_type"] == "text/markdown" and out["size"] == 12 and out["version"] == 1
    rec = c.state.items[out["id"]]
    assert c.blobs.get(rec.blob) == b"# Call\n- ok\n"
    assert rec.versions[0].blob == rec.blob


def test_upload_from_workspace_keeps_bytes_and_name():
    book = make_xlsx({"Sheet": [["a", "b"], [1, 2]]})
    files = MemoryFiles({"out/Forecast copy.xlsx": book})
    c = app_ctx("onedrive", files)
    out = call(c, "upload_file", path="out/Forecast copy.xlsx", folder="itm_budgets")
    assert out["name"] == "Forecast copy.xlsx" and out["size"] == len(book)
    assert out["mime_type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert c.blobs.get(c.state.items[out["id"]].blob) == book


def test_upload_conflict_fail_replace_rename():
    files = MemoryFiles({"new.csv": b"Approver,Status\nAlex Morgan,Approved\n"})
    c = app_ctx("onedrive", files)
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", path="new.csv", name="Contoso sign-off tracker.csv", folder="/Documents/Contoso")
    assert err.value.parameter == "name" and "replace" in err.value.message
    out = call(
        c,
        "upload_file",
        path="new.csv",
        name="Contoso sign-off tracker.csv",
        folder="/Documents/Contoso",
        conflict_behavior="replace",
    )
    assert out["id"] == "itm_contoso_signoff" and out["version"] == 2 and out["modified"] == NOW.isoformat()
    rec = c.state.items["itm_contoso_signoff"]
    assert c.blobs.get(rec.blob).startswith(b"Approver,Status") and len(rec.versions) == 2
    assert c.blobs.get(rec.versions[0].blob).startswith(b"Approver,Role,Status")
    kept = call(
        c,
        "upload_file",
        path="new.csv",
        name="Contoso sign-off tracker.csv",
        folder="/Documents/Contoso",
        conflict_behavior="rename",
    )
    assert kept["name"] == "Contoso sign-off tracker 1.csv" and kept["id"] != "itm_contoso_signoff"


def test_upload_new_version_of_shared_file_by_id():
    doc = make_docx("Atlas cutover checklist", ["Customer notice: Alex Morgan, 10:05"])
    c = app_ctx("onedrive", MemoryFiles({"checklist.docx": doc}))
    out = call(c, "upload_file", item_id="itm_shared_cutover_checklist", path="checklist.docx")
    assert out["version"] == 2 and out["modified_by"] == USER and out["owner"] == "liam.chen@northwind.example"
    assert "10:05" in text_of(c, "itm_shared_cutover_checklist")
    with pytest.raises(Conflict) as err:
        call(c, "upload_file", item_id="itm_shared_q1_forecast", path="checklist.docx")
    assert err.value.parameter == "item_id" and "read-only" in err.value.message


def test_upload_refuses_base64_and_data_uris():
    c = app_ctx("onedrive")
    encoded = base64.b64encode(make_docx("x", ["y"])).decode()
    refusal = (
        "looks like file content pasted as base64 or a data: URI; files are not pasted as text: "
        "save the file in your workspace and pass path=<its workspace path> instead"
    )
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="notes.txt", content=encoded)
    assert (err.value.parameter, err.value.message) == ("content", refusal)
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="a.png", content="data:image/png;base64,iVBORw0KGgo=")
    assert (err.value.parameter, err.value.message) == ("content", refusal)
    prose = "word " * 100
    assert call(c, "upload_file", name="prose.txt", content=prose)["size"] == len(prose)


def test_upload_input_errors():
    c = app_ctx("onedrive", MemoryFiles({"a.csv": b"x\n"}))
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="Plan.docx", content="Plan for the week")
    assert err.value.parameter == "content" and "path=" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="a.csv", content="x", path="a.csv")
    assert err.value.parameter == "content"
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", name="a.csv")
    assert err.value.parameter == "content"
    with pytest.raises(NotFound):
        call(c, "upload_file", path="missing.csv")
    with pytest.raises(InvalidArgument) as err:
        call(app_ctx("onedrive"), "upload_file", path="a.csv")
    assert err.value.parameter == "path" and "no workspace" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "upload_file", item_id="itm_contoso_signoff", name="x.csv", content="x")
    assert err.value.parameter == "item_id"
    with pytest.raises(Conflict):
        call(c, "upload_file", name="Budgets", folder="/Documents", content="x", conflict_behavior="replace")


# ---- copy, move, rename -----------------------------------------------------------------------


def test_copy_shared_read_only_file_into_own_folder():
    c = app_ctx("onedrive")
    out = call(c, "copy_item", item="itm_shared_q1_forecast", destination="/Documents/Budgets")
    assert out["path"] == "/Documents/Budgets/Q1 forecast.xlsx" and out["copied"] == 1
    assert out["owner"] == USER and out["shared"] is False
    rec = c.state.items[out["id"]]
    assert rec.blob == c.state.items["itm_shared_q1_forecast"].blob and [v.number for v in rec.versions] == [1]


def test_copy_folder_with_contents():
    c = app_ctx("onedrive")
    out = call(c, "copy_item", item="/Documents/Offsite 2026", destination="/Desktop", new_name="Offsite copy")
    assert out["copied"] == 5 and out["path"] == "/Desktop/Offsite copy"
    inside = call(c, "list_children", folder="/Desktop/Offsite copy")
    assert names(inside["results"]) == names(call(c, "list_children", folder="itm_offsite")["results"])
    copy = c.state.items[out["id"]]
    assert [p.email for p in copy.permissions] == [USER]


def test_copy_errors_and_rename_on_conflict():
    c = app_ctx("onedrive")
    with pytest.raises(Conflict) as err:
        call(c, "copy_item", item="itm_q1_budget", destination="itm_budgets")
    assert err.value.parameter == "new_name"
    out = call(c, "copy_item", item="itm_q1_budget", destination="itm_budgets", conflict_behavior="rename")
    assert out["name"] == "Q1 budget 1.xlsx"
    with pytest.raises(InvalidArgument) as err:
        call(c, "copy_item", item="itm_documents", destination="itm_budgets")
    assert err.value.parameter == "destination"


def test_move_item():
    c = app_ctx("onedrive")
    out = call(c, "move_item", item="/Pictures/Screenshots/INC-3021 checkout error.png", destination="/Documents")
    assert out["path"] == "/Documents/INC-3021 checkout error.png" and out["parent_id"] == "itm_documents"
    assert c.state.items["itm_inc_3021_screenshot"].modified < NOW
    same = call(c, "move_item", item="itm_inc_3021_screenshot", destination="itm_documents")
    assert same["path"] == out["path"]


def test_move_item_errors():
    c = app_ctx("onedrive")
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item="itm_shared_offsite_seating", destination="/Documents")
    assert "copy-item" in err.value.message
    with pytest.raises(InvalidArgument):
        call(c, "move_item", item="itm_documents", destination="/Documents/Budgets")
    call(c, "upload_file", name="Attendees.csv", folder="/Desktop", content="a\n")
    with pytest.raises(Conflict) as err:
        call(c, "move_item", item="itm_offsite_attendees", destination="/Desktop")
    assert err.value.parameter == "destination"


def test_rename_item():
    c = app_ctx("onedrive")
    out = call(c, "rename_item", item="itm_q2_budget_draft", new_name="Q2 budget.xlsx")
    assert out["path"] == "/Documents/Budgets/Q2 budget.xlsx" and out["modified"] == NOW.isoformat()
    md = call(c, "rename_item", item="itm_scratch_notes", new_name="Scratch notes.md")
    assert md["mime_type"] == "text/markdown"
    shared = call(c, "rename_item", item="itm_shared_offsite_seating", new_name="Offsite seating v2.xlsx")
    assert shared["name"] == "Offsite seating v2.xlsx"


def test_rename_item_errors():
    c = app_ctx("onedrive")
    with pytest.raises(Conflict) as err:
        call(c, "rename_item", item="itm_q2_budget_draft", new_name="q1 budget.xlsx")
    assert err.value.parameter == "new_name"
    with pytest.raises(Conflict) as err:
        call(c, "rename_item", item="itm_shared_contoso_negotiation", new_name="x.docx")
    assert "isabella.rossi" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "rename_item", item="itm_todo", new_name="a:b.md")
    assert err.value.parameter == "new_name"
    assert err.value.message == "'a:b.md' contains :; names cannot contain / \\ : * ? \" < > |"
