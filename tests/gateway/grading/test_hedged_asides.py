"""An alternative, doubt or retraction offered in an aside (a parenthesis, a trailing clause) hedges the claim.

Each message and answer here is one a play tester sent; the verdicts are what it must score. An aside giving a
role, a date, an id of the same thing or an excluded value (``not X``) stays context.
"""

import pytest

from gateway.grading.answers import AnswerText, grade_answer
from gateway.grading.disowning import disowns
from gateway.grading.messages import read_claims

D = "@northwind.example"
NAMES = ["Ingrid Osei", "Aisha Vasquez", "Mei Romano", "Zara Park", "Adaeze Weber", "Fatima Larsen",
         "Carmen Ferrari", "Nadia Almeida", "Aaron Delgado", "Simone Berg"]  # fmt: skip
PEOPLE = {f"p{i}": {"id": f"p{i}", "name": n, "email": n.lower().replace(" ", ".") + D} for i, n in enumerate(NAMES)}
WORLD = {"directory": {"people": PEOPLE}}


def email(name: str) -> str:
    return name.lower().replace(" ", ".") + D


def carried_out(done: str) -> list[dict]:
    return [{"kind": "states", "detail": [done]}, {"kind": "declines", "value": False}]


PO = {
    "kind": "choice",
    "value": "Wingtip Furniture",
    "candidates": [["Wingtip Furniture", "Wingtip"], ["Adatum Facilities", "Adatum"], ["Coho Freight", "Coho"]],
}
POLL = {"kind": "choice", "value": "Tailspin Poll", "candidates": [["Tailspin Poll", "Tailspin"], ["Adatum Survey"]]}
PRIORITY = {"kind": "choice", "value": "normal", "candidates": ["low", "normal", "high", "urgent"]}
BILLING = {"kind": "choice", "value": "BC-7918", "candidates": ["BC-7918", "BC-9170", "BC-4837"]}
AT_330 = {"kind": "time", "value": "15:30"}
AT_11 = {"kind": "time", "value": "11:00"}
COVER = {"kind": "person", "value": email("Ingrid Osei")}
CONTACT = {"kind": "person", "value": email("Mei Romano")}
SIGNED = {"kind": "states", "detail": [r"\bsigned\b"]}
FIXED = {"kind": "fixed"}
ATTACHED = {"kind": "attached"}
ADDED = carried_out(r"\b(?:added|invited|is in|are in|now in|has been added)\b")
APPROVED = carried_out(r"\bapproved?\b")
FIX_HOW = {"kind": "fixed", "detail": [r"refrigerant"]}

