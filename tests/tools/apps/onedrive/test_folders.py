"""OneDrive folder actions: list-children, create-folder."""

from datetime import datetime

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def names(rows):
    return [r["name"] for r in rows]


# ---- list a folder ----------------------------------------------------------------------------


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


# ---- create a folder --------------------------------------------------------------------------


def test_create_folder_by_parent_path():
    c = app_ctx("onedrive")
    out = call(c, "create_folder", name="Travel", parent="/Documents")
    assert out["id"] == "itm_n1" and out["path"] == "/Documents/Travel" and out["parent_id"] == "itm_documents"
    rec = c.state.items["itm_n1"]
    assert rec.kind == "folder" and rec.owner == USER and rec.created == NOW
    assert [(p.email, p.role) for p in rec.permissions] == [(USER, "owner")]
    top = call(c, "create_folder", name="Scans")
    assert top["path"] == "/Scans" and top["parent_id"] == "root"


def test_create_folder_conflicts_and_rename():
    c = app_ctx("onedrive")
    with pytest.raises(Conflict) as err:
        call(c, "create_folder", name="budgets", parent="itm_documents")
    assert err.value.parameter == "name" and "itm_budgets" in err.value.message
    out = call(c, "create_folder", name="Budgets", parent="itm_documents", conflict_behavior="rename")
    assert out["name"] == "Budgets 1"
    again = call(c, "create_folder", name="Budgets", parent="itm_documents", conflict_behavior="rename")
    assert again["name"] == "Budgets 2"


def test_create_folder_bad_input():
    c = app_ctx("onedrive")
    refusals = {
        "a/b": "'a/b' contains /; names cannot contain / \\ : * ? \" < > |",
        "what?": "'what?' contains ?; names cannot contain / \\ : * ? \" < > |",
        "  ": "must not be empty",
        "notes.": "'notes.' is not a valid name; names cannot be . or .. or end with a dot",
        "x" * 256: "must be at most 255 characters",
    }
    for bad, message in refusals.items():
        with pytest.raises(InvalidArgument) as err:
            call(c, "create_folder", name=bad)
        assert (err.value.parameter, err.value.message) == ("name", message)
    assert call(c, "create_folder", name="x" * 255)["name"] == "x" * 255
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_folder", name="X", parent="/Desktop/Scratch notes.txt")
    assert err.value.parameter == "parent"
