"""OneDrive permission actions: list-shared-with-me, list-permissions, grant-access, remove-permission."""

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

RUBY = "ruby.walker@northwind.example"
AMELIA = "amelia.ward@northwind.example"


def names(rows):
    return [r["name"] for r in rows]


def test_list_shared_with_me():
    out = call(app_ctx("onedrive"), "list_shared_with_me")
    assert [(r["name"], r["your_access"]) for r in out["results"]] == [
        ("Offsite seating.xlsx", "write"),
        ("Q1 forecast.xlsx", "read"),
        ("REQ-1045 interview scorecards.xlsx", "read"),
        ("Atlas cutover checklist.docx", "write"),
        ("Contoso negotiation notes.docx", "read"),
        ("Exec staff agenda template.docx", "write"),
    ]
    assert out["results"][0]["owner"] == RUBY and "path" not in out["results"][0]


def test_list_permissions_direct_inherited_and_links():
    out = call(
        app_ctx("onedrive"), "list_permissions", item="/Documents/Offsite 2026/Lakeside Lodge contract NWT-4471.pdf"
    )
    assert [p["email"] for p in out["permissions"]] == [USER]
    assert out["inherited"] == [
        {"email": AMELIA, "role": "write", "from_folder_id": "itm_offsite", "from_folder": "Offsite 2026"}
    ]
    assert [(lnk["id"], lnk["status"]) for lnk in out["links"]] == [
        ("lnk_lodge_contract_public", "expired"),
        ("lnk_lodge_contract_org", "active"),
    ]


def test_grant_access_adds_and_changes_roles():
    c = app_ctx("onedrive")
    out = call(
        c,
        "grant_access",
        item="itm_contoso_pricing",
        recipients=["Isaac King", "maya.young@northwind.example"],
        role="write",
    )
    assert out["added"] == ["isaac.king@northwind.example"] and out["changed"] == ["maya.young@northwind.example"]
    roles = {p.email: p.role for p in c.state.items["itm_contoso_pricing"].permissions}
    assert roles == {
        USER: "owner",
        "isabella.rossi@northwind.example": "write",
        "maya.young@northwind.example": "write",
        "isaac.king@northwind.example": "write",
    }
    again = call(
        c, "grant_access", item="itm_contoso_pricing", recipients=["isaac.king@northwind.example"], role="write"
    )
    assert again["unchanged"] == ["isaac.king@northwind.example"] and again["added"] == []
    ext = call(c, "grant_access", item="itm_contoso_term_sheet", recipients=["legal@contoso.example"])
    assert ext["added"] == ["legal@contoso.example"] and ext["role"] == "read"


def test_grant_access_errors():
    c = app_ctx("onedrive")
    with pytest.raises(NotFound) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=["nobody@northwind.example"])
    assert err.value.parameter == "recipients"
    with pytest.raises(Conflict) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=[USER])
    assert "owns" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "grant_access", item="itm_shared_q1_forecast", recipients=[RUBY])
    assert err.value.parameter == "item"
    with pytest.raises(InvalidArgument) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=[" "])
    assert err.value.parameter == "recipients"
    with pytest.raises(InvalidArgument) as err:
        call(c, "grant_access", item="itm_contoso_pricing", recipients=[RUBY], role="owner")
    assert err.value.parameter == "role"


def test_grant_access_without_directory_needs_addresses():
    c = app_ctx("onedrive", directory=False)
    out = call(c, "grant_access", item="itm_todo", recipients=["new.hire@northwind.example"])
    assert out["added"] == ["new.hire@northwind.example"]
    with pytest.raises(InvalidArgument):
        call(c, "grant_access", item="itm_todo", recipients=["Isaac King"])


def test_remove_permission():
    c = app_ctx("onedrive")
    out = call(c, "remove_permission", item="itm_contoso_pricing", email="Maya.Young@northwind.example")
    assert out["removed"] == "maya.young@northwind.example"
    assert [p["email"] for p in out["permissions"]] == [USER, "isabella.rossi@northwind.example"]


def test_remove_own_access_leaves_shared_list():
    c = app_ctx("onedrive")
    call(c, "remove_permission", item="itm_shared_q1_forecast", email=USER)
    assert "Q1 forecast.xlsx" not in names(call(c, "list_shared_with_me")["results"])
    with pytest.raises(NotFound):
        call(c, "get_item", item="itm_shared_q1_forecast")


def test_remove_permission_errors():
    c = app_ctx("onedrive")
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", item="itm_offsite_agenda", email=AMELIA)
    assert "itm_offsite" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", item="itm_todo", email=USER)
    assert "owner" in err.value.message
    with pytest.raises(NotFound) as err:
        call(c, "remove_permission", item="itm_todo", email=RUBY)
    assert err.value.parameter == "email"
    with pytest.raises(Conflict) as err:
        call(c, "remove_permission", item="itm_shared_q1_forecast", email="grace.kim@northwind.example")
    assert err.value.parameter == "item"