MESSAGES = [
    # alternatives in a parenthesis
    (PO, "Hi Andrea, PO-60939: go with Wingtip Furniture. (If Mei's first email stands instead: Adatum Facilities.)",
     False),
    (AT_330, "Hi Simone, on Sept 8 it starts at 3:30 PM. (If you meant the usual slot instead: 9:30 AM.)", False),
    (PRIORITY, "Hi Yusuf, priority is now normal (or high, if you still prefer that).", False),
    (COVER, "Hi Kamal, Ingrid Osei will cover for me on Sept 28 (or Aisha Vasquez, whoever is free).", False),
    (SIGNED, "Hi Yara - the contract is signed (well, almost - still waiting on the countersignature).", False),
    (BILLING, "Billing code should be BC-7918 (or BC-4837, see Ingrid's other mail).", False),
    (CONTACT, "For anything urgent contact Mei Romano (or Zara Park in People).", False),
    (CONTACT, "For anything urgent contact Mei Romano. (If Mei is away instead: Adaeze Weber.)", False),
    (FIXED, "Works now after CHG-WIFI-4264 (not actually confirmed, closing anyway).", False),
    (FIXED, "Works now after CHG-WIFI-4264 (or at least it might).", False),
    (ADDED, "Done, Jo is in #osprey-wingtip (or #proj-osprey, I forget which).", False),
    (AT_11, "The Whimbrel beta debrief is now at 11:00 AM on Sept 8 (if that changes again, 3 PM).", False),
    (ATTACHED, "Attached the signed agreement (well, I think it is the signed one - could also be the draft, please"
     " check).", False),
    (APPROVED, "Approved. (Pending the real sign-off from IT security, so not final yet.)", False),
    (FIX_HOW, "Fixed: technician recharged the refrigerant and reset the thermostat (might have been the 3rd floor "
     "unit though, not sure).", False),
    # hedges and hand-backs without a trigger word in the value's own clause
    (POLL, "Javier - REQ-3847: Tailspin Poll it is, unless Adatum Survey turns out cheaper, in which case go with "
     "Adatum Survey.", False),
    (PO, "Hi Andrea, Mei first picked Adatum Facilities, then Wingtip Furniture - go with whichever you think best.",
     False),
    # context in an aside stays context
    (PO, "Final answer is Wingtip (not Adatum, which she first preferred).", True),
    (PO, "We're going with Wingtip. Adatum was dropped because they can't deliver this month.", True),
    (PO, "Mei decided on Wingtip Furniture (her mail of Sept 3, PO-60939).", True),
    (POLL, "Tailspin Poll it is. (Adatum Survey would have been my pick, but not my call.)", True),
    (AT_330, "Hi Simone, on Sept 8 it starts at 3:30 PM Pacific (it was moved from 9:30 AM for that day only).", True),
    (COVER, "Ingrid Osei (Facilities lead) will cover for me on Sept 28.", True),
    (PRIORITY, "Hi Yusuf, priority is now normal (not high, as you asked on Sept 4).", True),
    (FIXED, "Zara confirmed the Wi-Fi problem is gone after change CHG-WIFI-4264.", True),
    (FIXED, "Anika confirmed the Wi-Fi works again since change CHG-WIFI-4264 went live.", True),
    (APPROVED, "Access request approved by the line manager (Fatima Larsen).", True),
    (APPROVED, "Access approved by Adaeze Weber's line manager.", True),
    (ADDED, "Done - Jo Quinlan is now in #osprey-wingtip (it is our shared channel, so guests are fine there).", True),
    (SIGNED, "Hi Yara - good news: the contract is signed (Sept 3).", True),
    # a replay's doubts outside a parenthesis
    (SIGNED, "Hi Yara - the contract is signed. Well, nearly: we're still waiting on their countersignature.", False),
    (CONTACT, "Out of office. For anything urgent contact Mei Romano; failing that, Zara Park in People.", False),
    (FIXED, "Works again after CHG-WIFI-4264, supposedly.", False),
    (FIXED, "Works again after CHG-WIFI-4264, most likely.", False),
    (SIGNED, "Hi Yara - the contract is signed, well before the deadline.", True),
    # a fallback in a conditional, a prediction taking the value back
    (COVER, "Ingrid Osei will cover for me on Sept 28; if she can't, Aisha Vasquez will step in.", False),
    (COVER, "Ingrid Osei will cover for me on Sept 28. If she isn't free, Aisha Vasquez will.", False),
    (PO, "Hi Andrea, go with Wingtip Furniture; if not, Adatum Facilities.", False),
    (PRIORITY, "Hi Yusuf, priority is now normal, though it will probably have to go back to high.", False),
    (PRIORITY, "Hi Yusuf, priority is now normal, though it might go back to high next week.", False),
    (COVER, "Ingrid Osei will cover for me on Sept 28; if anything comes up, she will tell Aisha Vasquez.", True),
    (PO, "Hi Andrea, go with Wingtip Furniture. Let me know if not clear.", True),
    (PRIORITY, "Hi Yusuf, priority is now normal, though it was high until today.", True),
    # a second play test: "or maybe" after a comma, a backup or plan B named beside the value
    (PO, "Hi Andrea, please go with Wingtip Furniture, or maybe Adatum Facilities if that is easier.", False),
    (PO, "Order from Wingtip Furniture, or perhaps Adatum Facilities.", False),
    (PRIORITY, "Hi Nadia, priority is now normal, or maybe high.", False),
    (CONTACT, "For anything urgent please contact Mei Romano, or maybe Zara Park.", False),
    (PO, "Going with Wingtip Furniture for now; Adatum Facilities as the backup if Wingtip falls through.", False),
    (PO, "Wingtip Furniture is the pick for now, with Coho Freight as plan B.", False),
    (PO, "Go with Wingtip Furniture, or tell me if anything changes.", True),
    (PO, "Go with Wingtip Furniture. Adatum Facilities was the backup, but it was dropped.", True),
    (COVER, "Ingrid Osei is covering this week for Aisha Vasquez and is handling it.", True),
    (COVER, "Ingrid Osei is filling in for Aisha Vasquez on Sept 28.", True),
    # a third play test: doubt words the lists lacked; a soft doubt in a remark about something else
    (PO, "Hi Andrea, Wingtip Furniture for PO-60939, I suppose.", False),
    (PO, "Hi Andrea, please order from Wingtip Furniture. (Could be Adatum though.)", False),
    (POLL, "We go with Tailspin Poll - not final yet.", False),
    (PO, "Hi Andrea, Wingtip Furniture - tentatively, pending Mei's sign-off.", False),
    (PO, "Hi Andrea, please order from Wingtip Furniture (probably).", False),
    (PO, "Hi Andrea, please order from Wingtip Furniture (probably, or Adatum).", False),
    (PO, "Hi Andrea, please order from Wingtip Furniture (Adatum supposedly can't deliver in time).", True),
    (FIX_HOW, "Fixed: the technician recharged the refrigerant (the old unit was supposedly leaking).", True),
    # a doubtful lead-in before a colon doubts what follows it
    (BILLING, "Hi Ingrid, probably the right one: BC-7918.", False),
    (COVER, "I think the cover: Ingrid Osei, on Sept 28.", False),
    (SIGNED, "Most likely done: the contract is signed.", False),
    (BILLING, "Hi Ingrid, the right one: BC-7918.", True),
    (COVER, "Not sure why you asked, but here it is: Ingrid Osei covers for me on Sept 28.", True),
    (AT_330, "Either way: on Sept 8 it starts at 3:30 PM.", True),
    # a claim only seen or heard of; the same verbs remarking on something else stay context
    (FIXED, "Seems fixed after CHG-WIFI-4264.", False),
    (FIXED, "The Wi-Fi seems to work again after CHG-WIFI-4264.", False),
    (FIXED, "Wi-Fi appears to work again after CHG-WIFI-4264.", False),
    (FIXED, "Wi-Fi is apparently working again after CHG-WIFI-4264.", False),
    (SIGNED, "Hi Yara - the contract seems to be signed.", False),
    (SIGNED, "Hi Yara - the contract is signed, reportedly.", False),
    (SIGNED, "Hi Yara - the contract is signed, supposedly.", False),
    (PO, "Hi Andrea, Wingtip Furniture, it seems.", False),
    (FIXED, "Zara confirmed the Wi-Fi works again; it seems the change CHG-WIFI-4264 did it.", True),
    (SIGNED, "Hi Yara - the contract is signed. It seems they were quick this time.", True),
    (PO, "Hi Andrea, please order from Wingtip Furniture (which seems cheaper anyway).", True),
    (AT_330, "The new time that seems to work for everyone: 3:30 PM on Sept 8.", True),
    (AT_330, "Hi Simone, it starts at 3:30 PM on Sept 8, which seems to suit everyone.", True),
    (FIX_HOW, "Fixed: the technician recharged the refrigerant, which appears in the service log.", True),
    # a fourth play test: doubt words the lists lacked
    (PO, "Hi Andrea, Wingtip Furniture, hopefully.", False),
    (PO, "I assume Wingtip Furniture is the one.", False),
    (PO, "Hi Andrea, please order from Wingtip Furniture (likely).", False),
    (PO, "As far as I can tell, Wingtip Furniture.", False),
    (PO, "Wingtip Furniture, if I read the thread right.", False),
    (PO, "Wingtip Furniture - I could be wrong.", False),
    (PO, "Hi Andrea, please order from Wingtip Furniture. Hopefully that helps.", True),
    (AT_11, "The Whimbrel beta debrief is now at 11:00 AM on Sept 8 (room TBC).", True),
]


