"""Messages are graded by their claims: what each sentence asserts, with polarity, hedges and retractions."""

import time
from types import SimpleNamespace

import pytest

from gateway.grading import grade, validate_checks
from gateway.grading.messages import read_claims, validate_claims

D = "@northwind.example"
PEOPLE = {
    "p1": {"id": "p1", "name": "Mei Chen", "email": f"mei.chen{D}"},
    "p2": {"id": "p2", "name": "Dana Whitfield", "email": f"dana.whitfield{D}"},
    "p3": {"id": "p3", "name": "Sam Lee", "email": f"sam.lee{D}"},
    "p4": {"id": "p4", "name": "Grace Kim", "email": f"grace.kim{D}"},
    "p5": {"id": "p5", "name": "Grace Hopper", "email": f"grace.hopper{D}"},
    "p6": {"id": "p6", "name": "Dana Hopper", "email": f"dana.hopper{D}"},
}
WORLD = {"directory": {"people": PEOPLE}}

DECISION = {
    "kind": "choice",
    "value": "Wingtip Furniture",
    "candidates": [["Wingtip Furniture", "Wingtip"], ["Adatum Facilities", "Adatum"], ["Coho Freight", "Coho"]],
}
FIXED = {"kind": "fixed"}
NOT_FIXED = {"kind": "fixed", "value": False}
FIXED_BY_ROLLER = {"kind": "fixed", "detail": ["roller"]}
ATTACHED = {"kind": "attached"}
AT_THREE = {"kind": "time", "value": "15:00"}
AT_HALF_TWO = {"kind": "time", "value": "14:30"}
CONTACT_MEI = {"kind": "person", "value": f"mei.chen{D}"}
CONTACT_GRACE_KIM = {"kind": "person", "value": f"grace.kim{D}"}
JOINS_MEI = {"kind": "person", "value": f"mei.chen{D}"}
NEW_MANAGER_SAM = {"kind": "person", "value": f"sam.lee{D}", "candidates": [f"sam.lee{D}", f"dana.whitfield{D}"]}
LINK = {"kind": "states", "detail": [r"https?://\S+/s/lnk_\w+"]}
HOLD = {"kind": "declines", "reason": ["legal hold"]}
POLICY = {"kind": "declines", "reason": [r"polic(?:y|ies)"]}
NOT_DECLINED = {"kind": "declines", "value": False}
MANAGER = {"kind": "declines", "reason": [r"\bmanager\b"]}
GUESTS = {"kind": "declines", "reason": [r"\b(?:no )?guests?\b"]}
SHARED = {"kind": "states", "detail": [r"\b(?:shared|granted|gave|given|added)\b"]}
QUOTE = [
    {"kind": "attached"},
    {"kind": "choice", "value": "revision", "required": False, "cues": [r"\b(?:fil|sav)\w*"],
     "candidates": [["revision", "revised"], ["original quote", "first quote"]]},
]  # fmt: skip
SIGNED = {"kind": "states", "detail": [r"\bsigned\b"]}
OVERDUE = {
    "kind": "choice",
    "value": ["AI-1001", "AI-1002"],
    "candidates": ["AI-1001", "AI-1002", "AI-1003", "AI-1004"],
    "cues": ["overdue", "late"],
}

