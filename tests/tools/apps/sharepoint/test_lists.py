import pytest

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.sharepoint.conftest import ctx, set_role
from tools.companies import NOW, USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_list_lists_and_get_list():
    c = ctx()
    out = call(c, "list_lists", site="Operations")
    assert [(li["name"], li["items"]) for li in out["lists"]] == [("Room bookings", 11), ("Vendor onboarding", 9)]
    cols = call(c, "get_list", site="Operations", list_name="vendor onboarding")["columns"]
    assert [(col["name"], col["type"]) for col in cols] == [
        ("Vendor", "text"), ("Owner", "person"), ("Status", "choice"), ("Due", "date"),
        ("Contract value", "number"), ("W-9 received", "boolean"), ("Notes", "text"),
    ]  # fmt: skip
    assert cols[2]["choices"] == ["Not started", "In progress", "Done"] and cols[2]["required"] is True
    err = unchanged(c, "get_list", NotFound, site="Operations", list_name="Atlas risks")
    assert err.parameter == "list_name" and "'Room bookings'" in err.message


def vendors(out):
    return [r["fields"]["Vendor"] for r in out["results"]]


def test_query_items_filters():
    c = ctx()
    q = {"site": "Operations", "list_name": "Vendor onboarding"}
    open_soon = call(c, "query_items", **q, filter="Status ne 'done' and Due lt '2026-03-20'", order_by="Due")
    assert vendors(open_soon) == ["Wide World Importers", "Fourth Coffee", "Southridge Video"]
    assert vendors(call(c, "query_items", **q, filter="Owner eq 'Ruby Walker'")) == ["Fourth Coffee", "Coho Winery"]
    assert vendors(call(c, "query_items", **q, filter="Owner eq 'ruby.walker@northwind.example'"))[0] == "Fourth Coffee"
    big = call(c, "query_items", **q, filter="Contract value ge 35000 or Vendor contains 'coffee'")
    assert vendors(big) == ["Lakeside Lodge", "Adatum Security", "Proseware Recruiting", "Fourth Coffee"]
    assert vendors(call(c, "query_items", **q, filter="W-9 received eq null")) == [
        "Trey Research", "Graphic Design Institute", "Coho Winery"]  # fmt: skip
    assert vendors(call(c, "query_items", **q, filter="Notes eq 'Webinar series production'")) == ["Southridge Video"]
    assert call(c, "query_items", **q, filter="Notes contains 'O''Brien'")["total"] == 0


def test_query_items_equals_sorting_and_paging():
    c = ctx()
    q = {"site": "Operations", "list_name": "Vendor onboarding"}
    done = call(c, "query_items", **q, equals=["Status=Done", "W-9 received=yes"])
    assert vendors(done) == ["Lakeside Lodge", "Adatum Security"]
    top = call(c, "query_items", **q, order_by="contract value", descending=True, page_size=3)
    assert vendors(top) == ["Proseware Recruiting", "Lakeside Lodge", "Adatum Security"]
    assert top["total"] == 9 and top["next_page"] == 2
    notes = call(c, "query_items", **q, order_by="Notes", page=2, page_size=5)
    assert vendors(notes)[-1] == "Graphic Design Institute"  # blanks last
    reqs = call(c, "query_items", site="People & Culture", list_name="Open requisitions",
                filter="Status eq 'Final interviews'")  # fmt: skip
    assert [r["fields"]["Req ID"] for r in reqs["results"]] == ["REQ-1045", "REQ-1046"]


def test_query_items_errors():
    c = ctx()
    q = {"site": "Operations", "list_name": "Vendor onboarding"}
    err = unchanged(c, "query_items", InvalidArgument, **q, filter="Status is Done")
    assert err.parameter == "filter" and "Status eq 'In progress'" in err.message
    err = unchanged(c, "query_items", InvalidArgument, **q, filter="Colour eq 'red'")
    assert "'Contract value'" in err.message
    err = unchanged(c, "query_items", InvalidArgument, **q, filter="Due lt 'next week'")
    assert "column 'Due'" in err.message
    err = unchanged(c, "query_items", InvalidArgument, **q, filter="Contract value contains '5'")
    assert "contains works on" in err.message
    err = unchanged(c, "query_items", InvalidArgument, **q, equals=["Status"])
    assert err.parameter == "equals"
    err = unchanged(c, "query_items", InvalidArgument, **q, order_by="Price")
    assert err.parameter == "order_by"


def test_create_item_checks_every_column():
    c = ctx()
    out = call(c, "create_item", site="Operations", list_name="Vendor onboarding", fields=[
        "Vendor=Alpine Ski House", "owner=Ruby Walker", "Status=not started", "Due=2026/03/27",
        "Contract value=$5,400.50", "W-9 received=no"])  # fmt: skip
    assert out["id"] == "item_n1"
    assert out["fields"] == {"Vendor": "Alpine Ski House", "Owner": "ruby.walker@northwind.example",
                             "Status": "Not started", "Due": "2026-03-27", "Contract value": 5400.5,
                             "W-9 received": False, "Notes": None}  # fmt: skip
    rec = c.state.items["item_n1"]
    assert rec.values["Contract value"] == 5400.5 and "Notes" not in rec.values and rec.created_by == USER


