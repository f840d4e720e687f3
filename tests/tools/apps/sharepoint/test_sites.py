from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.sharepoint.conftest import ctx, names
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_sites_sorted_with_roles():
    out = call(ctx(), "list_sites")
    assert names(out["results"]) == ["Atlas Program", "Finance", "Operations", "People & Culture"]
    roles = {r["name"]: r["your_role"] for r in out["results"]}
    assert roles == {"Atlas Program": "full_control", "Finance": "contribute", "Operations": "full_control",
                     "People & Culture": "edit"}  # fmt: skip
    assert names(call(ctx(), "list_sites", query="hiring")["results"]) == ["People & Culture"]


def test_get_site_by_name_url_or_slug():
    c = ctx()
    out = call(c, "get_site", site="finance")
    assert out["id"] == "site_finance"
    assert [lib["name"] for lib in out["libraries"]] == ["Audit evidence", "Documents"]
    assert out["lists"] == [{"id": "list_invoice_tracker", "name": "Invoice tracker",
                             "description": out["lists"][0]["description"], "items": 11}]  # fmt: skip
    assert out["owners"][:2] == ["marcus.reed@northwind.example", "priya.shah@northwind.example"]
    url = "https://northwind.sharepoint.example/sites/AtlasProgram"
    assert call(c, "get_site", site=url)["name"] == "Atlas Program"
    assert call(c, "get_site", site="PeopleCulture")["recycle_bin"] == 0
    assert call(c, "get_site", site="people and culture")["id"] == "site_people"
    assert call(c, "get_site", site="Operations")["recycle_bin"] == 1


def test_sites_you_do_not_belong_to_are_hidden():
    c = ctx()
    site = c.state.sites["site_finance"]
    site.members = [m for m in site.members if m.email != USER]
    assert "Finance" not in names(call(c, "list_sites")["results"])
    err = unchanged(c, "get_site", NotFound, site="Finance")
    assert err.parameter == "site" and "'Operations'" in err.message


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