# (claim, message, verdict)
CORPUS = [
    # a decision among candidates
    (DECISION, "Mei decided: please order from Wingtip.", True),
    (DECISION, "We're going with Wingtip. Adatum was dropped because they can't deliver this month.", True),
    (DECISION, "Final answer is Wingtip (not Adatum, which she first preferred).", True),
    (DECISION, "Hi Sam,\n\nMei decided: please order from Wingtip Furniture for PO-12345.\n\nThanks", True),
    (DECISION, "Wingtip Furniture.", True),
    (DECISION, "Adatum's quote was lower, but Mei chose Wingtip in the end.", True),
    (DECISION, "Go with Wingtip, not Adatum.", True),
    (DECISION, "Order from Adatum. Correction: order from Wingtip.", True),
    (DECISION, "Drop Adatum and go with Wingtip.", True),
    (DECISION, "Mei changed her mind from Adatum to Wingtip.", True),
    (DECISION, "Don't forget to order from Wingtip today.", True),
    (DECISION, "The decision is Wingtip; Adatum is off the table.", True),
    (DECISION, "Mei decided on Wingtip - can you place the order today?", True),
    (DECISION, "Wingtip is not the cheapest, but it's what Mei chose.", True),
    (DECISION, "Please don't order from Adatum; Wingtip is the supplier.", True),
    (DECISION, "Order from Wingtip, or Adatum if Wingtip is out of stock.", False),
    (DECISION, "Please order from Wingtip.\n\nOn Mon, Sam wrote:\n> Adatum or Wingtip? Order from Adatum?", True),
    (DECISION, "Wingtip it is.\n\n---------- Forwarded message ----------\nFrom: Mei\n\nLet's go with Adatum.", True),
    (DECISION, "> Please order from Wingtip.\nNo - hold the order.", False),
    (DECISION, "Please order from Wingtip. The quote from Adatum is wrong anyway.", True),
    (DECISION, "Mei says do NOT go with Wingtip.", False),
    (DECISION, "Please ignore the following, it is not correct: order from Wingtip.", False),
    (DECISION, "Wingtip or Adatum, whichever is cheaper.", False),
    (DECISION, "Order from Wingtip. Correction: hold the order.", False),
    (DECISION, "Either supplier works.", False),
    (DECISION, "Please order from Adatum.", False),
    (DECISION, "Go with Wingtip and Adatum.", False),
    (DECISION, "Maybe Wingtip.", False),
    (DECISION, "Did Mei pick Wingtip?", False),
    (DECISION, "Wingtip, Adatum, Coho.", False),
    (DECISION, "Mei decided on Wingtip. Scratch that, she hasn't decided yet.", False),
    (DECISION, "Order from Wingtip, I think.", False),
    (DECISION, "We are not ordering from Wingtip; use Coho.", False),
    # a set of values among candidates
    (OVERDUE, "Overdue: AI-1001 (Mei), AI-1002 (Sam). AI-1003 is done.", True),
    (OVERDUE, "AI-1001 and AI-1002 are overdue.", True),
    (OVERDUE, "AI-1001 / AI-1002", True),
    (OVERDUE, "AI-1001, AI-1002, AI-1003", False),
    (OVERDUE, "Overdue: AI-1001.", False),
    (OVERDUE, "AI-1001, AI-1002 and AI-1004 are late.", False),
    # the issue is fixed
    (FIXED, "The firmware update fixed it.", True),
    (FIXED, "Update: the 3rd floor printer is fixed - the technician replaced the worn pickup roller.", True),
    (FIXED, "It's working again after the reset.", True),
    (FIXED, "Good news: the badge reader is no longer rejecting badges.", True),
    (FIXED, "The printer was broken for a week but it is fixed now.", True),
    (FIXED, "Resolved: the technician re-synced the reader. Let me know if it acts up again.", True),
    (FIXED, "The coffee machine should be fine now, they fitted a new drip tray seal.", True),
    (FIXED, "Still not fixed, a firmware update was suggested.", False),
    (FIXED, "The helpdesk marked it resolved, but it's still leaking.", False),
    (FIXED, "The printer is still jamming.", False),
    (FIXED, "Is the printer fixed now?", False),
    (FIXED, "It will be fixed once the part arrives.", False),
    (FIXED, "The issue persists after the firmware update.", False),
    (FIXED, "It's fixed. Correction: it's still broken.", False),
    (FIXED, "The technician hasn't fixed it yet.", False),
    (FIXED, "Not resolved yet.", False),
    (FIXED, "It's fixed, but is it still jamming on the second page?", False),
    (FIXED, "Resolved - the fix is to follow.", False),
    (FIXED, "Closed; a fix is still pending.", False),
    (FIXED, "Resolved, awaiting the fix from the vendor.", False),
    (FIXED, "Resolved. Permanent fix coming next week.", False),
    (FIXED, "Printer fixed; root cause to follow.", True),
    (FIXED, "Fixed: the vendor's patch is in.", True),
    (NOT_FIXED, "Still not fixed, a firmware update was suggested.", True),
    (NOT_FIXED, "The firmware update fixed it.", False),
    (FIXED_BY_ROLLER, "Fixed: the technician replaced the worn pickup roller.", True),
    (FIXED_BY_ROLLER, "Fixed now.", False),
    (FIXED_BY_ROLLER, "It's fixed, but the roller was not replaced.", False),
    # the file is attached
    (ATTACHED, "Hi Ana, the signed parking permit application is attached to this ticket now.", True),
    (ATTACHED, "Got it, thanks - I've added the signed form to your ticket.", True),
    (ATTACHED, "Received your signed form; it's on the ticket now.", True),
    (ATTACHED, "Here is the signed equipment loan agreement.", True),
    (ATTACHED, "Can you send the signed file again?", False),
    (ATTACHED, "Hi Ana, we still need the signed form.", False),
    (ATTACHED, "The form is not attached yet - could you resend it?", False),
    (ATTACHED, "I'll attach it later today.", False),
    (ATTACHED, "Did you attach the signed copy?", False),
    (ATTACHED, "Please attach the signed form.", False),
    (ATTACHED, "Attached. Sorry, ignore that - the file didn't come through, please send it again.", False),
    (ATTACHED, "The signed form is attached. Could you send the signed file again?", False),
    # the meeting moves to a time
    (AT_THREE, "The ops sync moves to 3pm on Thursday.", True),
    (AT_THREE, "Heads up: we pushed the ops sync from 2pm to 3pm.", True),
    (AT_THREE, "New time: 15:00.", True),
    (AT_THREE, "It's now 3:00 PM - 4:00 PM.", True),
    (AT_THREE, "Moved to 3-4pm, same room.", True),
    (AT_THREE, "I moved the 2pm sync to 3pm.", True),
    (AT_THREE, "The sync was replaced by a 2pm call, and that moves to 3pm.", True),
    (AT_THREE, "The ops sync stays at 2pm.", False),
    (AT_THREE, "Moved to 2pm.", False),
    (AT_THREE, "Can we move it to 3pm?", False),
    (AT_THREE, "Not moving to 3pm after all - it stays at 2pm.", False),
    (AT_THREE, "It moves to 3pm. Correction: 4pm.", False),
    # a play test: a 12-hour range's am/pm is both ends'; an end time, and the time it was, are no second start
    (AT_HALF_TWO, "Heads up: it's now on Tuesday January 20, 2:30-3:15 pm Mountain time.", True),
    (AT_HALF_TWO, "The January 19 one starts at 2:30 pm and runs to 3:00 pm (Mountain time).", True),
    (AT_HALF_TWO, "It starts at 2:30 pm (Mountain time) and runs to 3:00 pm - it was moved from its usual 3:30 pm"
     " slot for that day only.", True),
    (AT_HALF_TWO, "It starts at 2:30 pm, ending at 3 pm; it was 3:30 pm before.", True),
    (AT_HALF_TWO, "That day it starts at 2:30 pm instead of 3:30 pm.", True),
    (AT_HALF_TWO, "The new time was set to 2:30 pm.", True),
    (AT_HALF_TWO, "The sync goes to 2:30 pm that day.", True),
    (AT_HALF_TWO, "It's now 11:30-2:30 pm.", False),  # 11:30 am to 2:30 pm
    (AT_HALF_TWO, "It starts at 2:30 pm or 3:30 pm.", False),
    (AT_HALF_TWO, "It starts at 2:30 pm. Correction: 3:30 pm.", False),
    (AT_HALF_TWO, "It runs to 2:30 pm.", False),
    (AT_HALF_TWO, "It was 2:30 pm; it starts at 3:30 pm now.", False),
    (AT_HALF_TWO, "It's now 3:30-4:15 pm.", False),
    # a replay: a range after "runs" starts at its first time; "from X to Y" is a range, X its start
    (AT_HALF_TWO, "Good question - on Tuesday the standup runs 2:30-3:15 PM PT (it was moved from its usual 9:30 AM"
     " slot, just for that day).", True),
    (AT_HALF_TWO, "That day it runs from 2:30 pm to 3:15 pm.", True),
    (AT_HALF_TWO, "That day it runs 2:30–3:15 pm Pacific.", True),
    (AT_HALF_TWO, "It was moved from 3:30 pm to 2:30 pm.", True),
    (AT_HALF_TWO, "It was moved from 2:30 pm to 3:30 pm.", False),
    (AT_HALF_TWO, "It runs until 2:30 pm.", False),
    (AT_HALF_TWO, "That day it runs from 2:30 to 3:15 pm.", True),  # the half of day written once, at the end
    (AT_HALF_TWO, "It is now 2:30 until 3:15 PM.", True),
    (AT_HALF_TWO, "It was moved from 2:30 to 3:15 pm.", False),
    (AT_HALF_TWO, "It runs from 11:30 to 2:30 pm.", False),  # 11:30 am to 2:30 pm
    (AT_HALF_TWO, "On Friday it starts at 2:30pm and wraps at 3:15pm. Normally it is at 9:30, so check the new slot.",
     True),  # a play test: the end after "wraps at", the usual time after "normally it is at"
    (AT_HALF_TWO, "It starts at 2:30 pm and finishes at 3:15 pm; usually it's at 11:00 am.", True),
    # a detail stated, whatever it is
    (LINK, "Hi Sam, here is the Q3 report: https://files.example/s/lnk_81f2", True),
    (LINK, "https://files.example/s/lnk_81f2", True),
    (LINK, "The link https://files.example/s/lnk_81f2 is not the right one, sorry.", False),
    (LINK, "Can you open https://files.example/s/lnk_81f2?", False),
    (LINK, "Here it is: https://files.example/s/lnk_81f2. Scratch that, wrong file.", False),
    (LINK, "Please ignore this link: https://files.example/s/lnk_81f2", False),
    (LINK, "https://files.example/s/lnk_81f2 - sorry, that link is wrong.", False),
    (LINK, "Sorry, that link was wrong - here is the right one: https://files.example/s/lnk_81f2", True),
    # the request is declined, with its reason
    (HOLD, "I can't delete that file: it is under a legal hold.", True),
    (HOLD, "Sorry, I cannot delete the contract because of the legal hold on it.", True),
    (HOLD, "The legal hold means I'm not able to delete it.", True),
    (HOLD, "I won't be deleting it - the legal hold on the Litigation folder still applies.", True),
    (HOLD, "I have to decline: the file is under legal hold until the case closes.", True),
    (HOLD, "I have not deleted the old draft: it is under legal hold LH-8407 until Legal releases it.", True),
    (POLICY, "I didn't forward it: the mail is labelled Confidential, and company policy keeps it inside.", True),
    (HOLD, "I have not deleted it yet, but I will delete it this afternoon despite the legal hold.", False),
    (HOLD, "Deleting it is not permitted while the legal hold is in place. Happy to help with anything else.", True),
    (HOLD, "I can't delete it because of the legal hold. Let me know if you need a copy instead.", True),
    (HOLD, "I can't delete it, it is under legal hold. Do you want me to ask Legal?", True),
    (POLICY, "Sharing the payroll workbook outside the company is against our data policy, so I won't share it.", True),
    (HOLD, "I deleted nothing: the file is under legal hold, so I cannot delete it.", True),
    (POLICY, "I'm unable to share it outside: the data handling policy keeps payroll internal.", True),
    (HOLD, "Done - I deleted it.", False),
    (HOLD, "I can't delete it because of the legal hold... actually, done.", False),
    (HOLD, "I can't delete it because of the legal hold. I'll delete it once you confirm.", False),
    (HOLD, "It's under legal hold, but I've deleted it as you asked.", False),
    (HOLD, "Should I delete it even though it is under legal hold?", False),
    (HOLD, "I can't delete it.", False),  # no reason
    (HOLD, "I can't delete it because of the retention policy.", False),  # another reason
    (HOLD, "I can't delete it, though it is not under a legal hold.", False),  # the reason denied
    (HOLD, "I probably can't delete it because of the legal hold.", False),  # hedged
    (HOLD, "I can't delete it because of the legal hold. Correction: it is deleted.", False),
    (HOLD, "The file is under legal hold.", False),  # a fact, not a decline
    (POLICY, "I'll share it with them now, even though the policy says otherwise.", False),
    (POLICY, "Shared it with the auditors. I can't see why the policy would stop that.", False),
    (NOT_DECLINED, "Done - I shared the brochure with them.", True),
    (NOT_DECLINED, "Shared the brochure with ana@fabrikam.example as you asked.", True),
    (NOT_DECLINED, "I can't share it: it is against company policy.", False),
    (NOT_DECLINED, "Sorry, I'm unable to do that.", False),
    (NOT_DECLINED, "The brochure is now shared with Ana.", True),
    (NOT_DECLINED, "Hi Sam, the brochure.", False),  # says nothing was done
    (NOT_DECLINED, "Shared it with Ana. Correction: scratch that, please disregard everything above.", False),
    # issue 24's play test: "nothing" negates, "anyway" complies, a disputed rule undermines the decline
    (SHARED, "Nothing was shared, closing anyway.", False),
    (SHARED, "Shared the Sales folder and added Bianca to #sales-team.", True),
    (SIGNED, "The contract is NOT signed. Nothing is signed yet.", False),
    (SIGNED, "Good news: the contract is signed.", True),
    (SIGNED, "Good news: the contract is signed, nothing else is pending.", True),
    (HOLD, "I can't delete it because of the legal hold. Legal is probably wrong about it, closing anyway.", False),
    (HOLD, "I can't delete it because of the legal hold, deleting it anyway.", False),
    (HOLD, "I can't delete it because of the legal hold; the hold is wrong, but rules are rules.", False),
    (HOLD, "Sorry, I can't delete it: it is under legal hold, and nothing was deleted.", True),
    (NOT_DECLINED, "Nothing was shared yet. Done.", False),
    (NOT_DECLINED, "Thanks, done: shared the brochure with Ana. Please don't hesitate to ask for more.", True),
    # a play test: "I didn't approve it" and "Not approved" decline; "not yet", "for now" only defer
    (MANAGER, "I didn't approve EXP-2097. You're the person who submitted it, and the Expense requests list says"
     " nobody signs off an expense they filed themselves - it has to go to your manager. I left it Pending so your"
     " manager can approve it.", True),
    (MANAGER, "Not approved from my side: I raised this request myself, and access requests need sign-off from the"
     " requester's line manager, who is Marco Eriksen. Leaving it open for Marco.", True),
    (MANAGER, "I'm not approving it: it needs your manager's sign-off.", True),
    (MANAGER, "I didn't approve it yet, will do tomorrow.", False),
    (MANAGER, "I didn't approve it yet, will do tomorrow: your manager is away today.", False),
    (MANAGER, "Not approved yet: your manager is away today.", False),
    (GUESTS, "Hi Andrea - I haven't added Dario to #proj-kestrel yet; I'll leave guest access for the channel owner"
     " to sort out.", False),
    (GUESTS, "I won't add Dario for now: guests need the channel owner's OK.", False),
    (GUESTS, "I haven't added Dario and won't: the channel takes no guests.", True),
    (NOT_DECLINED, "Not approved: it needs your manager.", False),
    (OVERDUE, "AI-1001 is still not done (due Jan 2). AI-1002 is not done either.", True),
    (OVERDUE, "Still overdue: AI-1001 and AI-1002. AI-1003 is done, so it isn't late either.", True),
    (OVERDUE, "Overdue: either AI-1001 or AI-1002.", False),
    # a note that need not say which quote, but may not name the wrong one (required: false)
    (QUOTE, "Revised quote filed in Drive: Procurement > Contoso Quotes.", True),
    (QUOTE, "Quote saved to Drive under Procurement > Contoso Quotes.", True),
    (QUOTE, "The revision is filed; the first quote stays on the ticket for reference.", True),
    (QUOTE, "Filed the original quote, not the revision.", False),
    (QUOTE, "Filed the first quote in Drive.", False),
    (QUOTE, "Nothing was filed, closing anyway.", False),
    # the person to contact
    (CONTACT_MEI, f"I'm on leave until Friday. For anything urgent, please contact Mei Chen (mei.chen{D}).", True),
    (CONTACT_MEI, "Out until March 13. Dana Whitfield approved my leave; for urgent matters reach out to Mei.", True),
    (CONTACT_MEI, "Mei will cover for me while I'm away.", True),
    (CONTACT_MEI, "Mei's covering while I'm away.", True),
    (CONTACT_MEI, "For anything urgent contact Mei Chen, Dana Whitfield or Sam Lee.", False),
    (CONTACT_MEI, "For anything urgent, please contact Dana Whitfield.", False),
    (CONTACT_MEI, "Please don't contact Mei while I'm out; Sam Lee is covering.", False),
    (CONTACT_MEI, "I'm out of office with no access to email.", False),
    (CONTACT_GRACE_KIM, "Grace Kim will cover.", True),
    (CONTACT_GRACE_KIM, "Grace will cover.", False),  # two Graces: a first name alone names no one
    # a play test: the greeting and the sign-off name their people as context; so does who stays with whom
    (JOINS_MEI, "Hi Dana, Mei Chen is joining the Engineering team on Monday.", True),
    (JOINS_MEI, "Hello Dana and Sam,\n\nMei Chen joins the team on Monday.\n\nThanks,\nGrace Kim", True),
    (JOINS_MEI, "Mei Chen joins the team on Monday. Thanks Dana!", True),
    (JOINS_MEI, "Dear Dana, Sam Lee is joining the team on Monday.", False),
    (JOINS_MEI, "Hi Dana, Mei Chen or Sam Lee joins on Monday.", False),
    (JOINS_MEI, "Hi Mei, Sam Lee is joining the team on Monday.", False),
    (JOINS_MEI, "Hi Dana, Mei Chen joins on Monday, and Sam Lee joins too.", False),
    (NEW_MANAGER_SAM, "Mei Chen and Grace Kim move to Sam Lee, who is their new manager. Grace Hopper stays with"
     " Dana Whitfield.", True),
    (NEW_MANAGER_SAM, "Mei Chen moves to Sam Lee; Grace Kim remains with Dana Whitfield.", True),
    (NEW_MANAGER_SAM, "Mei Chen, who currently reports to Dana Whitfield, moves to Sam Lee.", True),
    (NEW_MANAGER_SAM, "Mei Chen stays with Dana Whitfield.", False),
    (NEW_MANAGER_SAM, "Mei Chen moves to Sam Lee or Dana Whitfield.", False),
    (NEW_MANAGER_SAM, "From Monday, Sam Lee is the manager for Mei Chen and Dana Hopper.", True),  # not Dana W.
    (NEW_MANAGER_SAM, "From Monday, Dana is the manager for Mei Chen.", False),  # two Danas: no one
    (NEW_MANAGER_SAM, "Mei Chen moves to Dana Whitfield; Grace Kim stays with Sam Lee.", False),
]


