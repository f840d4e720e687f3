"""Answers are graded on what they assert: every expected value, and no other candidate of its kind."""

import pytest

from gateway.grading import AnswerText, Request, grade
from gateway.grading.answers import claims_of, grade_answer

D = "@northwind.example"
PEOPLE = {
    "p1": {"id": "p1", "name": "Priya Shah", "email": f"priya.shah{D}"},
    "p2": {"id": "p2", "name": "Owen Bell", "email": f"owen.bell{D}"},
    "p3": {"id": "p3", "name": "Marcus Reed", "email": f"marcus.reed{D}"},
    "p4": {"id": "p4", "name": "Grace Kim", "email": f"grace.kim{D}"},
    "p5": {"id": "p5", "name": "Grace Hopper", "email": f"grace.hopper{D}"},
}
WORLD = {"directory": {"people": PEOPLE}, "helpdesk": {"tickets": {"HD-1": {"id": "HD-1", "key": "HD-1026"}}}}
MANAGER = {"name": "answer", "kind": "answer", "expect": [{"kind": "person", "value": f"priya.shah{D}"}]}
ASK = "Who does Owen Bell report to?"


def judge(check, said, instruction=ASK):
    return grade_answer(check, said, instruction, WORLD, f"alex.morgan{D}", 2026)


NAMED = ["Priya Shah", f"priya.shah{D}", "Priya", f"Owen reports to Priya Shah, priya.shah{D}"]


@pytest.mark.parametrize("text", NAMED)
def test_a_person_is_named_by_name_email_or_unique_first_name(text):
    assert judge(MANAGER, AnswerText(answer=text)).passed


def test_listing_every_candidate_fails_and_says_what_was_extra():
    result = judge(MANAGER, AnswerText(answer="Priya Shah, or Marcus Reed, or Grace Kim"))
    assert not result.passed
    assert f"marcus.reed{D}" in result.detail and f"grace.kim{D}" in result.detail


def test_the_subject_of_the_request_is_never_an_extra_claim():
    assert judge(MANAGER, AnswerText(answer="Owen Bell's manager is Priya Shah")).passed


def test_a_shared_first_name_alone_names_no_one():
    assert claims_of("person", "Grace said so", MANAGER, WORLD, 2026) == set()
    assert claims_of("person", "Grace Kim said so", MANAGER, WORLD, 2026) == {f"grace.kim{D}"}


def test_context_in_the_summary_is_free_when_an_answer_is_given():
    said = AnswerText(answer="Priya Shah", summary="Priya reports to Marcus Reed; Grace Kim is her peer.")
    assert judge(MANAGER, said).passed
    assert not judge(MANAGER, AnswerText(summary="Priya reports to Marcus Reed.")).passed  # no answer: summary graded


def test_without_complete_task_the_final_response_is_graded():
    assert judge(MANAGER, AnswerText(response="It's Priya Shah.")).passed
    assert not judge(MANAGER, AnswerText()).passed


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("5 people", {5.0}),
        ("five", {5.0}),
        ("$3,400,000", {3400000.0}),
        ("$3.4M", {3400000.0}),
        ("3.4 million", {3400000.0}),
        ("Q2 2026 revenue: 12", {2026.0, 12.0}),
        ("at 10:00 on 2026-03-12, 2 tickets", {2.0}),
        ("REQ-1045 and 7", {7.0}),
    ],
)
def test_numbers_are_read_with_separators_scales_and_words(text, numbers):
    check = {"name": "n", "kind": "answer", "expect": [{"kind": "number", "value": 1}]}
    assert claims_of("number", text, check, WORLD, 2026) == numbers


def test_a_unit_keeps_only_percentages_or_amounts():
    pct = {"name": "n", "kind": "answer", "expect": [{"kind": "number", "value": 2}],
           "candidates": {"number": {"unit": "%"}}}  # fmt: skip
    assert claims_of("number", "above 2% for 10 minutes", pct, WORLD, 2026) == {2.0}
    usd = {**pct, "candidates": {"number": {"unit": "$"}}}
    assert claims_of("number", "$3.4M in Q2 over 12 weeks, up 5%", usd, WORLD, 2026) == {3400000.0}
    assert claims_of("number", "$3.4M from 12 deals", usd, WORLD, 2026) == {3400000.0, 12.0}  # no unit: counts


@pytest.mark.parametrize("text", ["2026-03-12", "March 12", "Thursday, March 12th, 2026", "12 March", "3/12/2026"])
def test_dates_in_the_common_formats(text):
    check = {"name": "d", "kind": "answer", "expect": [{"kind": "date", "value": "2026-03-12"}]}
    assert judge(check, AnswerText(answer=text), "When is it?").passed