@pytest.mark.parametrize(
    ("field", "words"),
    [
        ("Status=Finished", "'Not started', 'In progress', 'Done'"),
        ("Due=March 27", "column 'Due' takes a date"),
        ("Contract value=lots", "column 'Contract value' takes a number"),
        ("W-9 received=maybe", "column 'W-9 received' takes yes or no"),
        ("Owner=Jane Nobody", "column 'Owner' takes a person"),
        ("Colour=red", "no column 'Colour'"),
        ("Vendor", "is not Column=value"),
    ],
)
def test_create_item_errors_name_the_column(field, words):
    c = ctx()
    given = {"Vendor": "Alpine", "Owner": "Ruby Walker", "Status": "Done"}
    name, _, value = field.partition("=")
    given[name] = value
    fields = [field] if "=" not in field else [f"{k}={v}" for k, v in given.items()]
    err = unchanged(c, "create_item", InvalidArgument, site="Operations", list_name="Vendor onboarding",
                        fields=fields)  # fmt: skip
    assert err.parameter == "fields" and words in err.message


def test_create_item_required_columns_and_patterns():
    c = ctx()
    err = unchanged(c, "create_item", InvalidArgument, site="Operations", list_name="Vendor onboarding",
                        fields=["Vendor=Alpine"])  # fmt: skip
    assert "Owner, Status" in err.message
    base = ["Title=OKR check-in", "Room=Hudson Room", "Date=2026-03-11", "End=17:00", "Booked by=Alex Morgan"]
    err = unchanged(c, "create_item", InvalidArgument, site="Operations", list_name="Room bookings",
                        fields=[*base, "Start=4pm"])  # fmt: skip
    assert "column 'Start' must be a 24-hour time HH:MM" in err.message
    err = unchanged(c, "create_item", InvalidArgument, site="Operations", list_name="Room bookings",
                        fields=[*base, "Start=16:00", "start=16:30"])  # fmt: skip
    assert "given twice" in err.message
    unchanged(c, "create_item", InvalidArgument, site="Operations", list_name="Room bookings", fields=[])
    set_role(c, "site_operations", "read")
    err = unchanged(c, "create_item", Conflict, site="Operations", list_name="Room bookings",
                        fields=[*base, "Start=16:00"])  # fmt: skip
    assert "read access" in err.message


def test_person_columns_without_a_directory_take_emails():
    c = ctx(with_directory=False)
    out = call(c, "update_item", item_id="vendor_05", fields=["Owner=Amelia.Ward@northwind.example"])
    assert out["fields"]["Owner"] == "amelia.ward@northwind.example"
    unchanged(c, "update_item", InvalidArgument, item_id="vendor_05", fields=["Owner=Amelia Ward"])


def test_update_item_changes_only_what_is_given():
    c = ctx()
    out = call(c, "update_item", item_id="vendor_02", fields=["Status=Done", "W-9 received=yes", "Notes="])
    assert out["changed"] == ["Status", "W-9 received", "Notes"]
    assert out["fields"]["Due"] == "2026-03-13" and out["fields"]["Notes"] is None
    rec = c.state.items["vendor_02"]
    assert rec.values["W-9 received"] is True and "Notes" not in rec.values
    assert rec.modified == NOW and rec.modified_by == USER
    same = call(c, "update_item", item_id="vendor_02", fields=["Status=Done"])
    assert same["changed"] == []


def test_update_and_delete_item_errors():
    c = ctx()
    err = unchanged(c, "update_item", NotFound, item_id="vendor_99", fields=["Status=Done"])
    assert err.parameter == "item_id" and "query-items" in err.message
    err = unchanged(c, "update_item", InvalidArgument, item_id="vendor_02", fields=["Vendor="])
    assert "required" in err.message
    unchanged(c, "update_item", InvalidArgument, item_id="vendor_02", fields=[])
    set_role(c, "site_finance", "read")
    unchanged(c, "update_item", Conflict, item_id="inv_03", fields=["Status=Approved"])
    unchanged(c, "delete_item", Conflict, item_id="inv_03")


def test_delete_item():
    c = ctx()
    out = call(c, "delete_item", item_id="room_11")
    assert out["deleted"] == "room_11" and out["fields"]["Title"] == "Team lunch: executive office"
    assert "room_11" not in c.state.items
    assert call(c, "list_lists", site="Operations")["lists"][0]["items"] == 10
    unchanged(c, "delete_item", NotFound, item_id="room_11")