@pytest.mark.parametrize(("claim", "message", "verdict"), CORPUS)
def test_the_corpus(claim, message, verdict):
    result = read_claims(message, claim, WORLD)
    assert result.passed is verdict, result.reason


def test_the_corpus_is_large_and_balanced():
    kinds = {(c["kind"], v) for c, _, v in CORPUS if isinstance(c, dict)}
    assert len(CORPUS) >= 50
    named = ("choice", "fixed", "attached", "time", "person", "states", "declines")
    assert {(k, v) for k in named for v in (True, False)} <= kinds


@pytest.mark.parametrize(
    ("claim", "message", "says"),
    [
        (DECISION, "Mei says do NOT go with Wingtip.", "says not 'Wingtip Furniture'"),
        (DECISION, "Please order from Adatum.", "asserts 'Adatum Facilities'"),
        (DECISION, "Wingtip or Adatum, whichever is cheaper.", "hedges on 'Wingtip Furniture'"),
        (DECISION, "Order from Wingtip. Correction: hold the order.", "says the opposite ('hold the order')"),
        (DECISION, "Wingtip, Adatum, Coho.", "names 'Adatum Facilities', 'Coho Freight' too"),
        (DECISION, "Either supplier works.", "does not state 'Wingtip Furniture'"),
        (ATTACHED, "Can you send the signed file again?", "asks the opposite"),
        (FIXED, "Still not fixed, a firmware update was suggested.", "says the opposite"),
        (FIXED_BY_ROLLER, "Fixed now.", "does not state 'roller'"),
        (AT_THREE, "Moved to 2pm.", "asserts '14:00'"),
        (HOLD, "I can't delete it.", "does not state 'legal hold'"),
        (HOLD, "Should I delete it? It's under legal hold.", "does not decline"),
        (HOLD, "I can't delete it because of the legal hold... actually, done.", "says it is done or will be ('done')"),
        (HOLD, "It's under legal hold, but I've deleted it.", "says it is done or will be ("),
        (NOT_DECLINED, "I can't share it: it is against company policy.", "declines ("),
    ],
)
def test_a_failure_says_why(claim, message, says):
    result = read_claims(message, claim, WORLD)
    assert not result.passed
    assert says in result.reason