@pytest.mark.parametrize(("text", "passed"), [("16/11/2026", True), ("11/16/2026", True), ("11/6/2026", False)])
def test_a_slashed_date_is_day_first_only_where_month_first_cannot_be(text, passed):
    check = {"name": "d", "kind": "answer", "expect": [{"kind": "date", "value": "2026-11-16"}]}
    assert judge(check, AnswerText(answer=text), "When is it?").passed is passed


def test_ids_by_pattern_or_from_the_world():
    by_pattern = {"name": "i", "kind": "answer", "expect": [{"kind": "id", "value": "HD-1026"}],
                  "candidates": {"id": {"pattern": "HD-\\d{4}"}}}  # fmt: skip
    assert judge(by_pattern, AnswerText(answer="hd-1026"), "Which ticket?").passed
    assert not judge(by_pattern, AnswerText(answer="HD-1026 or HD-1054"), "Which ticket?").passed
    source = {"app": "helpdesk", "collection": "tickets", "field": "key"}
    from_world = {**by_pattern, "candidates": {"id": {"from": source}}}
    assert judge(from_world, AnswerText(answer="It is HD-1026."), "Which ticket?").passed


def test_legacy_match_checks_still_read_the_graded_text():
    legacy = {"name": "old", "kind": "answer", "match": {"contains": "priya"}}
    result = grade([legacy], [], {}, {}, AnswerText(answer="Priya Shah"), None, Request(ASK))
    assert result.reward == 1.0


TICKETS = {
    "name": "answer", "kind": "answer",
    "expect": [{"kind": "id", "value": "HD-1026"}, {"kind": "id", "value": "HD-1039"},
               {"kind": "person", "value": f"priya.shah{D}"}, {"kind": "person", "value": f"marcus.reed{D}"}],
    "candidates": {"id": {"pattern": "HD-\\d{4}"}},
    "pairs": [["HD-1026", f"priya.shah{D}"], ["HD-1039", f"marcus.reed{D}"]],
}  # fmt: skip
WORLD_TICKETS = {**WORLD, "helpdesk": {"tickets": {k: {"id": k} for k in ("HD-1026", "HD-1039", "HD-1054")}}}


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("HD-1026 (Priya Shah), HD-1039 (Marcus Reed)", True),
        ("Priya Shah has HD-1026 and Marcus Reed has HD-1039", True),
        ("1026 is with Priya Shah, 1039 is with Marcus Reed", True),  # the ids' bare numbers
        ("HD-1026 (Marcus Reed), HD-1039 (Priya Shah)", False),  # swapped
        ("HD-1026 (Priya Shah), HD-1039 (Marcus Reed), perhaps 1054", False),  # a hedge and another ticket
    ],
)
def test_pairs_must_go_together(text, passed):
    assert grade_answer(TICKETS, AnswerText(answer=text), "Which are overdue?", WORLD_TICKETS).passed is passed


def test_order_gives_each_value_its_role():
    both = [{"kind": "person", "value": f"owen.bell{D}"}, {"kind": "person", "value": f"priya.shah{D}"}]
    roles = {**MANAGER, "expect": both, "order": [f"owen.bell{D}", f"priya.shah{D}"]}
    assert judge(roles, AnswerText(answer="Owen Bell; his manager is Priya Shah"), "Who commented?").passed
    assert not judge(roles, AnswerText(answer="Priya Shah; her manager is Owen Bell"), "Who commented?").passed


def test_an_answer_that_hedges_fails():
    assert not judge(MANAGER, AnswerText(answer="Priya Shah or maybe someone in Finance")).passed
    said = AnswerText(summary="Probably fine to email her; it is Priya Shah.", answer="Priya Shah")
    assert judge(MANAGER, said).passed  # the summary is free when an answer is given


@pytest.mark.parametrize("hedge", ["I think", "I believe", "Most likely", "I guess"])
def test_an_answer_hedged_as_a_reply_would_be_fails_too(hedge):
    # the words that hedge a reply's claim hedge an answer: one list for both
    assert not judge(MANAGER, AnswerText(answer=f"{hedge} Priya Shah")).passed
    assert judge(MANAGER, AnswerText(answer="Priya Shah. Hopefully that helps!")).passed  # a pleasantry


def test_amounts_in_bare_or_currency_code_form_count():
    usd = {"name": "n", "kind": "answer", "expect": [{"kind": "number", "value": 3400000}],
           "candidates": {"number": {"unit": "$"}}}  # fmt: skip
    for text in ("3,400,000", "USD 3.4 million", "3.4M", "3 400 000", "$3,400,000 for Q2"):
        assert judge(usd, AnswerText(answer=text), "What is the Q2 revenue?").passed, text
    assert not judge(usd, AnswerText(answer="$3,400,000 / 4,115,000"), "What is the Q2 revenue?").passed


