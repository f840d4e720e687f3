from tests.tools.apps.conftest import app_ctx, call, unchanged
from tests.tools.apps.gmail.conftest import only
from tools.companies import USER
from tools.kernel.exceptions import NotFound


def test_get_thread_by_thread_or_message_id_oldest_first():
    c = app_ctx("gmail")
    hit = only(c, 'subject:"Contoso renewal" from:james.okafor')
    by_message = call(c, "get_thread", thread_id=hit["id"])
    assert by_message == call(c, "get_thread", thread_id=hit["thread_id"])
    senders = [m["from"] for m in by_message["messages"]]
    assert senders == [
        "isabella.rossi@northwind.example",
        USER,
        "isabella.rossi@northwind.example",
        "james.okafor@northwind.example",
    ]
    assert by_message["subject"] == "Contoso renewal - pricing approval needed"
    err = unchanged(c, "get_thread", NotFound, thread_id="thr_9999")
    assert err.parameter == "thread_id"
