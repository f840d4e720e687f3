"""Helpdesk watchers: add-watcher, remove-watcher."""

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import Conflict, NotFound

LEO = "leo.hall@northwind.example"


def test_watchers_add_is_idempotent_and_remove():
    c = app_ctx("helpdesk")
    out = call(c, "add_watcher", ticket_id="HD-1050", person="Dana Whitfield")
    assert out["added"] and out["watchers"] == ["dana.whitfield@northwind.example"]
    before = c.world.snapshot()
    again = call(c, "add_watcher", ticket_id="HD-1050", person="dana.whitfield@northwind.example")
    assert again["added"] is False and c.world.snapshot() == before
    out = call(c, "remove_watcher", ticket_id="HD-1056", person="me")
    assert out["watchers"] == [LEO]


def test_watcher_errors():
    c = app_ctx("helpdesk")
    with pytest.raises(NotFound) as err:
        call(c, "remove_watcher", ticket_id="HD-1050", person="me")
    assert "not watching" in err.value.message
    with pytest.raises(NotFound):
        call(c, "add_watcher", ticket_id="HD-1050", person="Nobody")
    with pytest.raises(Conflict):
        call(c, "add_watcher", ticket_id="HD-1001", person="me")
