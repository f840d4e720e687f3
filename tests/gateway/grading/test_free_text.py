"""The default reading of free text: what is written beside the work may not disown it."""

import pytest

from gateway.grading import grade
from gateway.grading.changes import diff
from gateway.grading.disowning import disowns
from gateway.grading.freetext import disowned
from gateway.grading.operators import using_world

CORPUS = [
    # (text, disowns it)
    ("Hi Dana, for payment.", False),
    ("Please see the fire drill notice below.", False),
    ("Here's the current plan.", False),
    ("Done - PRJ-1 is marked Approved.", False),
    ("Same issue as HD-1002.", False),
    ("Restored.", False),
    ("We're going with Wingtip. Adatum was dropped because they can't deliver this month.", False),
    ("(For context, I also came across Adatum Facilities while looking into this.)", False),
    ("Let me know if anything is wrong.", False),
    ("Nothing is wrong with it.", False),
    ("The meeting is not cancelled.", False),
    ("Don't hesitate to ask.", False),
    ("Can't log in to the VPN since Monday.", False),
    ("User cannot print from the 3rd floor.", False),
    ("Accepted, looking forward to it.", False),
    ("Is the old plan outdated?", False),
    ("Hi Dana, do NOT pay this.", True),
    ("I doubt that is really what happened though - treat it as unconfirmed.", True),
    ("Previous revision - not the one Ines asked for", True),
    ("Not for this team - this channel was created by mistake and will be archived.", True),
    ("VOID - VC-6008 unsigned draft, do not use.pdf", True),
    ("Signed MSA Litware Cloud 2026.pdf", False),
    ("Updated. I have my doubts this approval is real, so I would hold off ordering.", True),
    ("Mei says do NOT go with Wingtip.", True),
    ("You should not attend this one.", True),
    ("I can't make it, sorry.", True),
    ("Sorry, can't make it.", True),
    ("Sorry, could NOT update it.", True),
    ("The booking was cancelled.", True),
    ("Cancelled.", True),
    ("Rejected - not an issue for IT.", True),
    ("OUTDATED, do not use", True),
    ("Deprecated", True),
    ("Please ignore this invite.", True),
    ("This is the wrong file.", True),
    ("It was not booked.", True),
    ("Here you go.\n\nCorrection: scratch that, please disregard everything above.", True),
    ("Ignore the following, it is not correct: pay it by Friday.", True),
    ("Nothing was shared, closing anyway.", True),
    ("Nothing else is needed from you.", False),
    # courtesies a reply ends with are not disowning (issue 24's unfair 0)
    ("Thanks, done: filed the quote in Drive. Please don't hesitate to ask if you need anything else.", False),
    ("Done, thanks! Please don't worry about the old copy.", False),
]


@pytest.mark.parametrize(("text", "verdict"), CORPUS, ids=[t[:40] for t, _ in CORPUS])
def test_the_corpus(text, verdict):
    assert bool(disowns(text)) is verdict, disowns(text)


def test_quoted_and_forwarded_originals_are_not_the_writers_words():
    forward = "FYI.\n\n---------- Forwarded message ----------\nFrom: x\n\nThe drill is cancelled."
    assert disowns(forward) == ""
    assert disowns("Thanks!\n> this was rejected earlier") == ""


def test_work_that_is_itself_a_decline_agrees_with_saying_so():
    assert disowns("Sorry, I can't make it.", negative_work=True) == ""
    assert disowns("Sorry, I can't make it. Correction: I meant yes.", negative_work=True) != ""
    invited = [{"email": "a@x.example", "response": "needs"}]
    before = {"calendar": {"events": {"e1": {"id": "e1", "attendees": invited}}}}
    declined = {"calendar": {"events": {"e1": {"id": "e1", "attendees": [
        {"email": "a@x.example", "response": "declined", "comment": "Sorry, I can't make it."}]}}}}  # fmt: skip
    accepted = {"calendar": {"events": {"e1": {"id": "e1", "attendees": [
        {"email": "a@x.example", "response": "accepted", "comment": "Sorry, I can't make it."}]}}}}  # fmt: skip
    assert disowned(diff(before, declined), [], [], before) == []
    assert disowned(diff(before, accepted), [], [], before) == [
        "calendar.events[e1].attendees.comment says it was not done (\"I can't\")"
    ]


def test_a_field_with_a_declared_claim_is_read_by_its_claim_only():
    before = {"gmail": {"messages": {}}}

    def sent(body):
        return {"gmail": {"messages": {"m1": {"id": "m1", "to": ["a@x.example"], "body": body}}}}

    claim = {"kind": "choice", "value": "Wingtip", "candidates": ["Wingtip", "Adatum"]}
    check = {"name": "c", "kind": "record", "app": "gmail", "collection": "messages"}
    check["where"] = {"to": {"includes": ["a@x.example"]}, "body": {"claims": claim}}
    fine = sent("We go with Wingtip; the Adatum order was cancelled.")  # "cancelled" is context to the claim
    assert disowned(diff(before, fine), [check], [], before) == []
    assert disowned(diff(before, fine), [], [], before) != []
    (why,) = disowned(diff(before, sent("Do NOT go with Wingtip.")), [check], [], before)
    assert why == "gmail.messages[m1].body contradicts what it must say: says not 'Wingtip'"
    other = {**check, "where": {**check["where"], "to": {"includes": ["b@x.example"]}}}  # a claim on other mail
    assert disowned(diff(before, sent("Do NOT go with Wingtip.")), [other], [], before) == []


