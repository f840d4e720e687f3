"""Family checks that read too little: what an eighth play tester got scored 1 for, beside honest texts.

A budget mail that says the department is within budget, a reply to a quote that goes with another supplier or is
still reviewing, a forward naming the wrong supplier, a head's mail naming another team as the new one, a channel
greeted without a word of who manages it, a DM that says the order is on hold or names the wrong approver, a note
that only considered escalating, and a time doubted by a clause pointing back at it (`but that may change`). Each
family's claims are imported, so a verdict here is the verdict its check gives.
"""

import pytest

from gateway.grading.messages import read_claims
from gateway.tasks.families.directory_new_manager_handover import MANAGES
from gateway.tasks.families.gmail_quote_award_rollout import ACCEPTS
from gateway.tasks.families.helpdesk_escalate_to_manager import ESCALATED
from gateway.tasks.families.onedrive_quarter_close import OVER
from gateway.tasks.families.slack_namesake_dm import NEWS
from gateway.tasks.families.slack_request_sharepoint_update import DONE, STATUSES
from tests.gateway.grading.test_doubt_beside_the_work import WORLD, email
from tests.gateway.grading.test_eighth_play_test import LINK, URL

DEPTS = ["Engineering", "Finance", "Marketing", "Sales"]
HEAD_TOLD = [{"kind": "choice", "value": "Marketing", "candidates": DEPTS}, {"kind": "states", "detail": [OVER]}]
SUPPLIERS = [["Adatum Facilities", "Adatum"], ["Wingtip Furniture", "Wingtip"], ["Coho Freight", "Coho"]]
WON = {"kind": "choice", "value": "Adatum Facilities", "candidates": SUPPLIERS, "required": False}
ACCEPTED = [{"kind": "states", "detail": [ACCEPTS]}, WON]
TEAM = {"kind": "choice", "value": "Sales", "candidates": DEPTS + ["Customer Success"], "required": False}
NEW_MANAGER = [{"kind": "person", "value": email("Carmen Ferrari"),
                "candidates": [email("Carmen Ferrari"), email("Marco Eriksen")]}, MANAGES]  # fmt: skip
APPROVER = {"kind": "person", "value": email("Nadia Almeida"), "required": False, "ignore": [email("Simone Berg")]}
ORDER = {"kind": "choice", "value": "PO-77166", "candidates": ["PO-77166", "PO-70954"], "required": False}
STATUS = {"kind": "choice", "value": "Approved", "candidates": STATUSES, "required": False}
DM_TOLD = [{"kind": "states", "detail": [DONE], "done": True}, APPROVER, ORDER, STATUS]
PAID = {"kind": "states", "detail": [dict(NEWS)["the invoice is paid"]], "done": True}
NOTE = {"kind": "states", "detail": [ESCALATED], "done": True}
AT_930 = {"kind": "time", "value": "09:30"}
AT_2 = {"kind": "time", "value": "14:00"}

