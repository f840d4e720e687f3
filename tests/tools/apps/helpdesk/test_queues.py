"""Helpdesk queue actions: list-queues."""

from tests.tools.apps.conftest import app_ctx, call

LEO = "leo.hall@northwind.example"
KAI = "kai.nakamura@northwind.example"


def test_list_queues_shows_staff_targets_and_counts():
    out = call(app_ctx("helpdesk"), "list_queues")["queues"]
    it = out[0]
    assert it["id"] == "it" and it["lead"] == LEO
    assert it["staff"] == [LEO, KAI, "mia.thompson@northwind.example"]
    assert it["due_hours_by_priority"] == {"urgent": 8, "high": 24, "normal": 72, "low": 120}
    assert (it["open_tickets"], it["overdue_tickets"]) == (14, 3)
    fin = out[3]
    assert (fin["name"], fin["open_tickets"], fin["overdue_tickets"]) == ("Finance Ops", 8, 2)
