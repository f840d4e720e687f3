"""Helpdesk links between tickets."""

import pytest

from tests.tools.apps.conftest import app_ctx, call
from tools.kernel.exceptions import Conflict, InvalidArgument, NotFound


def test_link_tickets_and_read_from_both_sides():
    c = app_ctx("helpdesk")
    out = call(c, "link_tickets", ticket_id="HD-1058", other_ticket_id="HD-1028", relation="duplicates")
    assert out["link"]["relation"] == "duplicates" and out["link"]["ticket_id"] == "HD-1028"
    other = call(c, "get_ticket", ticket_id="HD-1028")["links"]
    assert [(x["relation"], x["ticket_id"]) for x in other] == [("is_duplicated_by", "HD-1058")]
    # a closed ticket can be the target
    closed = call(c, "link_tickets", ticket_id="HD-1059", other_ticket_id="HD-1001", relation="blocks")
    assert closed["link"]["status"] == "closed"
    assert call(c, "get_ticket", ticket_id="HD-1001")["links"][0]["relation"] == "is_blocked_by"


def test_link_errors_and_remove_link():
    c = app_ctx("helpdesk")
    with pytest.raises(InvalidArgument):
        call(c, "link_tickets", ticket_id="HD-1058", other_ticket_id="hd-1058")
    with pytest.raises(Conflict) as err:
        call(c, "link_tickets", ticket_id="HD-1035", other_ticket_id="HD-1061", relation="blocks")
    assert "lnk_003" in err.value.message
    with pytest.raises(Conflict):
        call(c, "link_tickets", ticket_id="HD-1001", other_ticket_id="HD-1058")
    with pytest.raises(NotFound) as err:
        call(c, "link_tickets", ticket_id="HD-1058", other_ticket_id="HD-2000")
    assert err.value.parameter == "other_ticket_id"
    out = call(c, "remove_link", link_id="lnk_003")
    assert out == {"removed": "lnk_003", "between": ["HD-1061", "HD-1035"]} and "lnk_003" not in c.state.links
    with pytest.raises(NotFound):
        call(c, "remove_link", link_id="lnk_003")
