"""Chat pin actions: pin, unpin, list a channel's pins."""

from tests.tools.apps.conftest import call, unchanged
from tests.tools.apps.slack.conftest import BRIDGE, ctx
from tools.companies import USER
from tools.kernel.exceptions import Conflict


def test_pin_unpin_and_list():
    c = ctx()
    before = call(c, "list_pins", channel="#atlas-cutover")
    assert [p["message"]["user_name"] for p in before["pins"]] == ["Elena Petrova", "Mia Thompson", "Liam Chen"]
    assert call(c, "pin_message", message_id=BRIDGE)["pinned"] is True
    after = call(c, "list_pins", channel="#atlas-cutover")
    assert after["pins"][0]["message"]["id"] == BRIDGE and after["pins"][0]["pinned_by"] == USER
    assert after["pins"][0]["pinned_at"] == "2026-03-09T09:00:00-04:00"
    unchanged(c, "pin_message", Conflict, message_id=BRIDGE)
    assert call(c, "unpin_message", message_id=BRIDGE)["pinned"] is False
    assert c.state.messages[BRIDGE].pinned_by == "" and c.state.messages[BRIDGE].pinned_at is None
    unchanged(c, "unpin_message", Conflict, message_id=BRIDGE)
    sales_pin = next(m.id for m in c.state.messages.values() if m.channel_id == "ch_sales" and m.pinned_by)
    unchanged(c, "unpin_message", Conflict, message_id=sales_pin)  # not a member of #sales