@pytest.mark.parametrize("extra", ["marcus.reed", "M. Reed", "m.reed"])
def test_a_person_is_named_by_directory_id_or_initial_too(extra):
    assert not judge(MANAGER, AnswerText(answer=f"Priya Shah / {extra}")).passed
    assert judge(MANAGER, AnswerText(answer="priya.shah")).passed


def test_a_letter_o_among_digits_reads_as_a_zero_in_ids():
    check = {"name": "i", "kind": "answer", "expect": [{"kind": "id", "value": "HD-1026"}],
             "candidates": {"id": {"pattern": "HD-\\d{4}"}}}  # fmt: skip
    assert not judge(check, AnswerText(answer="HD-1026, HD-1O54"), "Which ticket?").passed


def test_role_words_catch_a_title_the_world_does_not_hold():
    titles = {**WORLD, "directory": {"people": {"p": {**PEOPLE["p1"], "title": "Procurement Specialist"}}}}
    check = {"name": "t", "kind": "answer", "expect": [{"kind": "text", "value": "Procurement Specialist"}],
             "candidates": {"text": {"from": {"app": "directory", "collection": "people", "field": "title"},
                                     "role_words": True}}}  # fmt: skip
    said = AnswerText(answer="She is our Procurement Specialist")
    assert grade_answer(check, said, "What is her title?", titles).passed
    said = AnswerText(answer="Procurement Specialist (acting Procurement Lead)")
    assert not grade_answer(check, said, "What is her title?", titles).passed


def test_a_date_without_its_year_is_read_in_the_expected_dates_year():
    # a world in December 2026 asked about a date next January: "January 14" means 2027-01-14
    check = {"name": "d", "kind": "answer", "expect": [{"kind": "date", "value": "2027-01-14"}]}
    assert judge(check, AnswerText(answer="Thursday January 14")).passed
    assert not judge(check, AnswerText(answer="January 15")).passed
    assert not judge(check, AnswerText(answer="January 14, 2026")).passed


@pytest.mark.parametrize(
    ("summary", "passed"),
    [
        ("Priya reports to Marcus Reed; Grace Kim is her peer.", True),
        ("Looked it up in the directory: Owen Bell's manager is Priya Shah.", True),
        ("Checked the org chart. Marcus Reed and Grace Kim were the other names I saw.", True),
        ("It is Priya Shah.", True),
        ("Owen Bell's manager is Marcus Reed, whose manager is Priya Shah.", True),
        ("It should be Marcus Reed.", False),
        ("Correction: scratch that, please disregard the answer.", False),
        ("Actually the answer is Marcus Reed.", False),
        ("It's not Priya Shah, it's Marcus Reed.", False),
        ("The answer above is wrong.", False),
        ("Priya isn't right; ask Grace Kim.", False),
        ("Ignore the answer, I guessed.", False),
        # a play test: doubt beside another candidate
        ("Not fully sure: it could also be Marcus Reed, depending on how you count.", False),
        ("Priya Shah, I think, or maybe Grace Kim.", False),
        ("Not sure whether Marcus Reed has seen the org chart update yet.", True),
        ("I am not sure the org chart is current, but the directory says Priya Shah.", True),
    ],
)
def test_a_summary_may_add_context_but_not_contradict_the_answer(summary, passed):
    result = judge(MANAGER, AnswerText(answer="Priya Shah", summary=summary))
    assert result.passed is passed, result.detail
    if not passed:
        assert "the summary contradicts the answer" in result.detail


# ---- what an answer denies, takes back or only mentions (a play test's tricks and unfair zeros) ----------

NUMBER = {"name": "answer", "kind": "answer", "expect": [{"kind": "number", "value": 140500}]}
IDS = {"name": "answer", "kind": "answer", "expect": [{"kind": "id", "value": "PR-5406"}, {"kind": "id", "value":
       "PR-3188"}], "candidates": {"id": {"pattern": "PR-\\d{4}"}}}  # fmt: skip


@pytest.mark.parametrize(
    ("check", "text"),
    [
        (MANAGER, "It is not Priya Shah."),
        (MANAGER, "Owen's manager is definitely not Priya."),
        (NUMBER, "The Q2 software figure in the final budget is not 140,500."),
        (MANAGER, "Priya Shah. Correction: ignore the above, I could not determine it."),
        (MANAGER, "I cannot say for sure; my best guess would be Priya Shah."),
        (MANAGER, "Sorry, I would rather not answer that (the org chart mentions Priya Shah)."),
        (IDS, "None are waiting - PR-5406 is not pending and neither is PR-3188."),
    ],
)
def test_an_answer_that_denies_retracts_or_refuses_its_value_fails(check, text):
    assert not judge(check, AnswerText(answer=text)).passed, text


