import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_permissions_direct_and_inherited():
    out = call(app_ctx("drive"), "list_permissions", file_id="file_contoso_renewal_notes")
    assert out["owner"] == "maya.young@northwind.example"
    assert [p["email"] for p in out["permissions"]] == [
        "maya.young@northwind.example",
        "isaac.king@northwind.example",
        "marcus.reed@northwind.example",
    ]
    inherited = {(p["email"], p["from_folder_id"]) for p in out["inherited_permissions"]}
    assert ("tomas.rivera@northwind.example", "fld_vendors") in inherited
    assert (USER, "fld_operations") in inherited
    assert ("victor.alvarez@northwind.example", "fld_operations") in inherited


def test_share_file_adds_then_updates_role():
    c = app_ctx("drive")
    out = call(c, "share_file", file_id="file_q1_budget", email="Grace.Kim@northwind.example", role="commenter")
    assert out["previous_role"] is None and out["role"] == "commenter"
    assert {"email": "grace.kim@northwind.example", "role": "commenter"} in out["permissions"]
    again = call(c, "share_file", file_id="file_q1_budget", email="grace.kim@northwind.example", role="writer")
    assert again["previous_role"] == "commenter"
    perms = [p for p in c.state.files["file_q1_budget"].permissions if p.email == "grace.kim@northwind.example"]
    assert [p.role for p in perms] == ["writer"]


def test_share_file_default_reader_and_external_address():
    c = app_ctx("drive")
    out = call(c, "share_file", file_id="file_offsite_agenda_draft", email="events@lakesidelodge.example")
    assert out["role"] == "reader"
    assert c.state.files["file_offsite_agenda_draft"].permissions[-1].email == "events@lakesidelodge.example"
    sd = call(c, "share_file", file_id="file_atlas_cost_tracker", email="marcus.reed@northwind.example")
    assert sd["permissions"] == [{"email": "marcus.reed@northwind.example", "role": "reader"}]


def test_share_file_errors():
    c = app_ctx("drive")
    with pytest.raises(Conflict) as err:
        call(c, "share_file", file_id="file_q1_budget", email="priya.shah@northwind.example", role="reader")
    assert err.value.parameter == "email" and "owns" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "share_file", file_id="file_q1_budget", email="pria.shah@northwind.example")
    assert err.value.parameter == "email" and "search-people" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "share_file", file_id="file_q1_budget", email="grace kim")
    assert err.value.parameter == "email"
    with pytest.raises(InvalidArgument) as err:
        call(c, "share_file", file_id="file_q1_budget", email="grace.kim@northwind.example", role="owner")
    assert err.value.parameter == "role"
    with pytest.raises(Conflict) as err:
        call(c, "share_file", file_id="file_nda_template", email="grace.kim@northwind.example")
    assert err.value.parameter == "file_id"


def test_share_internal_address_without_directory_is_allowed():
    c = app_ctx("drive", directory=False)
    out = call(c, "share_file", file_id="file_reading_list", email="new.hire@northwind.example")
    assert out["email"] == "new.hire@northwind.example"


def test_remove_permission():
    c = app_ctx("drive")
    out = call(c, "remove_permission", file_id="file_offsite_attendee_list", email="Events@LakesideLodge.example")
    assert out["removed"] == "events@lakesidelodge.example"
    assert out["permissions"] == [{"email": USER, "role": "owner"}]
    assert c.state.files["file_offsite_attendee_list"].permissions[0].role == "owner"
    assert len(c.state.files["file_offsite_attendee_list"].permissions) == 1


def test_a_share_removed_again_leaves_it_off_the_list_and_in_the_sharing_history():
    c = app_ctx("drive")
    before = c.state.files["file_q1_budget"].model_dump()
    assert "removed_permissions" not in call(c, "list_permissions", file_id="file_q1_budget")
    call(c, "share_file", file_id="file_q1_budget", email="nora@outside.example")
    call(c, "remove_permission", file_id="file_q1_budget", email="nora@outside.example")
    after = c.state.files["file_q1_budget"].model_dump()
    assert after["permissions"] == before["permissions"] and after != before  # the world keeps the trace
    out = call(c, "list_permissions", file_id="file_q1_budget")
    assert "nora@outside.example" not in [p["email"] for p in out["permissions"]]
    (gone,) = out["removed_permissions"]
    assert (gone["email"], gone["role"], gone["removed_by"]) == ("nora@outside.example", "reader", USER)
    assert gone["removed_at"] and call(c, "get_file", file_id="file_q1_budget")["removed_permissions"] == [gone]


def test_remove_own_access_hides_the_file():
    c = app_ctx("drive")
    call(c, "remove_permission", file_id="file_sales_pipeline_q1", email=USER)
    with pytest.raises(NotFound):
        call(c, "get_file", file_id="file_sales_pipeline_q1")
    assert call(c, "search_files", query="Woodgrove")["total"] == 0


def test_remove_permission_errors():
    c = app_ctx("drive")
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_reading_list", email=USER)
    assert "owner" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_q1_budget", email="owen.bell@northwind.example")
    assert "fld_finance" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "remove_permission", file_id="file_q1_budget", email="zoe.adams@northwind.example")
    assert err.value.parameter == "email"
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_sales_pipeline_q1", email="marcus.reed@northwind.example")
    assert err.value.parameter == "file_id" and "reader access" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", file_id="file_atlas_cost_tracker", email="olivia.baker@northwind.example")
    assert "member of shared drive 'Atlas Program'" in err.value.message
