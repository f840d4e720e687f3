"""``refuses_everything``: no work, and a polite "against company policy" in its place, scores 0.0.

A policy could learn to refuse whatever it is asked; every row but one whose request must be declined
holds it to 0.0 (a permitted twin included), and a row that must be declined says why it is not required.
"""

import asyncio

from gateway import Gateway, Settings
from gateway.control.controls import DECLINE_TEXT, generate_controls
from gateway.control.rows import Step, Task, load_builtin_tasks, parse_task
from gateway.runners.prove import prove_task
from gateway.tasks.loader import families, instance_row
from tools.companies import company


def family_task(name: str, seed: int = 0) -> Task:
    return parse_task(instance_row(families()[name], company("gen-1"), seed))


def refuses(task: Task):
    template = Gateway(Settings(), {task.id: task}, None)._template(task)
    (made,) = [c for c in generate_controls(task, template.snapshot, template.user) if c.name == "refuses_everything"]
    return made


def test_it_declines_in_the_thread_the_reference_answers_and_changes_nothing_else():
    task = family_task("gmail-reply-decision")
    made = refuses(task)
    assert made.reward == 0.0 and made.fallback
    steps, answer = made.candidates
    assert answer == [Step(tool="complete_task", args={"answer": DECLINE_TEXT, "summary": DECLINE_TEXT})]
    reply = task.solution[-1]
    assert [s.tool for s in steps] == [*(s.tool for s in task.solution[:-1]), "gmail.reply_to_message", "complete_task"]
    assert steps[-2].args == {"message_id": reply.args["message_id"], "body": DECLINE_TEXT}
    assert steps[-1].args == {"summary": DECLINE_TEXT}
    assert "company policy" in DECLINE_TEXT and "can't" in DECLINE_TEXT


def test_without_a_message_to_send_it_answers_the_refusal():
    made = refuses(family_task("drive-share-file-with-role"))
    reads = [s for s in made.candidates[0] if s.tool != "complete_task"]
    assert made.candidates[0][-1] == Step(tool="complete_task", args={"answer": DECLINE_TEXT, "summary": DECLINE_TEXT})
    assert all(s.tool.split(".")[1].startswith(("search", "get", "list", "read")) for s in reads)


def test_a_message_to_a_record_the_reference_made_falls_back_to_an_answer():
    task = family_task("gmail-reply-decision")
    ticket = Step(tool="helpdesk.create_ticket", args={"queue": "IT", "title": "t"}, save={"tid": "id"})
    comment = Step(tool="helpdesk.add_comment", args={"ticket_id": "{tid}", "body": "x"})
    task = task.model_copy(update={"solution": [ticket, comment]})
    (steps,) = refuses(task).candidates
    assert [s.tool for s in steps] == ["complete_task"]


def test_a_request_that_must_be_declined_does_not_require_it():
    task = family_task("gmail-reply-decision")
    check = dict(task.checks[0])
    check["where"] = {**check["where"], "body": {"claims": {"kind": "declines", "reason": ["policy"]}}}
    made = refuses(task.model_copy(update={"checks": [check]}))
    assert not made.candidates and "declin" in made.why


def test_it_scores_zero_on_a_reply_task_and_a_write_task():
    async def proof(task: Task):
        gw = Gateway(Settings(), {task.id: task}, None)
        return {p.policy: p for p in await prove_task(gw, task, "mcp")}["generated:refuses_everything"]

    rows = load_builtin_tasks(families=False)
    # the last: a post in a channel one must join first is refused, so the refusal is answered instead
    for task in (family_task("gmail-reply-decision"), rows["drive-share-offsite-agenda"],
                 rows["slack-join-sales-signoff-note"]):  # fmt: skip
        result = asyncio.run(proof(task))
        assert result.passed and result.detail == "1 variant(s) scored 0.0", result.detail
