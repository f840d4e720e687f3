from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.sharepoint.conftest import ctx, names
from tools.companies import USER
from tools.kernel.exceptions import NotFound


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
