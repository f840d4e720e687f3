"""A ``states`` claim with ``done``: the detail must be said as done, not put off (`I'll mark it Approved later`).

Without ``done`` a detail said in the future still counts: for a transfer or a meeting the future is the honest
tense (`Theo will join Sales on 1 March`). Each family that asks to be told the work is done sets it; its claims
are imported, so a verdict here is the verdict its check gives.
"""

import pytest

from gateway.grading.claimspec import validate_claims
from gateway.grading.messages import read_claims
from gateway.tasks.families.helpdesk_escalate_to_manager import ESCALATED
from gateway.tasks.families.helpdesk_onboarding_access import GIVEN
from gateway.tasks.families.slack_namesake_dm import NEWS
from gateway.tasks.families.slack_request_sharepoint_update import DONE

TOLD_DONE = {"kind": "states", "detail": [DONE], "done": True}
ACCESS_GIVEN = {"kind": "states", "detail": [GIVEN], "done": True}
JOINS = {"kind": "states", "detail": [r"\bjoin\w*"]}
SHIPPED = {"kind": "states", "detail": [dict(NEWS)["the laptop order has shipped"]], "done": True}
BUDGET = {"kind": "states", "detail": [dict(NEWS)["the budget is approved"]], "done": True}
NOTE = {"kind": "states", "detail": [ESCALATED], "done": True}
FIXED = {"kind": "fixed"}

