from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.sharepoint.conftest import ctx
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_members_most_access_first_with_guests():
    out = call(ctx(), "list_members", site="Atlas Program")
    assert out["total"] == 15 and out["your_role"] == "full_control"
    assert out["results"][0] == {"email": USER, "name": "Alex Morgan", "role": "full_control", "guest": False}
    guests = [m["email"] for m in out["results"] if m["guest"]]
    assert guests == ["kim.lau@adatum.example", "rachel.stone@litware.example"]
    edit = call(ctx(), "list_members", site="Atlas Program", role="edit")
    assert [m["name"] for m in edit["results"]] == ["Ethan Brooks", "Mia Thompson"]


def test_grant_access_adds_and_changes_roles():
    c = ctx()
    out = call(c, "grant_access", site="Atlas Program", person="Chloe Nguyen", role="contribute")
    assert out == {"site": "Atlas Program", "email": "chloe.nguyen@northwind.example", "name": "Chloe Nguyen",
                   "role": "contribute", "previous_role": None, "members": 16}  # fmt: skip
    up = call(c, "grant_access", site="site_atlas", person="lucas.martin@northwind.example", role="edit")
    assert up["previous_role"] == "read" and up["members"] == 16
    roles = {m.email: m.role for m in c.state.sites["site_atlas"].members}
    assert roles["lucas.martin@northwind.example"] == "edit"
    guest = call(c, "grant_access", site="Operations", person="Ben.Ortiz@tailspin.example")
    assert guest["email"] == "ben.ortiz@tailspin.example" and guest["role"] == "read" and guest["name"] == ""


def test_grant_access_errors_leave_the_site_unchanged():
    c = ctx()
    err = unchanged(c, "grant_access", Conflict, site="Finance", person="Grace Kim", role="full_control")
    assert err.parameter == "site" and "contribute access" in err.message and "marcus.reed" in err.message
    err = unchanged(c, "grant_access", NotFound, site="Operations", person="nobody@northwind.example")
    assert err.parameter == "person"
    err = unchanged(c, "grant_access", InvalidArgument, site="Operations", person="bad@@example")
    assert err.parameter == "person"
    err = unchanged(c, "grant_access", InvalidArgument, site="Operations", person="Ruby Walker", role="owner")
    assert err.parameter == "role"


def test_last_full_control_member_is_kept():
    c = ctx()
    site = c.state.sites["site_operations"]
    site.members = [m for m in site.members if m.role != "full_control" or m.email == USER]
    err = unchanged(c, "grant_access", Conflict, site="Operations", person=USER, role="edit")
    assert "last member with full_control" in err.message
    unchanged(c, "revoke_access", Conflict, site="Operations", person=USER)


def test_revoke_access():
    c = ctx()
    out = call(c, "revoke_access", site="Atlas Program", person="kim.lau@adatum.example")
    assert out == {"site": "Atlas Program", "removed": "kim.lau@adatum.example", "role": "contribute", "members": 14}
    assert "kim.lau@adatum.example" not in {m.email for m in c.state.sites["site_atlas"].members}
    err = unchanged(c, "revoke_access", NotFound, site="Atlas Program", person="kim.lau@adatum.example")
    assert err.parameter == "person" and "list-members" in err.message
    err = unchanged(c, "revoke_access", Conflict, site="Finance", person="Grace Kim")
    assert err.parameter == "site"
