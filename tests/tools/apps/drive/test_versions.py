import pytest

from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.drive.conftest import content
from tools.companies import USER
from tools.kernel.documents import read_cell
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_versions_newest_first():
    out = call(app_ctx("drive"), "list_versions", file_id="file_contoso_renewal_proposal")
    assert out["current_version"] == 3
    assert [(v["version"], v["modified_by"], v["current"]) for v in out["versions"]] == [
        (3, "james.okafor@northwind.example", True),
        (2, "isabella.rossi@northwind.example", False),
        (1, "james.okafor@northwind.example", False),
    ]
    assert out["versions"][1]["modified"] == "2026-03-02T17:45:00-05:00"
    with pytest.raises(InvalidArgument):
        call(app_ctx("drive"), "list_versions", file_id="fld_finance")


def test_restore_version_makes_a_new_current_version():
    c = app_ctx("drive")
    out = call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=2)
    assert out["restored_from"] == 2 and out["version"] == 4 and out["last_modified_by"] == USER
    f = c.state.files["file_contoso_renewal_pricing"]
    assert read_cell(content(c, f.id), "Pricing", "C2") == 444960
    assert read_cell(c.blobs.get(f.versions[2].blob), "Pricing", "C2") == 432000  # Benjamin's kept as v3
    assert f.versions[2].modified_by == "benjamin.clark@northwind.example"


def test_restore_version_errors():
    c = app_ctx("drive")
    before = c.world.snapshot()
    with pytest.raises(NotFound) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=7)
    assert err.value.parameter == "version" and "1 to 3" in err.value.message
    with pytest.raises(Conflict) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=3)
    assert err.value.parameter == "version"
    with pytest.raises(Conflict) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_proposal", version=1)
    assert "commenter access" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        call(c, "restore_version", file_id="file_contoso_renewal_pricing", version=0)
    assert err.value.parameter == "version"
    assert c.world.snapshot() == before
