from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.sharepoint.conftest import ctx, names
from tools.kernel.exceptions import Conflict


def test_list_recycle_bin():
    out = call(ctx(), "list_recycle_bin", site="Operations")
    assert [(r["id"], r["original_path"]) for r in out["results"]] == [
        ("doc_vendor_list_2024", "Documents/Vendor management/Vendor list 2024.xlsx")
    ]
    assert out["results"][0]["deleted_by"] == "maya.young@northwind.example"
    assert call(ctx(), "list_recycle_bin", site="Finance")["total"] == 0


def test_delete_and_restore_a_folder_with_its_contents():
    c = ctx()
    out = call(c, "delete_file", file_id="folder_ops_facilities")
    assert sorted(out["deleted"]) == ["doc_chicago_lease_comparison", "doc_meeting_room_guide", "folder_ops_facilities"]
    assert out["restore_with"] == "sharepoint restore-file --file-id=folder_ops_facilities"
    assert c.state.files["doc_meeting_room_guide"].deleted_with == "folder_ops_facilities"
    assert "Facilities" not in names(call(c, "list_library", site="Operations")["results"])
    assert [r["id"] for r in call(c, "list_recycle_bin", site="Operations")["results"]][0] == "folder_ops_facilities"
    err = unchanged(c, "restore_file", Conflict, file_id="doc_meeting_room_guide")
    assert "folder_ops_facilities" in err.message
    back = call(c, "restore_file", file_id="folder_ops_facilities")
    assert sorted(back["restored"]) == sorted(out["deleted"])
    assert not any(f.deleted for f in c.state.files.values() if f.id in out["deleted"])


def test_restore_errors():
    c = ctx()
    err = unchanged(c, "restore_file", Conflict, file_id="doc_meeting_room_guide")
    assert "not in the recycle bin" in err.message
    call(c, "rename_file", file_id="doc_vendor_scorecard_q4_2025", new_name="Vendor list 2024.xlsx")
    err = unchanged(c, "restore_file", Conflict, file_id="doc_vendor_list_2024")
    assert "doc_vendor_scorecard_q4_2025" in err.message
    call(c, "delete_file", file_id="folder_ops_vendor_management")
    err = unchanged(c, "restore_file", Conflict, file_id="doc_vendor_list_2024")
    assert "restore it first" in err.message
