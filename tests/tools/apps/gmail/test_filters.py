import pytest

from tests.tools.apps.conftest import app_ctx, call, unchanged
from tools.companies import USER
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound

# --- filters --------------------------------------------------------------------------------------


def test_fixture_filters_match_the_labels_on_their_mail():
    c = app_ctx("gmail")
    filters = call(c, "list_filters")["filters"]
    assert [(f["id"], f["sender"], f["add_labels"]) for f in filters] == [
        ("filter_0001", "no-reply@expensely.example", ["Finance"]),
        ("filter_0002", "billing@fabrikam.example", ["Vendors", "Finance"]),
    ]
    assert filters[1]["search"] == 'from:"billing@fabrikam.example"'
    for f in c.state.filters.values():
        mail = [m for m in c.state.messages.values() if m.sender == f.sender]
        assert mail and all(set(f.add_labels) <= set(m.labels) for m in mail)


def test_create_filter_stores_it_and_applies_to_existing_mail_on_request():
    c = app_ctx("gmail")
    out = call(c, "create_filter", sender="Daniel Wright", subject="pipeline report", has_attachment=True,
               add_labels=["finance", "starred"], archive=True, mark_read=True)  # fmt: skip
    f = c.state.filters[out["filter"]["id"]]
    assert (f.sender, f.subject, f.has_attachment, f.add_labels) == (
        "Daniel Wright", "pipeline report", True, ["Finance", "STARRED"]
    )  # fmt: skip
    assert out["matching_messages"] == 8 and out["changed_messages"] == []
    pipeline = [m for m in c.state.messages.values() if m.subject.startswith("Weekly pipeline report")]
    assert all("Finance" not in m.labels for m in pipeline)  # stored only: applies to mail arriving later
    again = call(c, "create_filter", sender="daniel.wright", add_labels=["Finance"], archive=True,
                 mark_read=True, apply_to_existing=True)  # fmt: skip
    daniels = [m for m in c.state.messages.values() if m.sender == "daniel.wright@northwind.example"]
    assert len(daniels) > len(pipeline)
    assert sorted(again["changed_messages"]) == sorted(m.id for m in daniels)
    for m in daniels:
        assert "Finance" in m.labels and "INBOX" not in m.labels and "UNREAD" not in m.labels
    assert [f["id"] for f in call(c, "list_filters")["filters"]][-2:] == [out["filter"]["id"], again["filter"]["id"]]


def test_a_filter_sorts_mail_that_arrives_later():
    c = app_ctx("gmail")
    call(c, "create_filter", subject="expense receipt", add_labels=["Finance"], archive=True, mark_read=True)
    sent = call(c, "send_message", to=[USER], subject="Expense receipt: taxi", body="$42 taxi to LGA")
    assert c.state.messages[sent["id"]].labels == ["SENT", "Finance"]
    other = call(c, "send_message", to=[USER], subject="Lunch", body="note to self")
    assert other["labels"] == ["SENT", "INBOX"]


@pytest.mark.parametrize(
    ("args", "param", "error"),
    [
        ({"add_labels": ["Finance"]}, "sender", InvalidArgument),
        ({"sender": "x@contoso.example"}, "add_labels", InvalidArgument),
        ({"sender": "x@contoso.example", "add_labels": ["Receipts"]}, "add_labels", InvalidArgument),
        ({"sender": "x@contoso.example", "add_labels": ["INBOX"]}, "add_labels", InvalidArgument),
        ({"sender": "x@contoso.example", "add_labels": ["TRASH"]}, "add_labels", InvalidArgument),
        ({"query": "after:2026/13/01", "archive": True}, "query", InvalidArgument),
        ({"sender": "x@contoso.example", "forward_to": "ghost@northwind.example"}, "forward_to", NotFound),
        ({"sender": "x@contoso.example", "forward_to": USER}, "forward_to", InvalidArgument),
        ({"sender": "billing@fabrikam.example", "add_labels": ["Vendors", "Finance"]}, "sender", Conflict),
    ],
)
def test_create_filter_errors_change_nothing(args, param, error):
    err = unchanged(app_ctx("gmail"), "create_filter", error, **args)
    assert err.parameter == param


def test_filter_forwarding_address_and_delete():
    c = app_ctx("gmail")
    out = call(c, "create_filter", query="INV- has:attachment", forward_to="Owen Bell")
    assert out["filter"]["forward_to"] == "owen.bell@northwind.example"
    assert out["filter"]["search"] == "INV- has:attachment"
    assert call(c, "delete_filter", filter_id=out["filter"]["id"]) == {"deleted": out["filter"]["id"]}
    assert out["filter"]["id"] not in c.state.filters and len(c.state.filters) == 2
    assert unchanged(c, "delete_filter", NotFound, filter_id=out["filter"]["id"]).parameter == "filter_id"
