"""OneDrive sharing link actions: create-sharing-link, list-sharing-links, revoke-sharing-link."""

from datetime import date

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

RUBY = "ruby.walker@northwind.example"


def test_create_sharing_link_with_expiry_and_reuse():
    c = app_ctx("onedrive")
    out = call(c, "create_sharing_link", item="/Documents/Offsite 2026/Offsite budget.xlsx", expires="2026-03-31")
    assert (out["type"], out["scope"], out["expires"], out["status"]) == (
        "view",
        "organization",
        "2026-03-31",
        "active",
    )
    assert out["url"] == "https://onedrive.northwind.example/s/lnk_n1" and out["already_existed"] is False
    rec = c.state.links["lnk_n1"]
    assert rec.item_id == "itm_offsite_budget" and rec.expires == date(2026, 3, 31) and rec.created_by == USER
    same = call(c, "create_sharing_link", item="itm_offsite_budget", expires="2026-03-31")
    assert same["id"] == "lnk_n1" and same["already_existed"] is True and len(c.state.links) == 7


def test_create_sharing_link_for_specific_people():
    c = app_ctx("onedrive")
    out = call(
        c, "create_sharing_link", item="itm_lodge_contract", scope="specific_people", recipients=["Victor Alvarez"]
    )
    assert out["recipients"] == ["victor.alvarez@northwind.example"] and out["expires"] is None
    edit = call(c, "create_sharing_link", item="itm_shared_offsite_seating", type="edit")
    assert edit["type"] == "edit" and c.state.links[edit["id"]].item_id == "itm_shared_offsite_seating"


def test_create_sharing_link_errors():
    c = app_ctx("onedrive")
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", scope="specific_people")
    assert err.value.parameter == "recipients"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", scope="anyone", recipients=[RUBY])
    assert err.value.parameter == "recipients"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", expires="2026-03-08")
    assert err.value.parameter == "expires" and "past" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", expires="next friday")
    assert err.value.parameter == "expires"
    with pytest.raises(Conflict):
        call(c, "create_sharing_link", item="itm_shared_q1_forecast")
    with pytest.raises(Conflict) as err:
        call(c, "create_sharing_link", item="itm_shared_offsite_seating", type="edit", scope="anyone")
    assert err.value.parameter == "scope"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_sharing_link", item="itm_todo", scope="public")
    assert err.value.parameter == "scope"


def test_list_sharing_links_shows_expired():
    out = call(app_ctx("onedrive"), "list_sharing_links", item="itm_contoso_term_sheet")
    assert [(lnk["recipients"], lnk["expires"], lnk["status"]) for lnk in out["links"]] == [
        (["procurement@contoso.example"], "2026-03-31", "active")
    ]


def test_revoke_sharing_link_by_id_or_url():
    c = app_ctx("onedrive")
    out = call(c, "revoke_sharing_link", link="lnk_lodge_contract_public")
    assert out["revoked"] == "lnk_lodge_contract_public"
    assert [lnk["id"] for lnk in out["remaining"]] == ["lnk_lodge_contract_org"]
    assert "lnk_lodge_contract_public" not in c.state.links
    call(c, "revoke_sharing_link", link="https://onedrive.northwind.example/s/lnk_q1_budget_org")
    assert "lnk_q1_budget_org" not in c.state.links
    with pytest.raises(NotFound) as err:
        call(c, "revoke_sharing_link", link="lnk_q1_budget_org")
    assert err.value.parameter == "link"


def test_a_link_revoked_again_leaves_the_links_and_stays_in_the_items_link_history():
    c = app_ctx("onedrive")
    item = "itm_lodge_contract"
    before = c.state.items[item].model_dump()
    assert "revoked_links" not in call(c, "list_sharing_links", item=item)
    made = call(c, "create_sharing_link", item=item, scope="anyone")
    call(c, "revoke_sharing_link", link=made["url"])
    assert made["id"] not in c.state.links and c.state.items[item].model_dump() != before  # the world keeps it
    out = call(c, "list_sharing_links", item=item)
    assert made["id"] not in [lnk["id"] for lnk in out["links"]]
    (gone,) = out["revoked_links"]
    assert (gone["id"], gone["type"], gone["scope"], gone["revoked_by"]) == (made["id"], "view", "anyone", USER)
    assert gone["revoked_at"] and gone["created_by"] == USER
