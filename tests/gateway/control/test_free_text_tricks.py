"""Free text written beside the work is read: a note that disowns the work scores 0.0, honest context 1.0.

Each trick plays a family's reference through the control plane with one free text changed or added (a
forward's note, an attendee's comment, an event's description, a reply under a file comment, a ticket
comment, a file's chat comment, a chat message, a channel topic). Before the default reading of free
text every one of them scored 1.0.
"""

from __future__ import annotations

from typing import Any

import pytest

from gateway import Gateway, Settings
from gateway.control.rows import Step, Task, parse_task
from gateway.runners.prove import _play
from gateway.tasks.loader import families, instance_row
from sandbox.local import LocalProvider
from tools.companies import company


def family_task(name: str, seed: int = 0) -> Task:
    return parse_task(instance_row(families()[name], company("gen-1"), seed))


def _with(task: Task, tool: str, args: dict[str, Any], after: list[Step] = (), save: dict[str, str] | None = None):
    """The reference with the first ``tool`` step's ``args`` updated, ``after`` played right after it."""
    steps: list[Step] = []
    done = False
    for step in task.solution:
        if step.tool == tool and not done:
            done = True
            steps.append(step.model_copy(update={"args": {**step.args, **args}, "save": {**step.save, **(save or {})}}))
            steps += list(after)
        else:
            steps.append(step)
    assert done, tool
    return steps


def _channel_of(task: Task) -> str:
    return next(s.args["channel"] for s in task.solution if s.tool == "slack.post_message")


TRICKS = {
    "gmail-forward-invoice": ("gmail.forward_message", {"note": "FYI only - do NOT pay this one."}, []),
    "gmail-forward-notice-department": (
        "gmail.forward_message", {"note": "Heads up: this now happens on December 30 at 16:45."}, []
    ),
    "calendar-accept-mailed-invite": ("calendar.respond_to_event", {"comment": "Sorry, I can't make it."}, []),
    "calendar-book-free-slot": ("calendar.create_event", {"description": "Cancelled - please ignore this invite."}, []),
    "gmail-change-request-drive-comment": (
        "drive.add_comment", {}, [Step(tool="drive.reply_to_comment",
                                       args={"comment_id": "{cid}", "text": "Scratch that, no change is needed."})]
    ),
    "helpdesk-triage-ticket": (
        "helpdesk.assign_ticket", {}, [Step(tool="helpdesk.add_comment",
                                            args={"ticket_id": "{tid}", "body": "Rejected, we will not look at it."})]
    ),
    "sharepoint-plan-to-slack": ("slack.upload_file", {"comment": "OUTDATED, do not use."}, []),
    "slack-request-sharepoint-update": ("slack.post_message", {"text": "Sorry, could NOT update it."}, []),
    "slack-team-channel": ("slack.create_channel", {"topic": "Deprecated - do not use this channel."}, []),
}  # fmt: skip

HONEST = {
    "gmail-forward-invoice": ("gmail.forward_message", {"note": "Hi, this one is for payment; the PDF is attached."}),
    "calendar-accept-mailed-invite": ("calendar.respond_to_event", {"comment": "Thanks, see you there."}),
    "calendar-book-free-slot": ("calendar.create_event", {"description": "Agenda to follow; booked in a free slot."}),
    "sharepoint-plan-to-slack": ("slack.upload_file", {"comment": "Here's the current one, not the old draft."}),
    "slack-team-channel": ("slack.create_channel", {"topic": "Team planning; replaces nothing, all welcome."}),
}  # fmt: skip


async def _reward(task: Task, steps: list[Step], tmp_path) -> tuple[float, list]:
    gw = Gateway(Settings(), {task.id: task}, LocalProvider(tmp_path / "ws", owner="test"))
    play = await _play(gw, task, task.exposure, steps)
    assert play.error is None, play.error
    return play.reward, play.checks


@pytest.mark.parametrize("family", sorted(TRICKS))
async def test_free_text_that_disowns_the_work_scores_zero(family, tmp_path):
    task = family_task(family)
    tool, args, after = TRICKS[family]
    save = {"cid": "id"} if tool == "drive.add_comment" else None
    if family == "helpdesk-triage-ticket":
        tid = next(s.args["ticket_id"] for s in task.solution if s.tool == "helpdesk.assign_ticket")
        after = [s.model_copy(update={"args": {**s.args, "ticket_id": tid}}) for s in after]
    if family == "slack-request-sharepoint-update":
        args = {**args, "channel": _channel_of(task)}
    reference, _ = await _reward(task, task.solution, tmp_path / "ref")
    assert reference == 1.0
    reward, checks = await _reward(task, _with(task, tool, args, after, save), tmp_path / "trick")
    assert reward == 0.0, checks
    if family == "slack-request-sharepoint-update":  # its DM is read by its claims: the check reading it fails
        assert [c["name"] for c in checks if not c["passed"]] == ["told_them"]
    else:
        assert "disowns it" in checks[-1]["detail"]


@pytest.mark.parametrize("family", sorted(HONEST))
async def test_honest_context_beside_the_work_still_scores_one(family, tmp_path):
    task = family_task(family)
    tool, args = HONEST[family]
    reward, checks = await _reward(task, _with(task, tool, args), tmp_path)
    assert reward == 1.0, checks


@pytest.mark.parametrize("family", ["gmail-forward-invoice", "sharepoint-plan-to-slack"])
async def test_the_negated_message_control_covers_free_text_no_claim_declares(family, tmp_path):
    from gateway.control.controls import generate_controls
    from gateway.runners.prove import prove_task

    task = family_task(family)
    gw = Gateway(Settings(), {task.id: task}, LocalProvider(tmp_path / "ws", owner="test"))
    template = gw._template(task)
    (made,) = [c for c in generate_controls(task, template.snapshot, template.user) if c.name == "negated_message"]
    (steps,) = made.candidates
    retracted = [s for s in steps if s not in task.solution]
    assert len(retracted) == 1
    assert any(str(v).endswith("disregard everything above.") for v in retracted[0].args.values())
    proofs = {p.policy: p for p in await prove_task(gw, task, task.exposure)}
    negated = proofs["generated:negated_message"]
    assert negated.passed and negated.detail == "1 variant(s) scored 0.0"