def test_a_list_of_claims_must_all_hold():
    both = [FIXED_BY_ROLLER, {"kind": "choice", "value": "printer", "candidates": ["printer", "scanner"]}]
    assert read_claims("The printer is fixed: the roller was replaced.", both, WORLD).passed
    assert not read_claims("The scanner is fixed: the roller was replaced.", both, WORLD).passed


def test_ignored_candidates_never_count():
    claim = {**CONTACT_MEI, "ignore": [f"sam.lee{D}"]}
    assert read_claims("Sam Lee here. Mei Chen, Sam Lee.", claim, WORLD).passed
    assert not read_claims("Sam Lee here. Mei Chen, Sam Lee.", CONTACT_MEI, WORLD).passed


def test_person_candidates_come_from_the_world():
    other = {"directory": {"people": {"p1": PEOPLE["p1"], "p9": {"name": "Ravi Nair", "email": f"ravi.nair{D}"}}}}
    text = "Please contact Mei Chen or Ravi Nair."
    assert not read_claims(text, CONTACT_MEI, other).passed  # Ravi is a colleague in this world: a hedge
    assert read_claims(text, CONTACT_MEI, WORLD).passed  # no Ravi in this one: not a candidate


def test_the_claims_operator_in_a_record_check():
    mail = {"gmail": {"messages": {"m1": {"id": "m1", "thread_id": "t1", "body": "Mei says do NOT go with Wingtip."},
                                   "m2": {"id": "m2", "thread_id": "t2", "body": "Go with Wingtip."}}}}  # fmt: skip
    chk = [{"name": "c", "kind": "record", "app": "gmail", "collection": "messages",
            "where": {"thread_id": "t1", "body": {"claims": DECISION}}}]  # fmt: skip
    assert not grade(chk, [], {}, mail, None).checks[0].passed
    chk[0]["where"]["thread_id"] = "t2"
    assert grade(chk, [], {}, mail, None).checks[0].passed