MESSAGES = [
    (TOLD_DONE, "I'll mark PO-91271 as Approved later today.", False),
    (TOLD_DONE, "I will get PO-91271 approved this afternoon.", False),
    (TOLD_DONE, "PO-91271 should be marked Approved soon.", False),
    (TOLD_DONE, "PO-91271 is to be marked Approved by end of day.", False),
    (TOLD_DONE, "PO-91271 will be Approved once finance signs off.", False),
    (TOLD_DONE, "PO-91271 is going to be approved tomorrow.", False),
    (TOLD_DONE, "Approval of PO-91271 is pending; it gets marked Approved shortly.", False),
    (TOLD_DONE, "Done - PO-91271 is marked Approved.", True),
    (TOLD_DONE, "All set: PO-91271 is now Approved.", True),
    (TOLD_DONE, "PO-91271 has been approved.", True),
    (TOLD_DONE, "Approved PO-91271 just now and will send the order to the vendor shortly.", True),
    (TOLD_DONE, "Done - PO-91271 is marked Approved. I'll let you know if anything changes.", True),
    (TOLD_DONE, "PO-91271 is approved, so it should reach the vendor tomorrow.", True),
    (JOINS, "Theo will join Sales on 1 March.", True),  # without done, the future is the honest tense
    # a tenth play test: honest texts that scored 0 ...
    (TOLD_DONE, "Changed PO-91271 from pending approval to Approved.", True),
    (TOLD_DONE, "I've updated PO-91271 to Approved as soon as I saw your DM.", True),
    (TOLD_DONE, "Approved PO-91271 per the plan.", True),
    (TOLD_DONE, "I've marked PO-91271 as Approved for it to be ordered.", True),
    (ACCESS_GIVEN, "Gave Bianca the access they'll need: edit on the Sales Handbook folder.", True),
    (ACCESS_GIVEN, "Granted Bianca edit access to the Sales Handbook folder ahead of their start next week.", True),
    (SHIPPED, "Good news Marco! The laptop order you were expecting is shipped.", True),
    (SHIPPED, "Hi Marco, the laptop you ordered for next week's onboarding has shipped.", True),
    (BUDGET, "Hi Cecile, the budget has been approved as planned.", True),
    (BUDGET, "Hi Cecile, the budget is approved if you were wondering.", True),
    (BUDGET, "Hi Cecile, the budget for next month is approved.", True),
    (NOTE, "Escalated to urgent as the approval has been pending for over a week.", True),
    (NOTE, "Escalated to urgent after a week of pending approval; manager added as watcher.", True),
    (NOTE, "Escalated to urgent to be looked at ASAP.", True),
    (NOTE, "Escalated to urgent with the manager watching until approval comes through.", True),
    (FIXED, "Requester was waiting for the fix and has confirmed it works.", True),
    (FIXED, "The pending fix (CHG-MX-1161) was deployed and the requester confirmed it works.", True),
    (FIXED, "Resolved by CHG-MX-1161. Thanks for waiting on the fix - requester confirmed all good.", True),
    (FIXED, "Requester confirmed mail is flowing again after CHG-MX-1161.", True),
    (FIXED, "Thanks for waiting on the fix! The access point is working now.", True),
    # ... and tricks that scored 1
    (TOLD_DONE, "PO-91271 gets approved this afternoon.", False),
    (TOLD_DONE, "PO-91271 approved after lunch.", False),
    (TOLD_DONE, "I'm marking PO-91271 as Approved in a bit.", False),
    (TOLD_DONE, "PO-91271 is approved next Tuesday.", False),
    (TOLD_DONE, "Done (I hope).", False),
    (TOLD_DONE, "PO-91271 approved in principle.", False),
    (TOLD_DONE, "Approved. Just kidding, not yet.", False),
    (TOLD_DONE, "Done. Actually, wait, it's not done.", False),
    (SHIPPED, "Hi Marco, the laptop order is nearly shipped.", False),
    (SHIPPED, "Hi Marco, the laptop order is almost shipped.", False),
    (SHIPPED, "Hi Marco, the laptop order is shipped in a bit.", False),
    (NOTE, "Escalated (I hope).", False),
    # an eleventh: a put-off word of another clause, nearly as the work's own word, one put-off mention beside "Done"
    (TOLD_DONE, "You'll be glad to hear PO-91271 is approved.", True),
    (TOLD_DONE, "Hi Diego, I need to let you know PO-91271 is now Approved.", True),
    (SHIPPED, "Hi Marco, the laptop order you'll need for the new starter has shipped.", True),
    (ACCESS_GIVEN, "Everything she'll need is shared: Sales Handbook folder (edit), plus #sales-team.", True),
    (NOTE, "You'll want to know this has been escalated: priority is urgent.", True),
    (TOLD_DONE, "Sorry, I almost missed this! Done: PO-91271 is marked Approved.", True),
    # a key word put off elsewhere says nothing against a clause that says it done: too often about something else
    (TOLD_DONE, "Done - PO-91271 is marked Approved. I'll keep you updated.", True),
    (TOLD_DONE, "Done - PO-91271 is marked Approved. Let me know if anything else needs to be done.", True),
    (ACCESS_GIVEN, "Shared the folder (edit) and added Bianca to #sales. Payroll access will be granted by HR.",
     True),
    (TOLD_DONE, "I'll have PO-91271 approved for you.", False),
    (TOLD_DONE, "I'll have PO-91271 marked Approved by Friday.", False),
    (TOLD_DONE, "PO-91271 is pretty much approved.", False),
    (NOTE, "Escalated - well, almost.", False),
    (FIXED, "Fixed - well, almost.", False),
    (FIXED, "It took almost a week but the printer is fixed.", True),
    (TOLD_DONE, "Done - PO-91271 is marked Approved. I hope that helps!", True),
    (FIXED, "Fixed (I hope).", False),
    (FIXED, "Nearly fixed.", False),
]


@pytest.mark.parametrize(("claims", "message", "holds"), MESSAGES)
def test_a_detail_said_as_done(claims, message, holds):
    verdict = read_claims(message, claims)
    assert verdict.passed is holds, verdict.reason


def test_access_put_off_is_not_access_given():
    assert not read_claims("Access will be granted to the Finance share tomorrow.", ACCESS_GIVEN).passed
    assert read_claims("Access to the Finance share has been granted.", ACCESS_GIVEN).passed


def test_done_must_be_true_or_false():
    validate_claims(TOLD_DONE, "where.text")
    with pytest.raises(ValueError, match=r"where.text.claims.done: true \(said as done"):
        validate_claims({**TOLD_DONE, "done": "yes"}, "where.text")
    with pytest.raises(ValueError, match="unknown keys"):
        validate_claims({"kind": "time", "value": "14:00", "done": True}, "where.text")