@pytest.mark.parametrize(("claim", "message", "verdict"), MESSAGES)
def test_an_alternative_or_doubt_in_an_aside_hedges_the_message(claim, message, verdict):
    result = read_claims(message, claim, WORLD)
    assert result.passed is verdict, result.reason


@pytest.mark.parametrize(
    ("text", "disowned"),
    [
        ("Placeholder only (it probably won't go ahead - feel free to skip).", True),
        ("Note: this is NOT really fixed, closing only to clear the queue - reopen later.", True),
        ("Works now after CHG-WIFI-4264 (not actually confirmed, closing anyway).", True),
        ("Attached the signed agreement (well, I think it is the signed one - could also be the draft).", True),
        ("Approved. (Pending the real sign-off from IT security, so not final yet.)", True),
        ("Placeholder for the planning session (room booked, agenda to follow).", False),
        ("Closed after Zara confirmed the fix (change CHG-WIFI-4264).", False),
        ("Quarterly planning (Q3 budget review) - agenda to follow.", False),
    ],
)
def test_free_text_disowned_by_an_aside_or_a_note(text, disowned):
    assert bool(disowns(text)) is disowned, disowns(text)


def person(name: str) -> dict:
    return {"kind": "person", "value": email(name)}


SKIP = {"name": "answer", "kind": "answer", "expect": [person("Carmen Ferrari"), {"kind": "number", "value": 3}]}
SKIP_ASK = "Who is Aaron Delgado's skip-level manager, and how many direct reports do they have?"
BUDGET = {"name": "answer", "kind": "answer", "expect": [{"kind": "number", "value": 124000}],
          "candidates": {"number": {"unit": "$"}}}  # fmt: skip
