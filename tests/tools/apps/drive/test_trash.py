import pytest

from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.drive.conftest import names
from tools.kernel.exceptions import Conflict, NotFound


def test_trash_folder_trashes_descendants():
    c = app_ctx("drive")
    out = call(c, "trash_file", file_id="fld_offsite_2026")
    assert sorted(out["trashed"]) == [
        "file_lakeside_lodge_contract_signed",
        "file_offsite_agenda_draft",
        "file_offsite_attendee_list",
        "file_offsite_venue_options",
        "fld_offsite_2026",
    ]
    assert out["count"] == 5
    assert all(c.state.files[i].trashed and c.state.files[i].trashed_with == "fld_offsite_2026" for i in out["trashed"])
    assert call(c, "search_files", query="Offsite attendee list")["total"] == 0
    assert "Offsite 2026" not in names(call(c, "list_folder", folder_id="fld_shared")["results"])


def test_trash_skips_items_already_in_trash():
    out = call(app_ctx("drive"), "trash_file", file_id="fld_archive")
    assert sorted(out["trashed"]) == [
        "file_leadership_offsite_2025_agenda",
        "file_leadership_offsite_2025_team_photo",
        "fld_archive",
    ]


def test_trash_file_errors():
    c = app_ctx("drive")
    with pytest.raises(Conflict) as err:
        call(c, "trash_file", file_id="file_untitled_document")
    assert "trash" in err.value.message
    with pytest.raises(Conflict):
        call(c, "trash_file", file_id="file_sales_pipeline_q1")
    with pytest.raises(NotFound):
        call(c, "trash_file", file_id="nope")
    with pytest.raises(Conflict) as err:
        call(c, "trash_file", file_id="file_price_list_2026")
    assert "james.okafor@northwind.example" in err.value.message


def test_restore_file_brings_back_what_was_trashed_with_it():
    c = app_ctx("drive")
    call(c, "trash_file", file_id="file_offsite_attendee_list")
    call(c, "trash_file", file_id="fld_offsite_2026")
    out = call(c, "restore_file", file_id="fld_offsite_2026")
    assert sorted(out["restored"]) == [
        "file_lakeside_lodge_contract_signed",
        "file_offsite_agenda_draft",
        "file_offsite_venue_options",
        "fld_offsite_2026",
    ]
    assert out["path"] == "/Shared/Offsite 2026"
    assert c.state.files["file_offsite_attendee_list"].trashed is True
    one = call(c, "restore_file", file_id="file_offsite_attendee_list")
    assert one == {
        "restored": ["file_offsite_attendee_list"],
        "count": 1,
        "path": "/Shared/Offsite 2026/Offsite attendee list.csv",
    }
    assert not c.state.files["file_offsite_attendee_list"].trashed_with


def test_restore_file_errors():
    c = app_ctx("drive")
    with pytest.raises(Conflict) as err:
        call(c, "restore_file", file_id="file_reading_list")
    assert "not in the trash" in err.value.message
    call(c, "trash_file", file_id="fld_archive")
    with pytest.raises(Conflict) as err:
        call(c, "restore_file", file_id="file_q4_2025_budget_draft")
    assert "fld_archive" in err.value.message
    call(c, "restore_file", file_id="fld_archive")
    assert c.state.files["file_q4_2025_budget_draft"].trashed is True  # was trashed before the folder
    call(c, "create_file", name="Untitled document.txt", content="new")
    with pytest.raises(Conflict) as err:
        call(c, "restore_file", file_id="file_untitled_document")
    assert "Untitled document.txt" in err.value.message