MESSAGES = [
    (HEAD_TOLD, "Hi Zara, Marketing is within budget for Q3 2026.", False),
    (HEAD_TOLD, "Hi Zara, Marketing is not over budget for Q3 2026.", False),
    (HEAD_TOLD, "Hi Zara, Marketing is over budget for Q3 2026.", True),
    (HEAD_TOLD, "Hi Zara, the latest Q3 ledger shows Marketing exceeded its budget.", True),
    (HEAD_TOLD, "Hi Zara, Marketing overspent; the other departments are within budget.", True),
    (HEAD_TOLD, "Hi Zara, Marketing went over its budget. (The earlier v1 draft showed Sales over instead.)", True),
    (ACCEPTED, "Thanks for your quote. Unfortunately we've decided to go with another supplier.", False),
    (ACCEPTED, "Thanks, we're still reviewing the quotes and will get back to you.", False),
    (ACCEPTED, "We accept your quote for PO-31306, subject to Julia's sign-off.", False),
    (ACCEPTED, "We accept Coho Freight's quote for PO-31306.", False),
    (ACCEPTED, "We cannot accept your quote for PO-31306.", False),
    (ACCEPTED, "We are unable to accept your quote.", False),
    (ACCEPTED, "We won't accept your quote.", False),
    (ACCEPTED, "We hope to accept your quote for PO-31306 soon.", False),
    (ACCEPTED, "We plan to accept your quote.", False),
    (ACCEPTED, "We accept your quote; the restructuring plan to expand goes ahead.", True),  # a plan, no intention
    (ACCEPTED, "We accept your quote for PO-31306.", True),
    (ACCEPTED, "Good news: you've won PO-31306. We'll send the purchase order shortly.", True),
    (WON, "Hi Julia, Coho Freight wins PO-31306; please sign off.", False),
    (WON, "Hi Julia, Adatum Facilities or Coho Freight for PO-31306 - your pick.", False),
    (WON, "", True),  # a forward with no note of its own
    (WON, "Hi Julia, please sign off on this quote.", True),
    (TEAM, "Hi Samira, Diego Jensen is joining Customer Success, not Sales.", False),
    (TEAM, "Hi Samira, Diego Jensen is joining Marketing.", False),
    (TEAM, "Hi Samira, Diego Jensen from Customer Success is joining your team.", True),
    (TEAM, "Hi Samira, Diego Jensen is moving from Customer Success to Sales.", True),
    (TEAM, "Hi Samira, Diego Jensen is joining the Customer Success team.", False),
    (NEW_MANAGER, "Welcome Carmen!", False),
    (NEW_MANAGER, "From December 22, Carmen Ferrari is our new manager.", True),
    (NEW_MANAGER, "Heads up: from December 22 you report to Carmen Ferrari.", True),
    (DM_TOLD, "I've put PO-77166 on hold for now.", False),
    (DM_TOLD, "PO-77166 is probably approved - can you check?", False),
    (DM_TOLD, "Done - PO-77166 is marked Approved with Marco Eriksen as approver.", False),
    (DM_TOLD, "Done - PO-70954 is marked Approved.", False),
    (DM_TOLD, "Done - PO-77166 is marked Cancelled.", False),
    (DM_TOLD, "Done!", True),
    (DM_TOLD, "Hi Simone, PO-77166 is now Approved and Nadia is the approver.", True),
    (NOTE, "Raised to urgent and added the manager so they can chase the approval.", True),
    (NOTE, "Considered escalating, but it can wait.", False),
    (NOTE, "Not raised to urgent yet.", False),
    (NOTE, "May need escalation if there is no movement by Friday.", False),
    (NOTE, "I'll escalate this later.", False),
    (NOTE, "De-escalated: priority lowered.", False),
    (NOTE, "We're escalating this to the requester's manager.", True),
    (PAID, "Hi Daria, the invoice will be paid tomorrow.", False),
    (PAID, "Hi Daria, the invoice is due to be paid.", False),
    (PAID, "Hi Daria, the invoice is paid.", True),
    # a clause pointing back at the claim to doubt it
    (AT_930, "Hi Simone, on Monday January 11 it starts at 9:30am, but that may change again.", False),
    (AT_930, "It starts at 9:30am; it might move again.", False),
    (AT_930, "It moved to 9:30am - might move again though.", False),
    (AT_930, "It's supposed to start at 9:30am.", False),
    # "as usual" after the time says it holds; before it, it tells what was
    (AT_2, "Hi Theo, on Monday December 14 it starts at 2pm as usual.", True),
    (AT_2, "As usual it's at 2pm, but this week it starts at 3pm.", False),
    (AT_930, "Hi Simone, on Monday January 11 it starts at 9:30am.", True),
    # the link given with what it does is the link made
    (LINK, f"Malik - {URL} - anyone with it can view the guide.", True),
]


@pytest.mark.parametrize(("claim", "message", "verdict"), MESSAGES)
def test_a_family_check_reads_what_the_message_says(claim, message, verdict):
    result = read_claims(message, claim, WORLD)
    assert result.passed is verdict, result.reason
