import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import InvalidArgument, NotFound


def ctx():
    return app_ctx("directory")


def test_search_people_filters_by_department_and_pages():
    c = ctx()
    out = call(c, "search_people", department="finance", page_size=2)
    assert out["total"] == 5
    assert [p["name"] for p in out["results"]] == ["Grace Kim", "Marcus Reed"]
    assert out["next_page"] == 2
    last = call(c, "search_people", department="finance", page_size=2, page=3)
    assert [p["name"] for p in last["results"]] == ["Tomas Rivera"]
    assert last["next_page"] is None


def test_search_people_matches_name_and_title_together():
    out = call(ctx(), "search_people", query="chen", title="manager")
    assert [p["email"] for p in out["results"]] == ["liam.chen@northwind.example"]


def test_get_person_by_email_id_or_name():
    c = ctx()
    by_email = call(c, "get_person", person="Owen.Bell@northwind.example")
    assert by_email["title"] == "Senior Accountant"
    assert call(c, "get_person", person="owen.bell") == by_email
    assert call(c, "get_person", person="owen  bell") == by_email


def test_get_person_unknown_names_the_parameter():
    with pytest.raises(NotFound) as err:
        call(ctx(), "get_person", person="nobody@northwind.example")
    assert err.value.parameter == "person"
    assert "search-people" in err.value.message


def test_get_manager_and_top_of_tree():
    c = ctx()
    assert call(c, "get_manager", person="Owen Bell")["manager"]["email"] == "priya.shah@northwind.example"
    assert call(c, "get_manager", person="dana.whitfield")["manager"] is None


def test_list_direct_reports_sorted():
    out = call(ctx(), "list_direct_reports", person="Priya Shah")
    assert [p["name"] for p in out["reports"]] == ["Grace Kim", "Owen Bell", "Tomas Rivera"]


def test_bad_arguments_name_the_parameter():
    c = ctx()
    with pytest.raises(InvalidArgument) as err:
        call(c, "search_people", page_size=500)
    assert err.value.parameter == "page_size"
    with pytest.raises(InvalidArgument) as err:
        call(c, "get_person")
    assert err.value.parameter == "person"
    with pytest.raises(InvalidArgument) as err:
        call(c, "list_departments", extra="x")
    assert err.value.parameter == "extra"
