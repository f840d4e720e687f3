from tests.tools.apps.conftest import app_ctx, call


def ctx():
    return app_ctx("directory")


def test_list_departments_counts_everyone():
    deps = call(ctx(), "list_departments")["departments"]
    assert sum(d["people"] for d in deps) == 40
    assert {"name": "Legal", "people": 2} in deps