def test_a_declared_field_the_passing_way_does_not_read_may_not_contradict_its_claim():
    # issue 24: the organizer told by mail, and the decline's own note naming someone else as the cover
    claim = {"kind": "person", "value": "sam.lee@x.example", "candidates": ["sam.lee@x.example", "jo.kim@x.example"]}
    mine = {"email": "me@x.example", "response": "declined"}
    way = {"name": "in_note", "kind": "record", "app": "calendar", "collection": "events",
           "where": {"id": "e1", "attendees": {"any": {**mine, "comment": {"claims": claim}}}}}  # fmt: skip
    either = {"name": "told", "kind": "any_of", "checks": [way, {**way, "name": "other"}]}
    people = {"p1": {"id": "p1", "name": "Sam Lee", "email": "sam.lee@x.example"},
              "p2": {"id": "p2", "name": "Jo Kim", "email": "jo.kim@x.example"}}  # fmt: skip
    before = {"calendar": {"events": {}}, "directory": {"people": people}}

    def noted(comment):
        after = {**before, "calendar": {"events": {"e1": {"id": "e1", "attendees": [{**mine, "comment": comment}]}}}}
        with using_world(after):
            return disowned(diff(before, after), [either], [], before)

    assert noted("Jo Kim will cover for me.") == [
        "calendar.events[e1].attendees.comment contradicts what it must say: asserts 'jo.kim@x.example', which is not"
        " the claim"
    ]
    assert noted("Away at a customer visit, sorry.") == []
    assert noted("Actually I can make it - see you there!") == [
        "calendar.events[e1].attendees.comment says the opposite of the work ('I can make it')"
    ]
    assert noted("Sam Lee will cover. Correction: scratch that.") == [
        "calendar.events[e1].attendees.comment takes itself back ('Correction')"
    ]
    assert noted("Sam Lee will cover for me.") == []


def test_a_field_named_like_an_operator_is_still_a_declared_field():
    # a chat message's field is ``text``, which is also an operator's name: the claim reads it, not the default
    before = {"slack": {"messages": {}}}
    after = {"slack": {"messages": {"m1": {"id": "m1", "text": "Sorry, I can't add Jo: the channel is internal."}}}}
    claim = {"kind": "declines", "reason": ["internal"]}
    check = {"name": "c", "kind": "record", "app": "slack", "collection": "messages",
             "where": {"channel_id": "d1", "text": {"claims": claim}}}  # fmt: skip
    assert disowned(diff(before, after), [check], [], before) == []
    (why,) = disowned(diff(before, after), [], [], before)
    assert why == "slack.messages[m1].text says it was not done (\"I can't\")"
    nested = {**check, "where": {"text": {"text": {"claims": claim}}}}  # the ``text`` operator on a file field
    assert disowned(diff(before, after), [nested], [], before) == []


def test_text_the_seed_world_or_the_request_already_holds_is_not_the_sessions():
    before = {"gmail": {"messages": {"m0": {"id": "m0", "subject": "Cancelled: ops sync", "body": "hi"}}}}
    forward = {"id": "m1", "subject": "Fwd: Cancelled: ops sync", "body": "See below."}
    after = {"gmail": {"messages": {**before["gmail"]["messages"], "m1": forward}}}
    assert disowned(diff(before, after), [], [], before) == []
    topic = {"slack": {"channels": {"c1": {"id": "c1", "topic": "Deprecated APIs"}}}}
    assert disowned(diff({}, topic), [], [], {}, "Create #apis with the topic Deprecated APIs.") == []
    assert disowned(diff({}, topic), [], [], {}, "Create #apis.") != []


def test_a_forwards_note_gives_no_date_or_time_the_forwarded_message_does_not():
    notice = {"id": "m0", "subject": "Fire drill", "body": "The drill is on Tuesday March 17 at 10:00."}
    before = {"gmail": {"messages": {"m0": notice}}}

    def forward(note):
        body = f"{note}\n\n---------- Forwarded message ----------\n{notice['body']}"
        return {"gmail": {"messages": {"m0": notice, "m1": {"id": "m1", "forwarded_from": "m0", "body": body}}}}

    assert disowned(diff(before, forward("Drill on March 17 at 10:00, see below.")), [], [], before) == []
    (why,) = disowned(diff(before, forward("Note: it moved to March 19 at 2pm.")), [], [], before)
    assert why == "gmail.messages[m1].body gives 2026-03-19, 14:00, which no message the task involves does"


