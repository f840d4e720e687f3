"""Message the right one of two colleagues who share a first name, in a direct message, with a piece of news.

Ambiguity the world resolves: the instruction names a first name two colleagues share, with a qualifier
only the world settles (a department, a channel they are in, a manager). The reference reads the directory
or the channel to tell them apart and writes to that one person.

Scenario shapes (picked by the seed):

- ``department``: "<first> from <department>"; the namesake works in another department.
- ``channel``: "the <first> in #proj-<x>"; the namesake is not in that channel.
- ``manager``: "the <first> who reports to <manager>"; the namesake has another manager.

Whatever the shape, exactly one colleague of that first name fits the qualifier (a third namesake in the same
department, under the same manager or in the channel moves the instance to a shape that holds).

Distractors: the namesake (with a DM of their own), the project channel. Varies: the pair, the news, the
project, the phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.people import namesakes
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, dm, message, project_names

__all__ = ["FAMILY"]

#: Words before the news that put it off: "will be paid", "still needs to be signed", "expected to have shipped".
_NOT_YET = r"(?<!will be )(?<!to be )(?<!to have )(?<!ll be )(?<!t be )(?<!will have )"
NEWS = (
    ("the contract is signed", rf"{_NOT_YET}(?:\bsigned\b|\bexecuted\b)"),
    ("the budget is approved", rf"{_NOT_YET}(?:\bapproved\b|\bsigned off\b|\bgreen[- ]lit\b|\bgreen light\b)"),
    ("the room is booked", rf"{_NOT_YET}(?:\bbooked\b|\breserved\b|\bbooking (?:is |has been )?confirmed\b)"),
    ("the laptop order has shipped", rf"{_NOT_YET}(?:\bshipped\b|\bdispatched\b|\bon (?:its|the) way\b)"),
    ("the invoice is paid", rf"{_NOT_YET}(?:\bpaid\b|\bsettled\b)"),
)
SHAPES = ("department", "channel", "manager")


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    right, twin = namesakes(inst)
    if shape == "manager":
        for _ in range(20):
            boss, other_boss = inst.manager_of(right), inst.manager_of(twin)
            if boss and boss["email"] not in (me, twin["email"]) and boss != other_boss:
                break
            right, twin = namesakes(inst)
        else:
            shape = "department"
    first = inst.given_name(right)
    # everyone else who answers to the name (a third Mei too): the qualifier must leave only ``right``
    same = [p for p in inst.company.people.values()
            if p["email"] not in (right["email"], me) and inst.given_name(p).lower() == first.lower()]  # fmt: skip
    boss = inst.manager_of(right)
    if shape == "manager" and (boss is None or any(p.get("manager") == boss["email"] for p in same)):
        shape = "department"
    if shape == "department" and any(p["department"] == right["department"] for p in same):
        shape = "channel"
    (project,) = project_names(inst, 1)
    slug = project.lower()
    crew = inst.people(3, exclude=[right["email"], twin["email"]])
    if any(p in same for p in crew):  # a namesake in the channel would make "the one on Project X" two people
        crew = inst.people(3, exclude=[right["email"], *(p["email"] for p in same)])
    members = [crew[0]["email"], me, *(p["email"] for p in crew[1:])]
    if shape == "channel":
        members.append(right["email"])
    chan = channel(inst, f"proj-{slug}", members)
    message(inst, chan, crew[0]["email"], f"Welcome to Project {project}!", inst.workday(-5, 10))
    mine, theirs = dm(inst, right["email"]), dm(inst, twin["email"])
    if shape == "department":
        who = inst.pick((f"{first} from {right['department']}", f"{first} in {right['department']}"))
    elif shape == "channel":
        who = inst.pick((f"the {first} in #proj-{slug}", f"{first} (the one on Project {project})"))
    else:
        boss = inst.manager_of(right)
        assert boss is not None
        who = inst.pick((f"the {first} who reports to {boss['name']}", f"{boss['name']}'s {first}"))
    news, pattern = inst.pick(NEWS)
    instruction = compose(
        inst,
        [(f"DM {who} that {news}", f"send {who} a direct message saying {news}", f"ping {who} privately: {news}")],
        (f"{first} has been waiting on this", f"{first} asked to be told first", ""),
        by=inst.first(crew[0]),
        tail=("a direct message, not the channel", "just them", ""),
    )
    text = f"Hi {first}, good news: {news}."
    told = {"kind": "states", "detail": [pattern], "done": True}

    def send(where: dict[str, Any]) -> dict[str, Any]:
        target = where["id"]
        return {"tool": "slack.post_message", "args": {"channel": target, "text": text}}

    done = {"tool": "complete_task", "args": {"summary": f"Told {right['name']}."}}
    return {
        "instruction": instruction,
        "checks": [
            {"name": "right_namesake_told", "kind": "record", "app": "slack", "collection": "messages", "new": True,
             "count": 1, "where": {"channel_id": mine["id"], "user": me, "text": {"claims": told}}},
        ],  # fmt: skip
        "allowed_changes": [
            {"app": "slack", "collection": "messages", "kinds": ["add"],
             "where": {"channel_id": mine["id"], "user": me}},
        ],  # fmt: skip
        "solution": [
            {"tool": "directory.search_people", "args": {"query": first}},
            {"tool": "directory.get_person", "args": {"person": right["email"]}},
            {"tool": "slack.open_dm", "args": {"people": [right["email"]]}},
            send(mine),
            done,
        ],
        "negative_controls": [
            {"name": "namesake", "why": f"messages the other {first}", "steps": [send(theirs), done]},
            {"name": "both", "why": f"messages both people called {first}", "steps": [send(mine), send(theirs), done]},
            {"name": "in-channel", "why": "posts it in the project channel", "steps": [send(chan), done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="slack-namesake-dm",
    apps=("slack", "directory"),
    summary="send news by direct message to the right one of two same-named colleagues",
    build=_build,
    decision=True,
    kind="ambiguity",
)