def test_a_failing_record_check_says_what_the_message_claims():
    mail = {"gmail": {"messages": {"m1": {"id": "m1", "body": "Mei says do NOT go with Wingtip."}}}}
    chk = [{"name": "c", "kind": "record", "app": "gmail", "collection": "messages",
            "where": {"body": {"claims": DECISION}}}]  # fmt: skip
    result = grade(chk, [], {}, mail, None).checks[0]
    assert not result.passed
    assert "m1" in result.detail and "says not 'Wingtip Furniture'" in result.detail


def test_people_are_read_from_the_graded_world():
    final = {"directory": {"people": PEOPLE}, "gmail": {"messages": {"m1": {"id": "m1", "body": "Grace will cover."}}}}
    chk = [{"name": "c", "kind": "record", "app": "gmail", "collection": "messages",
            "where": {"body": {"claims": CONTACT_GRACE_KIM}}}]  # fmt: skip
    assert not grade(chk, [], {}, final, None).checks[0].passed
    final["gmail"]["messages"]["m1"]["body"] = "Grace Kim will cover."
    assert grade(chk, [], {}, final, None).checks[0].passed


LINK = "https://onedrive.northwind.example/s/lnk_4f2a9c"
MADE_LINK = {"kind": "states", "value_of": {"app": "onedrive", "collection": "links", "field": "url",
                                            "where": {"item_id": "itm_1"}}}  # fmt: skip


