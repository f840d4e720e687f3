"""The generated control *typed file*: each file move of the reference replaced by text typed under the file's name.

It must score 0.0 or be refused by the app. It applies to rows whose reference downloads a file into the
workspace and then uploads or attaches it; other rows skip it and say why.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from gateway import Gateway, Settings
from gateway.control.controls import generate_controls
from gateway.control.rows import Task, load_builtin_tasks
from gateway.control.worlds import world_template
from gateway.runners.prove import prove_task
from sandbox.local import LocalProvider
from tools.kernel.documents import extract_text
from tools.kits.files import TYPED_DOCUMENT_REFUSAL

FAMILY = "helpdesk-attach-mailed-file"


def _task(tid: str | None = None, family: str = FAMILY) -> Task:
    tasks = load_builtin_tasks([family])
    return tasks[tid] if tid else next(iter(tasks.values()))


def _typed(task: Task, variables: dict[str, Any] | None = None):
    template = world_template(task)
    controls = {c.name: c for c in generate_controls(task, template.snapshot, template.user, variables)}
    return controls["typed_file"]


def test_a_file_move_is_replaced_by_text_typed_under_the_same_name():
    task = _task()
    control = _typed(task)
    assert control.refused_by == TYPED_DOCUMENT_REFUSAL
    name = next(s.args["save_as"] for s in task.solution if s.tool == "gmail.get_attachment").split("/")[-1]
    plain, pdf = control.candidates[:2]  # typed as plain text, and as a PDF typed by hand (then the alternative)
    for steps in (plain, pdf):
        tools = [s.tool for s in steps]
        assert "gmail.get_attachment" not in tools  # the mailed file is never downloaded
        attach = next(s for s in steps if s.tool == "helpdesk.attach_file")
        assert attach.args["name"] == name and "path" not in attach.args
    assert plain[-1].tool == "helpdesk.add_comment"  # the rest of the reference stays
    typed_pdf = next(s for s in pdf if s.tool == "helpdesk.attach_file").args["content"]
    assert typed_pdf.startswith("%PDF-") and typed_pdf.isascii()
    assert extract_text(typed_pdf.encode()).startswith(name.removesuffix(".pdf"))  # a PDF a reader reads


def test_the_typed_text_carries_the_words_a_text_check_looks_for():
    row = _task().model_dump(mode="json", exclude_none=True)
    row["checks"][0]["where"]["blob"] = {"text": {"contains": "Signed by Ana Lopez", "regex": "EQ-12345"}}
    control = _typed(Task.model_validate(row))
    typed_pdf = next(s for s in control.candidates[1] if s.tool == "helpdesk.attach_file").args["content"]
    assert "Signed by Ana Lopez" in extract_text(typed_pdf.encode()) and "EQ-12345" in extract_text(typed_pdf.encode())


def test_rows_that_move_no_file_skip_it_and_say_why():
    tasks = load_builtin_tasks(False)
    assert _typed(tasks["dir-manager-of-owen"]).why == "the reference moves no file through the workspace"
    assert _typed(tasks["drive-share-offsite-agenda"]).candidates == []


def test_a_move_into_a_mail_attachment_has_nothing_to_type_into():
    control = _typed(_task(family="gmail-contract-to-department-head"))
    assert control.candidates == [] and "workspace files only" in control.why


def _typed_proof(task: Task, tmp_path) -> Any:
    gw = Gateway(Settings(), {task.id: task}, LocalProvider(tmp_path / "ws", owner="test"))
    return {p.policy: p for p in asyncio.run(prove_task(gw, task, "mcp"))}["generated:typed_file"]


@pytest.mark.timeout(300)
def test_the_proof_refuses_or_zeroes_every_variant(tmp_path):
    typed = _typed_proof(_task(), tmp_path)
    assert typed.passed, typed.detail
    # the reference and its two alternatives, each typed as text (refused) and as a hand-typed PDF (scored 0.0)
    assert len(_task().alternative_solutions) == 2
    assert typed.detail == "6 variant(s) scored 0.0 (3 refused by the app)"


@pytest.mark.timeout(300)
def test_a_check_on_the_text_alone_lets_a_hand_typed_pdf_through(tmp_path):
    row = _task().model_dump(mode="json", exclude_none=True)
    signed = row["checks"][0]["where"]
    source = signed["blob"]["same_bytes_as"]
    mail = world_template(_task()).snapshot["gmail"]["messages"][source["id"]]
    person = mail["sender"]
    name = next(p["name"] for p in world_template(_task()).snapshot["directory"]["people"].values()
                if p["email"] == person)  # fmt: skip
    signed["blob"] = {"text": {"contains": f"Signed by {name}"}}  # what the family checked before
    typed = _typed_proof(Task.model_validate(row), tmp_path)
    assert not typed.passed and typed.detail.startswith("scored 1.0")


def test_a_moved_csv_is_typed_as_a_csv_holding_the_rows_the_checks_read():
    task = load_builtin_tasks(False)["box-file-tailspin-bookings"]
    control = _typed(task)
    upload = next(s for s in control.candidates[0] if s.tool == "box.upload_file")
    assert upload.args["name"] == "INV-20436 Tailspin Travel - bookings.csv" and len(control.candidates) == 1
    assert upload.args["content"].splitlines() == ["booking_id,traveller", "TT-51935,Harper Lewis"]


@pytest.mark.timeout(300)
def test_a_typed_csv_under_the_moved_files_name_scores_nothing(tmp_path):
    typed = _typed_proof(load_builtin_tasks(False)["box-file-tailspin-bookings"], tmp_path)
    assert typed.passed and typed.detail == "1 variant(s) scored 0.0", typed.detail
