"""OneDrive version actions: list-versions, restore-version."""

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.companies import USER
from tools.kernel.documents import read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument

PRIYA = "priya.shah@northwind.example"


def test_list_versions_newest_first():
    out = call(app_ctx("onedrive"), "list_versions", item="itm_q1_budget")
    assert [(v["number"], v["modified_by"], v["current"]) for v in out["versions"]] == [
        (3, PRIYA, True),
        (2, USER, False),
        (1, USER, False),
    ]
    with pytest.raises(InvalidArgument):
        call(app_ctx("onedrive"), "list_versions", item="itm_budgets")


def test_restore_version_adds_a_new_version():
    c = app_ctx("onedrive")
    out = call(c, "restore_version", item="itm_q1_budget", version=2)
    rec = c.state.items["itm_q1_budget"]
    assert out["version"] == 4 and rec.blob == rec.versions[1].blob and rec.modified_by == USER
    assert read_cell(c.blobs.get(rec.blob), "Q1 2026", "D5") == 58900
    with pytest.raises(Conflict):
        call(c, "restore_version", item="itm_q1_budget", version=4)
    with pytest.raises(InvalidArgument) as err:
        call(c, "restore_version", item="itm_q1_budget", version=9)
    assert err.value.parameter == "version" and "1, 2, 3, 4" in err.value.message
    with pytest.raises(Conflict):
        call(c, "restore_version", item="itm_shared_q1_forecast", version=1)
