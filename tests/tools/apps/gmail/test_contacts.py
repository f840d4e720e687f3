from tests.tools.apps.conftest import app_ctx, call
from tests.tools.apps.gmail.conftest import PRIYA
from tools.companies import USER


def test_list_contacts_counts_mail_both_ways():
    c = app_ctx("gmail")
    out = call(c, "list_contacts", page_size=100)
    rows = {r["email"]: r for r in out["contacts"]}
    assert USER not in rows
    priya = rows[PRIYA]
    received = sum(m.sender == PRIYA for m in c.state.messages.values())
    sent = sum(m.sender == USER and PRIYA in (*m.to, *m.cc, *m.bcc) for m in c.state.messages.values())
    assert (priya["name"], priya["in_company"], priya["received"], priya["sent"]) == (
        "Priya Shah",
        True,
        received,
        sent,
    )
    assert priya["total"] == received + sent > 3
    totals = [r["total"] for r in out["contacts"]]
    assert totals == sorted(totals, reverse=True)
    billing = call(c, "list_contacts", query="fabrikam")["contacts"]
    assert [(r["email"], r["name"], r["in_company"], r["received"], r["sent"]) for r in billing] == [
        ("billing@fabrikam.example", "", False, 1, 0)
    ]
    assert billing[0]["last_date"] == "2026-03-02T06:40:00-05:00"
    assert call(c, "list_contacts", query="renee")["total"] == 0  # outside names are not guessed


def test_settings_and_contacts_reads_change_nothing():
    c = app_ctx("gmail")
    before = c.world.snapshot()
    call(c, "list_filters")
    call(c, "get_vacation")
    call(c, "list_contacts", query="priya")
    assert c.world.snapshot() == before
