"""Answer a colleague's request for a decision in the right Slack thread, with the option the user chose.

Varies: the project channel, the question (vendors, venues or tools to choose between), its reference code,
the option chosen, who asked, the phrasing. Distractors: the same colleague's other open question in the
same channel, a thread in another channel that mentions the same code, and the other option.

Scenario shapes (picked by the seed):

- ``sibling_question``: the near-misses above (control: answers the colleague's other question).
- ``last_round``: the same colleague asked the same kind of question months ago in the same channel, answered
  then (control: replies in that old thread).
- ``dm_nudge``: the colleague also nudged the user by direct message (control: answers in the DM instead of
  the thread).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.workplace import channel, dm, message, project_names

__all__ = ["FAMILY"]

SHAPES = ("sibling_question", "last_round", "dm_nudge")
CHOICES = (
    ("courier", ("Fabrikam Logistics", "Coho Freight", "Contoso Express")),
    ("venue", ("Lakeside Lodge", "Harbour Hall", "Cedar Conference Centre")),
    ("survey tool", ("Litware Forms", "Adatum Survey", "Tailspin Poll")),
    ("print shop", ("Wingtip Print", "Lamna Press", "Coho Printing")),
)


def _build(inst: Instance) -> dict[str, Any]:
    me = inst.company.user
    project, other_project = project_names(inst, 2)
    asker, bystander, other = inst.people(3)
    (topic, options), (other_topic, other_options) = inst.rng.sample(CHOICES, 2)
    a, b = inst.rng.sample(options, 2)
    chosen, rejected = inst.rng.sample((a, b), 2)
    oa, ob = inst.rng.sample(other_options, 2)
    code, other_code = inst.code("REQ", 4), inst.code("REQ", 4)
    slug = project.lower()
    chan = channel(inst, f"proj-{slug}", [asker["email"], me, bystander["email"]])
    elsewhere = channel(inst, f"proj-{other_project.lower()}", [other["email"], me, asker["email"]])
    root = message(
        inst,
        chan,
        asker["email"],
        f"{code}: we need to pick the {topic} for Project {project} - {a} or {b}? Whoever decides, please answer here.",
        inst.workday(-inst.rng.randint(1, 3), 10),
    )
    message(
        inst,
        chan,
        bystander["email"],
        f"{a} was quicker last time, for what it's worth.",
        inst.workday(-1, 11),
        root["id"],
    )
    sibling = message(
        inst,
        chan,
        asker["email"],
        f"{other_code}: and which {other_topic} - {oa} or {ob}?",
        inst.workday(-1, 12),
    )
    far = message(
        inst,
        elsewhere,
        other["email"],
        f"Heads-up: {code} is on Project {project}'s list too; {chosen} quoted us as well.",
        inst.workday(-1, 9),
    )
    shape = SHAPES[inst.seed % len(SHAPES)]
    decoy: dict[str, Any] | None = None
    if shape == "last_round":
        old_code = inst.code("REQ", 4)
        decoy = message(inst, chan, asker["email"], f"{old_code}: which {topic} for the Project {project} kickoff -"
                        f" {b} or {a}?", inst.workday(-inst.rng.randint(60, 120), 10))  # fmt: skip
        message(inst, chan, me, f"{rejected} this time, thanks.", inst.workday(-59, 15), decoy["id"])
    elif shape == "dm_nudge":
        decoy = message(inst, dm(inst, asker["email"]), asker["email"],
                        f"Could you answer my {topic} question ({code}) in #proj-{slug} when you can?",
                        inst.workday(-1, 13))  # fmt: skip
    who = inst.first(asker)
    instruction = compose(
        inst,
        [
            (
                f"reply in {who}'s thread in #proj-{slug} that we go with {chosen}",
                f"answer {who}'s question about the {topic} ({code}) in the Project {project} channel: {chosen} it is",
                f"let {who} know in the thread where they asked that it's {chosen}",
            ),
        ],  # fmt: skip
        (
            f"{who} asked in #proj-{slug} which {topic} we want for {code}",
            f"we've decided on {chosen} as the {topic} for Project {project}",
            "",
        ),
        by=who,
        tail=("in the thread, not the channel", "just that question, not the other one", ""),
    )
    reply = f"We'll go with {chosen} for the {topic}."
    # the option chosen, asserted among the topic's options (by name or first word)
    decides = {"claims": {"kind": "choice", "value": chosen, "candidates": [[o, o.split()[0]] for o in options]}}

    def answer(text: str, message_id: str = root["id"]) -> dict[str, Any]:
        return {"tool": "slack.reply_in_thread", "args": {"message_id": message_id, "text": text}}
    return {
        "instruction": instruction,
        "checks": [
            {
                "name": "decision_in_thread",
                "kind": "record",
                "app": "slack",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {  # in the thread only: not also sent to the channel
                    "channel_id": chan["id"],
                    "thread_id": root["id"],
                    "user": me,
                    "text": decides,
                    "broadcast": {"ne": True},
                },
            }
        ],
        "allowed_changes": [
            {
                "app": "slack",
                "collection": "messages",
                "kinds": ["add"],
                "where": {"channel_id": chan["id"], "thread_id": root["id"], "user": me, "text": decides},
            }
        ],
        "solution": [
            {
                "tool": "slack.search_messages",
                "args": {"query": f"{code} in:#proj-{slug}"},
                "save": {"mid": "results.0.id"},
            },
            {"tool": "slack.reply_in_thread", "args": {"message_id": "{mid}", "text": reply}},
        ],
        "alternative_solutions": [
            [
                {"tool": "slack.get_history", "args": {"channel": chan["id"]}},
                {"tool": "slack.get_thread", "args": {"message_id": root["id"]}, "save": {"last": "replies.0.id"}},
                {
                    "tool": "slack.reply_in_thread",
                    "args": {"message_id": "{last}", "text": f"{chosen}, please - thanks!"},
                },
            ],
            [answer(f"We'll go with {chosen} for the {topic}, not {rejected}.")],
        ],
        "negative_controls": [
            {
                "name": "also-in-the-channel",
                "why": "replies in the thread but also sends the reply to the channel, which was not asked",
                "steps": [
                    {
                        "tool": "slack.reply_in_thread",
                        "args": {"message_id": root["id"], "text": reply, "also_send_to_channel": True},
                    }
                ],
            },
            {
                "name": "other-question",
                "why": "answers the colleague's other question's thread",
                "steps": [{"tool": "slack.reply_in_thread", "args": {"message_id": sibling["id"], "text": reply}}],
            },
            {
                "name": "in-the-channel",
                "why": "posts the decision in the channel instead of the thread",
                "steps": [{"tool": "slack.post_message", "args": {"channel": chan["id"], "text": reply}}],
            },
            {
                "name": "other-channel",
                "why": "answers the thread in the other project's channel that mentions the code",
                "steps": [{"tool": "slack.reply_in_thread", "args": {"message_id": far["id"], "text": reply}}],
            },
            *(
                [{"name": shape.replace("_", "-"),
                  "why": "replies in the colleague's old thread on the same kind of question"
                  if shape == "last_round"
                  else "answers the colleague's direct message instead of the thread",
                  "steps": [answer(reply, decoy["id"])]}]
                if decoy
                else []
            ),  # fmt: skip
            {
                "name": "other-option",
                "why": "tells them the option that was not chosen",
                "steps": [answer(f"We'll go with {rejected} for the {topic}.")],
            },
            {
                "name": "negated",
                "why": "names the chosen option as the one we won't take",
                "steps": [answer(f"We won't go with {chosen} for the {topic}.")],
            },
        ],
    }


FAMILY = Family(
    name="slack-reply-decision-thread",
    apps=("slack",),
    summary="answer a colleague's question for a decision in its Slack thread with the option chosen",
    build=_build,
)
