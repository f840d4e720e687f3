"""OneDrive browse actions: list-children, get-item, search-items, list-recent, download-file."""

from datetime import datetime

import pytest

from tests.conftest import MemoryFiles
from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.kernel.documents import read_cell
from tools.kernel.exceptions import InvalidArgument, NotFound

PRIYA = "priya.shah@northwind.example"
RUBY = "ruby.walker@northwind.example"


def names(rows):
    return [r["name"] for r in rows]


# ---- browsing ---------------------------------------------------------------------------------


def test_list_children_top_and_by_path():
    c = app_ctx("onedrive")
    top = call(c, "list_children")
    assert top["folder"] == {"id": "root", "name": "My files", "path": "/"}
    assert names(top["results"]) == ["Desktop", "Documents", "Pictures"]
    docs = call(c, "list_children", folder="/documents")
    assert names(docs["results"]) == [
        "Atlas",
        "Budgets",
        "Contoso",
        "Hiring",
        "Invoices",
        "Offsite 2026",
        "Board meeting April 29 - prep notes.docx",
        "Chief of staff OKRs 2026.docx",
    ]
    budgets = call(c, "list_children", folder="itm_budgets")
    assert names(budgets["results"]) == [
        "Budget review notes 2026-02-24.docx",
        "Q1 budget.xlsx",
        "Q2 budget draft.xlsx",
    ]
    assert budgets["folder"]["path"] == "/Documents/Budgets"


def test_list_children_folder_size_and_count_skip_recycle_bin():
    pics = {r["name"]: r for r in call(app_ctx("onedrive"), "list_children", folder="/Pictures")["results"]}
    assert set(pics) == {"Offsite 2025", "Screenshots", "Headshot.png"}
    photos = call(app_ctx("onedrive"), "list_children", folder="itm_offsite_2025_photos")["results"]
    assert pics["Offsite 2025"]["child_count"] == 2
    assert pics["Offsite 2025"]["size"] == sum(r["size"] for r in photos)


def test_list_children_orders_and_pages():
    c = app_ctx("onedrive")
    newest = call(c, "list_children", folder="/Documents/Offsite 2026", order_by="modified")
    assert names(newest["results"])[0] == "Attendees.csv"
    stamps = [datetime.fromisoformat(r["modified"]) for r in newest["results"]]
    assert stamps == sorted(stamps, reverse=True)
    largest = call(c, "list_children", folder="/Documents/Offsite 2026", order_by="size")["results"]
    assert largest[0]["name"] == "Offsite agenda.docx"
    page = call(c, "list_children", folder="/Documents", page=2, page_size=3)
    assert names(page["results"]) == ["Hiring", "Invoices", "Offsite 2026"] and page["next_page"] == 3


def test_list_children_errors():
    c = app_ctx("onedrive")
    with pytest.raises(NotFound) as err:
        call(c, "list_children", folder="/Documents/Travel")
    assert err.value.parameter == "folder" and "'Travel'" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_children", folder="itm_q1_budget")
    assert "not a folder" in err.value.message
    with pytest.raises(NotFound):
        call(c, "list_children", folder="itm_screenshots_2025")
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_children", order_by="date")
    assert err.value.parameter == "order_by"


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