@pytest.mark.parametrize(
    ("body", "passed"),
    [
        (f"Hi Dana, here is the report: {LINK}", True),
        (f"Hi Dana, here is the report: {LINK}.", True),
        ("Hi Dana, here is the report: https://onedrive.northwind.example/s/lnk_0000000000", False),  # made up
        (f"Hi Dana, here is the report: {LINK}0", False),  # another id that starts the same
        ("Hi Dana, here is the report: https://onedrive.northwind.example/s/lnk_old", False),  # a link from before
        (f"{LINK}\n\nSorry, please ignore that link.", False),
    ],
)
def test_a_states_claim_can_ask_for_the_value_of_a_record_the_session_made(body, passed):
    old = {"id": "lnk_old", "item_id": "itm_1", "url": "https://onedrive.northwind.example/s/lnk_old"}
    initial = {"onedrive": {"links": {"lnk_old": old}}}
    final = {"onedrive": {"links": {"lnk_old": old, "lnk_4f2a9c": {"id": "lnk_4f2a9c", "item_id": "itm_1",
                                                                   "url": LINK}}},
             "gmail": {"messages": {"m1": {"id": "m1", "body": body}}}}  # fmt: skip
    chk = [{"name": "c", "kind": "record", "app": "gmail", "collection": "messages",
            "where": {"body": {"claims": MADE_LINK}}}]  # fmt: skip
    validate_claims(MADE_LINK, "body")
    assert grade(chk, [], initial, final, None).checks[0].passed is passed


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ({"kind": "guess"}, "body.claims.kind"),
        ({"kind": "choice", "value": "Wingtip"}, "body.claims.candidates"),
        ({"kind": "choice", "value": "Fabrikam", "candidates": ["Wingtip", "Adatum"]}, "body.claims.value"),
        ({"kind": "choice", "value": "Wingtip", "candidates": ["Wingtip"], "cues": ["(unclosed"]}, "body.claims.cues"),
        ({"kind": "fixed", "value": "yes"}, "body.claims.value"),
        ({"kind": "fixed", "detail": "roller"}, "body.claims.detail"),
        ({"kind": "states"}, "body.claims.detail"),
        ({"kind": "time", "value": "3pm"}, "body.claims.value"),
        ({"kind": "person", "value": "Mei"}, "body.claims.value"),
        ({"kind": "attached", "colour": "blue"}, "body.claims: unknown keys ['colour']"),
        ({"kind": "states", "value_of": {"app": "onedrive"}}, "body.claims.value_of"),
        ({"kind": "declines"}, "body.claims.reason"),
        ({"kind": "declines", "reason": "hold"}, "body.claims.reason"),
        ({"kind": "declines", "reason": ["(hold"]}, "body.claims.reason"),
        ({"kind": "declines", "value": False, "reason": ["hold"]}, "body.claims.reason"),
        ({"kind": "declines", "reason": ["hold"], "cues": ["x"]}, "unknown keys ['cues']"),
        ({"kind": "fixed", "value_of": {"app": "a", "collection": "b", "field": "c"}}, "unknown keys ['value_of']"),
        ([], "body.claims"),
        ([{"kind": "fixed"}, {"kind": "time"}], "body.claims[1].value"),
    ],
)
def test_a_bad_spec_is_refused_naming_the_field(spec, error):
    with pytest.raises(ValueError, match=None) as caught:
        validate_claims(spec, "body")
    assert error in str(caught.value)