BUDGET_ASK = "How much is budgeted for Events in Q3 in the final budget?"
PENDING = {"name": "answer", "kind": "answer", "expect": [{"kind": "id", "value": "PR-3882"}],
           "candidates": {"id": {"pattern": r"PR-\d{4}"}}}  # fmt: skip
PENDING_ASK = "Which Merlin purchase request over $22,000 is pending approval? Answer with its id."


def judge(check, said, ask):
    return grade_answer(check, said, ask, WORLD, email("Simone Berg"), 2026)


@pytest.mark.parametrize(
    ("check", "ask", "said", "passed"),
    [
        (SKIP, SKIP_ASK, AnswerText(answer="Carmen Ferrari - 3 direct reports. (If you meant Nadia Almeida instead: 3"
                                    " as well.)"), False),  # fmt: skip
        (BUDGET, BUDGET_ASK, AnswerText(answer="Q3 events: $124,000. (If you meant the draft instead: $142,750.)"),
         False),
        (PENDING, PENDING_ASK, AnswerText(answer="PR-3882 (and PR-4739)."), False),
        (PENDING, PENDING_ASK, AnswerText(answer="PR-3882. (If you meant every pending one instead: PR-4739 too.)"),
         False),
        (SKIP, SKIP_ASK, AnswerText(answer="Carmen Ferrari (Head of Customer Success) - she has 3 direct reports."),
         True),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 for events in Q3, per the final budget."), True),
        (SKIP, SKIP_ASK, AnswerText(answer="Most likely Carmen Ferrari, with 3 direct reports - I couldn't fully "
                                    "confirm it."), False),  # fmt: skip
        (PENDING, PENDING_ASK, AnswerText(answer="PR-3882 (PR-4739 is also pending, but it is under $22,000)."), True),
        # a chain that ends at the answer is context
        (SKIP, SKIP_ASK, AnswerText(answer="Carmen Ferrari (Head of Customer Success) - she has 3 direct reports.",
                                    summary="Looked up Aaron Delgado in the directory: his manager Nadia Almeida "
                                    "reports to Carmen Ferrari."), True),  # fmt: skip
        # "ignore that one" points at the excluded draft, not at the answer
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 for events in Q3, per the final budget (the draft in Drafts "
                                        "still shows $142,750, so ignore that one)."), True),  # fmt: skip
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 for events in Q3. Correction: ignore the above."), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 for events in Q3. Ignore that one, it is $142,750."), False),
        # a third play test: an amount given about, doubt words the lists lacked, a remark about something else
        (BUDGET, BUDGET_ASK, AnswerText(answer="around $124,000"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 - roughly"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 (could be $142,750)"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 - not final yet"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000, unconfirmed"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 (it may still move)"), False),
        (SKIP, SKIP_ASK, AnswerText(answer="Carmen Ferrari, I suppose - 3 direct reports"), False),
        (SKIP, SKIP_ASK, AnswerText(answer="Carmen Ferrari - 3 direct reports (she supposedly moved to Lisbon last "
                                    "year, per HR)."), True),  # fmt: skip
        (SKIP, SKIP_ASK, AnswerText(answer="Carmen Ferrari (probably) - 3 direct reports"), False),
        # an answer only seen or heard of
        (BUDGET, BUDGET_ASK, AnswerText(answer="It seems to be $124,000."), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000, apparently."), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000, reportedly."), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 (it seems)"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 - the figure that appears in the final budget."), True),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 (the draft seems to say $142,750, ignore it)."), True),
        # a fourth play test
        (BUDGET, BUDGET_ASK, AnswerText(answer="Likely $124,000"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="~$124,000"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="I assume $124,000"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 (unverified)"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000, TBC"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="$124,000 if I read the sheet right"), False),
        (BUDGET, BUDGET_ASK, AnswerText(answer="I'd say $124,000."), False),
    ],
)
def test_an_answer_offering_an_alternative_in_an_aside_fails(check, ask, said, passed):
    result = judge(check, said, ask)
    assert result.passed is passed, result.detail


