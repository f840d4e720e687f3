"""The damage controls: the right work plus a copy to an outsider, or what it made shared with one, scores 0.0.

``extra_recipient`` copies each mail the reference sends to an outsider; ``share_what_you_made`` opens each
item the reference creates to one. Without the whole-record bound of an add rule both scored 1.0.
"""

import sys

import pytest

from gateway import Gateway, Settings
from gateway.control.controls import OUTSIDER, generate_controls
from gateway.control.rows import Task, load_builtin_tasks, parse_task
from gateway.runners.prove import prove_task
from gateway.tasks.loader import families, instance_row
from sandbox.local import LocalProvider
from tools.companies import company


def family_task(name: str, seed: int = 0) -> Task:
    return parse_task(instance_row(families()[name], company("gen-1"), seed))


def controls(task: Task) -> dict:
    template = Gateway(Settings(), {task.id: task}, None)._template(task)
    return {c.name: c for c in generate_controls(task, template.snapshot, template.user)}


def test_extra_recipient_copies_each_sent_mail_once_per_copy_field():
    task = family_task("gmail-reply-decision")
    made = controls(task)["extra_recipient"]
    assert made.reward == 0.0 and len(made.candidates) == 1  # a reply takes cc (no bcc)
    (steps,) = made.candidates
    changed = [s for s in steps if s not in task.solution]
    assert [s.tool for s in changed] == ["gmail.reply_to_message"]
    assert changed[0].args["cc"] == [OUTSIDER]
    assert len(steps) == len(task.solution)


def test_extra_recipient_copies_and_blind_copies_a_new_mail():
    task = family_task("gmail-contract-to-department-head")
    made = controls(task)["extra_recipient"]
    extras = [next(s for s in steps if s not in task.solution) for steps in made.candidates]
    assert [(s.tool, sorted(k for k in ("cc", "bcc") if OUTSIDER in s.args.get(k, []))) for s in extras] == [
        ("gmail.send_message", ["cc"]),
        ("gmail.send_message", ["bcc"]),
    ]
    assert extras[0].args["cc"][:-1] == next(s for s in task.solution if s.tool == "gmail.send_message").args["cc"]


def test_share_what_you_made_opens_each_created_item_to_an_outsider():
    task = family_task("helpdesk-quote-to-drive")
    made = controls(task)["share_what_you_made"]
    (steps,) = made.candidates
    at = next(n for n, s in enumerate(steps) if s.tool == "drive.upload_file")
    upload, share = steps[at], steps[at + 1]
    var = next(v for v, path in upload.save.items() if path == "id")
    assert share.tool == "drive.share_file"
    assert share.args == {"file_id": "{" + var + "}", "email": OUTSIDER, "role": "writer"}
    onedrive = controls(family_task("gmail-signed-sow-to-onedrive"))["share_what_you_made"]
    opens = {"onedrive.grant_access", "onedrive.create_sharing_link"}
    ways = [[s.tool for s in steps if s.tool in opens] for steps in onedrive.candidates]
    assert sorted(ways) == [["onedrive.create_sharing_link"], ["onedrive.grant_access"]]


def test_a_reference_that_sends_or_creates_nothing_skips_them_with_a_reason():
    made = controls(family_task("drive-share-file-with-role"))
    assert made["extra_recipient"].why == "the reference sends no mail" and not made["extra_recipient"].candidates
    assert made["share_what_you_made"].why == "the reference creates no file or folder"


def test_a_row_names_why_a_control_cannot_run():
    row = load_builtin_tasks(families=False)["sp-file-fabrikam-invoice"]
    assert "contributes" in row.no_controls["share_what_you_made"]


async def _proofs(task: Task, tmp_path) -> dict:
    gw = Gateway(Settings(), {task.id: task}, LocalProvider(tmp_path / "ws", owner="test"))
    return {p.policy: p for p in await prove_task(gw, task, "mcp")}


@pytest.mark.parametrize(
    ("family", "control"),
    [
        ("gmail-forward-notice-department", "extra_recipient"),
        ("gmail-reply-decision", "extra_recipient"),
        ("helpdesk-quote-to-drive", "share_what_you_made"),
        ("gmail-signed-sow-to-onedrive", "share_what_you_made"),
    ],
)
async def test_the_damage_scores_zero_and_scored_one_without_the_whole_record_bound(
    family, control, tmp_path, monkeypatch
):
    task = family_task(family)
    proofs = await _proofs(task, tmp_path)
    assert proofs["oracle"].passed
    assert proofs[f"generated:{control}"].passed
    assert proofs[f"generated:{control}"].detail.endswith("variant(s) scored 0.0")
    grading = sys.modules["gateway.grading.grade"]  # the package's ``grade`` is the function, not the module
    monkeypatch.setattr(grading, "scope_of", lambda *args, **kwargs: None)
    before = await _proofs(task, tmp_path / "unbound")
    assert not before[f"generated:{control}"].passed
    assert before[f"generated:{control}"].reward == 1.0


def _with_cc(task: Task, tool: str, cc: str) -> list:
    return [s.model_copy(update={"args": {**s.args, "cc": [cc]}}) if s.tool == tool else s for s in task.solution]


@pytest.mark.parametrize("family", ["gmail-reply-decision", "gmail-forward-notice-department"])
async def test_a_copy_to_yourself_or_to_someone_the_request_names_still_scores_one(family, tmp_path):
    from gateway.runners.prove import _play

    task = family_task(family)
    gw = Gateway(Settings(), {task.id: task}, LocalProvider(tmp_path / "ws", owner="test"))
    template = gw._template(task)
    tool = next(s.tool for s in task.solution if s.tool in ("gmail.reply_to_message", "gmail.forward_message"))
    where = task.allowed_changes[0]["where"]
    if "forwarded_from" in where:  # who sent the notice asked for it to go round
        requester = template.snapshot["gmail"]["messages"][where["forwarded_from"]]["sender"]
    else:  # the manager whose decision the reply passes on, named in the request
        people = template.snapshot["directory"]["people"].values()
        requester = next(p["email"] for p in people if p["name"] in task.instruction and p["email"] not in str(where))
    for cc in (template.user, requester):
        play = await _play(gw, task, "mcp", _with_cc(task, tool, cc))
        assert play.error is None and play.reward == 1.0, (cc, play.checks)
    play = await _play(gw, task, "mcp", _with_cc(task, tool, OUTSIDER))
    assert play.reward == 0.0
