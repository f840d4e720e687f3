from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.drive.conftest import names


def test_list_shared_drives():
    out = call(app_ctx("drive"), "list_shared_drives")
    assert [(d["id"], d["your_role"], d["items"]) for d in out["results"]] == [
        ("sd_atlas_program", "content_manager", 5),
        ("sd_company_policies", "commenter", 6),
        ("sd_sales_enablement", "contributor", 4),
    ]
    assert {"email": "james.okafor@northwind.example", "role": "manager"} in out["results"][2]["members"]
    assert names(call(app_ctx("drive"), "list_shared_drives", query="sales")["results"]) == ["Sales Enablement"]