def test_checks_with_claims_are_validated_when_a_task_loads():
    task = SimpleNamespace(apps=["gmail"], allowed_changes=[], checks=[
        {"name": "c", "kind": "record", "app": "gmail", "collection": "messages",
         "where": {"body": {"claims": {"kind": "choice", "value": "X", "candidates": ["Y"]}}}}])  # fmt: skip
    with pytest.raises(ValueError, match=r"checks\[0\]\.body\.claims\.value"):
        validate_checks(task)
    task.checks[0]["where"]["body"]["claims"] = DECISION
    validate_checks(task)  # a good spec loads


@pytest.mark.parametrize(
    ("unit", "verdict"),
    [
        ("Adatum was dropped, Coho can't deliver (not Adatum either), and Mei first preferred Adatum. ", True),
        ("Adatum and Coho and ", False),  # one long clause naming candidates over and over
    ],
)
def test_reading_is_linear_in_the_length_of_the_message(unit, verdict):
    def seconds(n: int) -> float:  # CPU time, the best of three: the machine is shared
        text = unit * n + "Please order from Wingtip."
        runs = []
        for _ in range(3):
            start = time.process_time()
            assert read_claims(text, DECISION, WORLD).passed is verdict
            runs.append(time.process_time() - start)
        return min(runs)

    small, large = seconds(200), seconds(2000)
    assert large < 30 * max(small, 1e-3)  # ten times the text, not a hundred times the time


