"""OneDrive recycle bin actions: delete-item, list-recycle-bin, restore-item."""

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import Conflict, NotFound


def names(rows):
    return [r["name"] for r in rows]


# ---- recycle bin ------------------------------------------------------------------------------


def test_delete_folder_then_restore_it():
    c = app_ctx("onedrive")
    out = call(c, "delete_item", item="/Documents/Hiring")
    assert out["count"] == 4 and out["deleted"][0] == "itm_hiring"
    assert c.state.items["itm_notes_marco_bianchi"].deleted_with == "itm_hiring"
    assert "Hiring" not in names(call(c, "list_children", folder="/Documents")["results"])
    assert call(c, "search_items", query="Marco Bianchi", include_shared=False)["total"] == 0
    bin_rows = call(c, "list_recycle_bin")["results"]
    assert (bin_rows[0]["id"], bin_rows[0]["items"], bin_rows[0]["original_path"]) == (
        "itm_hiring",
        4,
        "/Documents/Hiring",
    )
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="itm_notes_marco_bianchi")
    assert "itm_hiring" in err.value.message
    back = call(c, "restore_item", item_id="itm_hiring")
    assert back["restored"] == 4 and back["path"] == "/Documents/Hiring"
    assert all(c.state.items[i].deleted is None for i in out["deleted"])


def test_restore_keeps_items_deleted_earlier_in_the_bin():
    c = app_ctx("onedrive")
    call(c, "delete_item", item="itm_budgets")
    call(c, "restore_item", item_id="itm_budgets")
    assert c.state.items["itm_q1_budget_old"].deleted is not None
    out = call(c, "restore_item", item_id="itm_q1_budget_old")
    assert out["path"] == "/Documents/Budgets/Q1 budget draft (old).xlsx" and out["restored"] == 1


def test_restore_item_errors():
    c = app_ctx("onedrive")
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="itm_q1_budget")
    assert "not in the recycle bin" in err.value.message
    with pytest.raises(Conflict):
        call(c, "restore_item", item_id="itm_old_shot_1")
    call(c, "create_folder", name="Untitled document.docx", parent="/Desktop")
    with pytest.raises(Conflict) as err:
        call(c, "restore_item", item_id="itm_untitled")
    assert "now holds that name" in err.value.message
    with pytest.raises(NotFound):
        call(c, "restore_item", item_id="itm_missing")


def test_delete_refuses_shared_files():
    with pytest.raises(Conflict) as err:
        call(app_ctx("onedrive"), "delete_item", item="itm_shared_q1_forecast")
    assert "remove-permission" in err.value.message
