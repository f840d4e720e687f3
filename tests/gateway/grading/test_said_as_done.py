"""A ``states`` claim with ``done``: the detail must be said as done, not put off (`I'll mark it Approved later`).

Without ``done`` a detail said in the future still counts: for a transfer or a meeting the future is the honest
tense (`Theo will join Sales on 1 March`). Each family that asks to be told the work is done sets it; its claims
are imported, so a verdict here is the verdict its check gives.
"""

import pytest

from gateway.grading.claimspec import validate_claims
from gateway.grading.messages import read_claims
from gateway.tasks.families.helpdesk_onboarding_access import GIVEN
from gateway.tasks.families.slack_request_sharepoint_update import DONE

TOLD_DONE = {"kind": "states", "detail": [DONE], "done": True}
ACCESS_GIVEN = {"kind": "states", "detail": [GIVEN], "done": True}
JOINS = {"kind": "states", "detail": [r"\bjoin\w*"]}

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