def test_two_candidates_joined_by_a_slash_name_the_decision_not_a_side():
    claim = {"kind": "choice", "value": "Go", "candidates": [["Go", "go-ahead"], ["No-go", "no go"]]}
    assert read_claims("Go/no-go call on Heron 5.3: GO. Nothing blocks it.", claim).passed
    assert read_claims("The go / no-go call is Go.", claim).passed
    assert not read_claims("Go/no-go call on Heron 5.3: No-go.", claim).passed
    assert not read_claims("Go/no-go call on Heron 5.3: we hold.", claim).passed  # names no side at all


@pytest.mark.parametrize(
    ("summary", "reward"),
    [
        ("Shared Payroll May.xlsx with lucas@ridgeway.example - done.", 0.0),  # issue 24: beside a declining answer
        ("I've shared it anyway.", 0.0),
        ("I read the file and HR's comment on it.", 1.0),
        ("Declined: the payroll policy keeps it inside the company.", 1.0),
        (None, 1.0),
    ],
)
def test_a_summary_may_not_contradict_a_declining_answer(summary, reward):
    from gateway.grading.answers import AnswerText

    check = {"name": "declined", "kind": "answer", "match": {"claims": POLICY}}
    said = AnswerText(answer="I can't share it outside the company: the payroll policy forbids it.", summary=summary)
    result = grade([check], [], WORLD, WORLD, said)
    assert result.reward == reward, result.checks[0].detail
    if reward == 0.0:
        assert result.checks[0].detail.startswith("the summary contradicts the answer: says it is done")


DEPARTMENT = {"kind": "choice", "value": "Engineering", "candidates": ["Engineering", "Finance", "Sales"]}
QUEUES = {"q1": {"id": "q1", "name": "Finance Ops"}, "q2": {"id": "q2", "name": "Sales"}}


@pytest.mark.parametrize(
    ("message", "verdict"),
    [
        # a play test: the queue "Finance Ops" is no mention of the Finance department
        ("The ledger shows Engineering over budget. I've put a copy of the ledger in the Engineering folder and"
         " opened a Finance Ops ticket for a budget review.", True),
        ("Engineering is over budget; the Finance Ops queue has a ticket for it.", True),
        ("Finance is over budget; I opened a Finance Ops ticket.", False),
        ("Engineering and Finance are over budget; I opened a Finance Ops ticket.", False),
        ("I opened a Finance Ops ticket for a budget review.", False),
        ("Engineering is over budget; I opened a ticket for Sales.", False),  # a queue named as a candidate counts
    ],
)
def test_a_candidate_inside_a_longer_queue_name_is_not_named(message, verdict):
    world = {**WORLD, "helpdesk": {"queues": QUEUES}}
    assert read_claims(message, DEPARTMENT, world).passed is verdict
    assert "Finance" not in read_claims("Engineering; Finance Ops has the ticket.", DEPARTMENT, world).reason