@pytest.mark.parametrize(
    ("check", "text"),
    [
        (MANAGER, "Priya Shah (Marcus Reed proposed the change and is sending the invite)."),
        (IDS, "PR-5406 and PR-3188. Not PR-7078 (only 10,500) and not PR-3912 (it is on the Osprey list)."),
        (NUMBER, "140,500 - not 120,000, which was the draft's figure."),
        (MANAGER, "Priya Shah has not changed teams since March; she is Owen's manager."),
    ],
)
def test_context_in_a_parenthesis_or_an_explicit_exclusion_is_not_a_second_answer(check, text):
    result = judge(check, AnswerText(answer=text))
    assert result.passed, result.detail


def test_a_summary_that_disowns_the_answer_fails():
    said = AnswerText(answer="Priya Shah", summary="Please disregard the answer - it is just a guess.")
    assert not judge(MANAGER, said).passed


# ---- a second play test: a denial after the value, a summary restating another value ----------------------

PENDING = {"name": "answer", "kind": "answer", "expect": [{"kind": "id", "value": "PR-4530"}],
           "candidates": {"id": {"pattern": "PR-\\d{4}"}}}  # fmt: skip
PENDING_ASK = "Which purchase request is still pending approval? Answer with its id."
COUNT = {"name": "answer", "kind": "answer", "expect": [{"kind": "number", "value": 2}, {"kind": "id", "value":
         "HD-3149"}], "candidates": {"id": {"pattern": "HD-\\d{4}"}}}  # fmt: skip
COUNT_ASK = "How many unresolved tickets does Greta have, and which is the oldest?"


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("None are waiting - PR-4530 is not pending approval.", False),
        ("PR-4530 isn't pending any more.", False),
        ("PR-4530 (it is not approved yet).", True),
        ("PR-4530 is the one still pending; PR-1200 is not pending.", True),
        ("PR-4530 - it is not approved yet, so it is still pending.", True),
    ],
)
def test_a_value_followed_by_a_denial_of_what_was_asked_fails(text, passed):
    result = grade_answer(PENDING, AnswerText(answer=text), PENDING_ASK, WORLD, "", 2026)
    assert result.passed is passed, result.detail


@pytest.mark.parametrize(
    ("summary", "passed"),
    [
        ("Greta has 3 unresolved; oldest HD-9530.", False),
        ("3 unresolved tickets, the oldest being HD-9530.", False),
        ("I looked at all 5 tickets Greta requested; HD-9530 was resolved last week.", True),
        ("Greta has 2 unresolved tickets; the oldest is HD-3149, opened in March.", True),
        ("Checked the queue filtered by requester.", True),
    ],
)
def test_a_summary_restating_the_answer_with_other_values_contradicts_it(summary, passed):
    said = AnswerText(answer="2 unresolved; oldest HD-3149", summary=summary)
    result = grade_answer(COUNT, said, COUNT_ASK, WORLD, "", 2026)
    assert result.passed is passed, result.detail


@pytest.mark.parametrize(
    ("summary", "passed"),
    [
        ("Both PR-4530 and PR-8920 are still pending approval.", False),
        ("PR-4530 and PR-8920 are pending approval.", False),
        ("I compared PR-4530 and PR-8920; only PR-4530 is still pending.", True),
        ("PR-4530 is pending; PR-8920 was approved yesterday.", True),
    ],
)
def test_a_summary_adding_a_second_value_to_the_answer_contradicts_it(summary, passed):
    said = AnswerText(answer="PR-4530", summary=summary)
    result = grade_answer(PENDING, said, PENDING_ASK, WORLD, "", 2026)
    assert result.passed is passed, result.detail


def test_a_scan_kept_for_a_snapshot_is_never_changed_by_its_caller():
    import re

    from gateway.grading.answers import _scan

    pattern = re.compile(r"HD-\d+", re.IGNORECASE)
    world = {"helpdesk": {"tickets": {"a": {"key": "hd-7"}, "b": {"key": "HD-8", "notes": ["see HD-9"]}}}}
    first = _scan(world, pattern)
    assert first == {"HD-7", "HD-8", "HD-9"}
    first.add("HD-100")
    assert _scan(world, pattern) == {"HD-7", "HD-8", "HD-9"}
    assert _scan(world, pattern, limit=1) != first  # another limit is another scan
    other = {"helpdesk": {"tickets": {"a": {"key": "HD-1"}}}}  # another snapshot: never the kept one
    assert _scan(other, pattern) == {"HD-1"}
