import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument

# ---- shared links ---------------------------------------------------------------------------------


def test_create_and_replace_shared_link():
    c = app_ctx("box")
    out = call(c, "create_shared_link", item_id="file_inv_20417", access="company", expires="2026-03-20",
               can_download=False)  # fmt: skip
    link = c.state.files["file_inv_20417"].shared_link
    assert out["replaced"] is False and out["shared_link"]["url"] == link.url
    assert (link.access, link.can_download, link.expires.isoformat(), link.created_by) == (
        "company", False, "2026-03-20", USER)  # fmt: skip
    again = call(c, "create_shared_link", item_id="file_inv_20417", access="open", password="Fabrikam2026")
    assert again["replaced"] is True and again["shared_link"]["url"] == link.url
    assert again["shared_link"]["password_protected"] is True and again["shared_link"]["expires"] is None
    assert "Fabrikam2026" not in repr(c.world.snapshot())


def test_shared_link_errors():
    c = app_ctx("box")
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="company", password="Secret123")
    assert err.value.parameter == "password" and "'open'" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", password="short")
    assert err.value.parameter == "password"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", expires="2026-03-08")
    assert "before today" in err.value.message
    assert (
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", expires="2026-03-09")["shared_link"][
            "expires"
        ]
        == "2026-03-09"
    )
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="open", expires="next friday")
    assert err.value.parameter == "expires"
    with pytest.raises(InvalidArgument) as err:
        call(c, "create_shared_link", item_id="file_inv_20417", access="public")
    assert err.value.parameter == "access"
    with pytest.raises(Conflict):
        call(c, "create_shared_link", item_id="file_vendor_nda_template", access="company")


def test_remove_shared_link():
    c = app_ctx("box")
    url = c.state.files["file_fabrikam_shipping_schedule"].shared_link.url
    out = call(c, "remove_shared_link", item_id="file_fabrikam_shipping_schedule")
    assert out["removed_url"] == url and c.state.files["file_fabrikam_shipping_schedule"].shared_link is None
    with pytest.raises(Conflict) as err:
        call(c, "remove_shared_link", item_id="file_fabrikam_shipping_schedule")
    assert "no shared link" in err.value.message
    with pytest.raises(Conflict):
        call(c, "remove_shared_link", item_id="file_mutual_nda_template")  # a viewer cannot