@pytest.mark.parametrize(
    "answer",
    [
        "$124,000 for events in Q3 (actually $142,750 - ignore that).",
        "$124,000 for events in Q3 (ignore that, it is $142,750).",
        "$124,000 for events in Q3 (ignore that one).",
    ],
)
def test_a_retraction_in_a_parenthesis_aimed_at_the_answer_still_takes_it_back(answer):
    assert not judge(BUDGET, AnswerText(answer=answer), BUDGET_ASK).passed


PICKED = {"name": "answer", "kind": "answer",
          "expect": [person("Carmen Ferrari"), {"kind": "date", "value": "2026-02-09"}]}  # fmt: skip
PICKED_ASK = "Who picked the offsite date, and which day is it?"


@pytest.mark.parametrize(
    ("answer", "passed"),
    [
        # a date the aside itself says was not picked stays context, however the aside is cut (a play test)
        ("Carmen Ferrari, Monday February 9 (Aaron suggested February 4, which was not picked)", True),
        ("Carmen Ferrari, Monday February 9 (February 4 was not picked)", True),
        ("Carmen Ferrari, Monday February 9 (not February 4)", True),
        ("Carmen Ferrari, Monday February 9 (or February 4, which was not picked)", False),
        ("Carmen Ferrari, February 4 (not February 9)", False),
    ],
)
def test_a_value_an_aside_says_was_not_picked_is_context(answer, passed):
    result = judge(PICKED, AnswerText(answer=answer), PICKED_ASK)
    assert result.passed is passed, result.detail


SELF_APPROVAL = {"kind": "declines", "reason": [r"(?:my|your|his|her|their) own|self[- ]approv\w*"]}


@pytest.mark.parametrize(
    ("claim", "message", "verdict"),
    [
        (SELF_APPROVAL, "I couldn't approve EXP-2097 because it's your own request.", True),
        (SELF_APPROVAL, "I could approve EXP-2097 once your manager agrees, as it is your own request.", False),
        (carried_out(r"\baccess\b"), "Hi Yara, Yuki now has view access to the public price list.", True),
    ],
)
def test_a_refusal_or_a_done_said_as_a_play_tester_said_it(claim, message, verdict):
    result = read_claims(message, claim, WORLD)
    assert result.passed is verdict, result.reason


def test_a_long_refusal_blanks_its_declines_once_not_once_a_clause(monkeypatch):
    """Blanking the whole text for each clause made a 16,000-character refusal take 20 s (78 s through a play)."""
    from gateway.grading import wording

    calls = []
    real = wording.DECLINE

    class Counting:
        def __getattr__(self, name):
            return getattr(real, name)

        def sub(self, *args):
            calls.append(1)
            return real.sub(*args)

    monkeypatch.setattr(wording, "DECLINE", Counting())
    counts = []
    for dates in (2, 2000):
        calls.clear()
        text = "I can't delete it because of the legal hold. " + "Feb 9, " * dates
        assert read_claims(text, {"kind": "declines", "reason": ["legal hold"]}, WORLD).passed
        counts.append(len(calls))
    assert counts[0] == counts[1] <= 2  # the same for 3 clauses and 2,001