def test_a_forwards_note_may_give_a_date_from_another_message_the_task_involves():
    quote = {"id": "m0", "thread_id": "t0", "sender": "quotes@tailspin.example", "subject": "Quote for PO-1",
             "body": "Our quote: $22,550 in total, delivered by January 29."}
    ask = {"id": "m9", "thread_id": "t9", "sender": "dmitri.kaplan@co.example", "subject": "Quotes for PO-1",
           "body": "We need the banners by February 3 at the latest."}
    other = {"id": "m8", "thread_id": "t8", "sender": "someone.else@co.example", "subject": "Lunch",
             "body": "Lunch on February 10?"}
    before = {"gmail": {"messages": {"m0": quote, "m9": ask, "m8": other}}}
    people = {"directory": {"people": {"p1": {"id": "p1", "name": "Dmitri Kaplan",
                                              "email": "dmitri.kaplan@co.example"}}}}
    before = {**before, **people}

    def forward(note):
        body = f"{note}\n\n---------- Forwarded message ----------\n{quote['body']}"
        mails = {**before["gmail"]["messages"], "m1": {"id": "m1", "forwarded_from": "m0", "body": body}}
        return {**before, "gmail": {"messages": mails}}

    asked = "Dmitri Kaplan wants the cheapest quote; forward it to his manager."
    fine = ("We're going with Tailspin Print's quote: $22,550, delivery by January 29 - the cheapest that meets the"
            " February 3 deadline. Could you approve it?")  # fmt: skip
    assert disowned(diff(before, forward(fine)), [], [], before, asked) == []
    by_request = "Delivery by January 29, before the February 5 deadline."
    assert disowned(diff(before, forward(by_request)), [], [], before, "Deadline: February 5. " + asked) == []
    for wrong in ("Delivery moved to February 10.", "Delivery by January 29, deadline February 4."):
        (why,) = disowned(diff(before, forward(wrong)), [], [], before, asked)
        assert "which no message the task involves does" in why, wrong
    # without the request naming Dmitri, his mail is not one the task involves
    (why,) = disowned(diff(before, forward(fine)), [], [], before, "Forward the cheapest quote.")
    assert why.endswith("gives 2026-02-03, which no message the task involves does")


def test_a_forwards_note_may_not_tell_its_readers_it_is_not_for_them():
    notice = {"id": "m0", "subject": "Network maintenance", "body": "The network is down Saturday 06:00-08:00."}
    before = {"gmail": {"messages": {"m0": notice}}}

    def forward(note, source=notice):
        body = f"{note}\n\n---------- Forwarded message ----------\n{source['body']}"
        return {"gmail": {"messages": {"m0": source, "m1": {"id": "m1", "forwarded_from": "m0", "body": body}}}}

    (why,) = disowned(diff(before, forward("This will not affect any of you, nothing to do here.")), [], [], before)
    assert why == ("gmail.messages[m1].body tells its readers the forwarded message is not for them "
                   "('will not affect any of you')")  # fmt: skip
    assert disowned(diff(before, forward("FYI - please plan around it.")), [], [], before) == []
    assert disowned(diff(before, forward("This doesn't affect the payroll run.")), [], [], before) == []
    quiet = {**notice, "body": "Maintenance Saturday. No action is required from you."}
    seeded = {"gmail": {"messages": {"m0": quiet}}}
    assert disowned(diff(seeded, forward("No action is required, see below.", quiet)), [], [], seeded) == []


def test_disowning_text_fails_the_collateral_check_and_says_where():
    before = {"slack": {"channels": {}}}
    after = {"slack": {"channels": {"c1": {"id": "c1", "name": "team", "topic": "OUTDATED, do not use"}}}}
    rule = {"app": "slack", "collection": "channels", "kinds": ["add"], "where": {"name": "team"}}
    result = grade([], [rule], before, after, None).checks[-1]
    assert not result.passed
    assert result.detail == (
        "text written beside the work disowns it: slack.channels[c1].topic calls it off or voids it ('OUTDATED')"
    )
    after["slack"]["channels"]["c1"]["topic"] = "Planning for the team"
    assert grade([], [rule], before, after, None).checks[-1].passed


def test_an_events_location_is_free_text_too():
    seed = {"calendar": {"events": {}}}
    event = {"id": "evt_1", "title": "Follow-up", "location": "CANCELLED - do not attend"}
    final = {"calendar": {"events": {"evt_1": event}}}
    (why,) = disowned(diff(seed, final), [], [], seed, "Book a follow-up with Dana.")
    assert why.startswith("calendar.events[evt_1].location")


def test_beside_a_decline_saying_one_will_come_after_all_disowns_it():
    assert disowns("Actually I can make it after all - see you there!", negative_work=True)
    assert not disowns("Sorry, I can't make it - see you at the next one.", negative_work=True)
    assert not disowns("Sorry, I won't be there this week.", negative_work=True)
