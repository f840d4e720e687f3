"""Reply in a colleague's thread with the supplier the user's manager settled on (after changing their mind).

Varies: the asker, the purchase-order code, the item, the two suppliers and which one the manager finally
chose, dates, the phrasing. Distractors: the manager's first answer in the same thread (a supplier they took
back a day later), a second purchase-order question from another colleague with its own decision (a third
supplier), so a reply that takes the first word (control: ``first-answer``), or the wrong thread
(``wrong-thread``, ``other-decision``), names the wrong supplier.

Scenario shapes (picked by the seed):

- ``same_thread``: the manager's first answer and their change of plan are one thread of their own.
- ``separate_mail``: the change of plan is a later mail with its own subject, outside the first answer's
  thread (control: ``first-answer``, which reads only the first thread).
- ``in_question_thread``: the manager's first answer is a reply in the colleague's question thread, the
  change of plan a separate mail, so the latest word in the thread to reply in is the withdrawn one
  (control: ``first-answer``).

Phrasing composed.
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import message

__all__ = ["FAMILY"]

SUPPLIERS = (
    "Fabrikam Logistics",
    "Contoso Supplies",
    "Tailspin Print",
    "Litware Cloud",
    "Adatum Facilities",
    "Proseware Office",
    "Coho Freight",
    "Wingtip Furniture",
)
SHAPES = ("same_thread", "separate_mail", "in_question_thread")
ITEMS = ("standing desks", "laptop docks", "office chairs", "monitor arms", "label printers", "conference phones")


def _build(inst: Instance) -> dict[str, Any]:
    user = inst.company.user
    boss = inst.manager_of(inst.user) or inst.person()
    asker, other_asker = inst.people(2, exclude=[boss["email"]])
    first, final, third = inst.rng.sample(SUPPLIERS, 3)
    item, other_item = inst.rng.sample(ITEMS, 2)
    po, other_po = inst.code("PO", 5), inst.code("PO", 5)
    qty = inst.amount(4, 40)

    asked = inst.day(-inst.rng.randint(3, 5), 10, 15)
    question = message(
        inst,
        sender=asker["email"],
        subject=f"{po}: which supplier for the {item}?",
        body=f"Hi,\n\nFor {po} ({qty} {item}) we have quotes from {first} and {final}. Which one should I order"
        f" from? I'll place the order as soon as I hear back.\n\n{inst.first(asker)}",
        when=asked,
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    said = message(
        inst,
        sender=boss["email"],
        subject=f"{po} supplier" if shape != "in_question_thread" else f"Re: {po}: which supplier for the {item}?",
        body=f"Let's go with {first} for {po}, their price is lower.\n\n{inst.first(boss)}",
        when=inst.day(-2, 11, 40),
        **({"thread": question["id"], "in_reply_to": question["id"]} if shape == "in_question_thread" else {}),
    )
    change = f"after the call this morning, go with {final} instead. {first} can't deliver this month."
    if shape == "same_thread":
        message(
            inst,
            sender=boss["email"],
            subject=f"Re: {po} supplier",
            body=f"Change of plan on {po}: {change}\n\n{inst.first(boss)}",
            when=inst.day(-1, 15, 5),
            thread=said["id"],
            in_reply_to=said["id"],
        )
    else:
        message(
            inst,
            sender=boss["email"],
            subject=f"Update on {po}",
            body=f"Hi,\n\nChange of plan for the {item} ({po}): {change}\n\n{inst.first(boss)}",
            when=inst.day(-1, 15, 5),
        )
    other_q = message(
        inst,
        sender=other_asker["email"],
        subject=f"{other_po}: which supplier for the {other_item}?",
        body=f"Hi,\n\nFor {other_po} ({other_item}): {first} or {third}? Whichever you prefer.\n\n"
        f"{inst.first(other_asker)}",
        when=asked.replace(hour=14),
    )
    message(
        inst,
        sender=boss["email"],
        subject=f"{other_po} supplier",
        body=f"For {other_po}, order from {third}.\n\n{inst.first(boss)}",
        when=inst.day(-1, 9, 20),
    )

    who, boss_first = inst.pick((asker["name"], inst.first(asker))), inst.first(boss)
    instruction = compose(
        inst,
        [
            (
                f"reply to {who}'s question in their thread and tell them which supplier to use for {po}",
                f"answer {who} on {po} in their thread with the supplier {boss_first} decided on",
                f"get back to {who} in their {po} thread with the supplier {boss_first} settled on for the {item}",
                f"reply in {who}'s {po} thread with the supplier my manager's mail settled on"
                if inst.manager_of(inst.user) == boss
                else f"reply in {who}'s {po} thread with the supplier {boss['name']} chose",
            ),
        ],
        (
            f"{who} is waiting to hear which supplier to use for {po}",
            f"{boss['name']} made the call on the {item} supplier over email",
            f"{boss_first} decided on the supplier for {po} by mail",
            "",
        ),
        by=boss["name"],
        tail=("go by the latest word in the thread", "just the one reply", ""),
    )  # fmt: skip
    reply_body = f"Hi {inst.first(asker)},\n\n{inst.first(boss)} decided: please order from {final} for {po}."
    decision = {  # the reply asserts the final supplier; naming the withdrawn one as context is fair
        "kind": "choice",
        "value": final,
        "candidates": [[s, s.split()[0]] for s in SUPPLIERS],
    }

    def answer(body: str, message_id: str = question["id"]) -> dict[str, Any]:
        return {"tool": "gmail.reply_to_message", "args": {"message_id": message_id, "body": body}}

    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "decision_sent_in_thread",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {
                    "thread_id": question["thread_id"],
                    "to": {"includes": [asker["email"]]},
                    "body": {"claims": decision},
                },
            },
        ],
        "allowed_changes": [
            {
                "app": "gmail",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"sender": user, "thread_id": question["thread_id"], "to": {"includes": [asker["email"]]}},
            }
        ],
        "solution": [
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{boss['email']} {po}"},
                "save": {"tid": "results.0.thread_id"},
            },
            {"tool": "gmail.get_thread", "args": {"thread_id": "{tid}"}},
            {
                "tool": "gmail.search_messages",
                "args": {"query": f"from:{asker['email']} {po}"},
                "save": {"qid": "results.0.id"},
            },
            {"tool": "gmail.reply_to_message", "args": {"message_id": "{qid}", "body": reply_body}},
        ],
        "alternative_solutions": [
            [  # the decision, with the withdrawn supplier as context
                answer(
                    f"Hi {inst.first(asker)}, we're going with {final} for {po}. {first} was dropped because they"
                    f" can't deliver this month."
                )
            ]
        ],
        "negative_controls": [
            {
                "name": "hedges-both",
                "why": "names both suppliers of the thread, so either would match",
                "steps": [answer(f"{final} or {first} for {po}.")],
            },
            {
                "name": "first-answer",
                "why": "takes the manager's first answer, which they took back",
                "steps": [answer(f"Please order from {first} for {po}.")],
            },
            {
                "name": "wrong-thread",
                "why": "answers the other purchase order's question",
                "steps": [answer(f"Please order from {final} for {po}.", other_q["id"])],
            },
            {
                "name": "other-decision",
                "why": "passes on the decision made for the other purchase order",
                "steps": [answer(f"Please order from {third}.")],
            },
            {
                "name": "negated",
                "why": "names the final supplier but says not to use it",
                "steps": [answer(f"{inst.first(boss)} says do NOT go with {final} for {po}.")],
            },
            {
                "name": "retracted",
                "why": "states the decision, then takes it back",
                "steps": [answer(f"Please order from {final} for {po}. Correction: hold the order for now.")],
            },
        ],
    }

FAMILY = Family(
    name="gmail-reply-decision",
    apps=("gmail",),
    summary="reply in a colleague's thread with the supplier the manager finally chose by mail",
    build=_build,
    decision=True,
)
