"""company-gateway regrade: a saved run graded again from its change sets, with saved or today's rows."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from gateway import Settings, create_app
from gateway.control.rows import load_builtin_tasks
from gateway.runners.cli import main
from gateway.runners.episodes import EpisodeRecord
from tests.gateway.fake_model import FakeModel, fake_in_thread, serve_in_thread

IDS = ("cal-move-ops-sync", "dir-manager-of-owen", "drive-vendor-review-notes")
TASKS = {t: load_builtin_tasks(families=False)[t] for t in IDS}


@pytest.fixture(scope="module")
def run_file(tmp_path_factory) -> Iterator[Path]:
    """A saved run: each task once, played right by the scripted model through a gateway on loopback."""
    out = tmp_path_factory.mktemp("run") / "run.jsonl"
    with (
        fake_in_thread(FakeModel(TASKS)) as model_url,
        serve_in_thread(create_app(Settings(), TASKS)) as gateway_url,
        pytest.MonkeyPatch.context() as patch,
    ):
        patch.setenv("FAKE_KEY", "k")
        argv = ["rollout", "--tasks", ",".join(IDS), "--base-url", model_url, "--model", "oracle", "--api-key-env",
                "FAKE_KEY", "--gateway-url", gateway_url, "--output", str(out), "--no-progress"]  # fmt: skip
        assert main(argv) == 0
    yield out


def saved(run_file: Path) -> list[dict]:
    return [json.loads(line) for line in run_file.read_text().splitlines()]


def regrade_json(capsys, *argv: str) -> list[dict]:
    capsys.readouterr()
    assert main(["regrade", *argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_run_saved_change_sets_and_file_bytes(run_file):
    by_task = {x["task_id"]: x for x in saved(run_file)}
    assert {t: x["reward"] for t, x in by_task.items()} == dict.fromkeys(IDS, 1.0)
    assert len(by_task["drive-vendor-review-notes"]["changes"]["files"]) == 1  # the note the session wrote
    assert by_task["cal-move-ops-sync"]["changes"]["counts"] == {"added": 0, "changed": 1, "removed": 0}


@pytest.mark.parametrize("rows", ["saved", "current"])
def test_a_run_regraded_with_nothing_changed_keeps_every_reward_and_check(run_file, capsys, rows):
    before = saved(run_file)
    after = regrade_json(capsys, str(run_file), "--rows", rows)
    assert [(x["task_id"], x["reward"], x["checks"], x["grader_version"]) for x in after] == [
        (x["task_id"], x["reward"], x["checks"], x["grader_version"]) for x in before
    ]
    for x in after:
        assert x["regrade"] == {"rows": rows, "row_changed": False if rows == "current" else None,
                                "from": {"reward": 1.0, "grader_version": x["grader_version"],
                                         "row_hash": x["row_hash"]},
                                "flipped": [], "error": None}  # fmt: skip
        assert EpisodeRecord.from_json(x).regrade == x["regrade"]
    assert main(["regrade", str(run_file)]) == 0
    report = capsys.readouterr().out
    assert report.splitlines() == [
        "3 episode(s): 3 regraded (0 changed, 3 unchanged), 0 cannot be regraded, 0 masked; grader version "
        "changed for 0; mean reward (unmasked) 1.000 -> 1.000"
    ]


def test_a_changed_check_in_todays_rows_changes_that_task_alone_and_the_report_names_it(run_file, capsys, tmp_path):
    rows = {t: task.model_dump(mode="json", exclude_none=True) for t, task in TASKS.items()}
    rows["cal-move-ops-sync"]["checks"][0]["where"]["location"] = "Room 9Z"
    tasks_file = tmp_path / "today.jsonl"
    tasks_file.write_text("".join(json.dumps(r) + "\n" for r in rows.values()))
    before = {x["task_id"]: x for x in saved(run_file)}
    after = {x["task_id"]: x for x in regrade_json(capsys, str(run_file), "--rows", "current", "--tasks",
                                                    str(tasks_file))}  # fmt: skip
    moved = after["cal-move-ops-sync"]
    assert moved["reward"] == 0.0 and moved["regrade"]["row_changed"] is True
    assert moved["grader_version"] != before["cal-move-ops-sync"]["grader_version"]
    assert moved["row"]["checks"][0]["where"]["location"] == "Room 9Z"
    detail = "0 matching calendar.events record(s), expected exactly 1"
    assert moved["regrade"]["flipped"] == [{"name": "moved", "was": True, "now": False, "detail": detail}]
    for task_id in IDS[1:]:
        same = after[task_id]
        assert (same["reward"], same["checks"], same["regrade"]["flipped"], same["regrade"]["row_changed"]) == (
            1.0, before[task_id]["checks"], [], False)
    assert main(["regrade", str(run_file), "--rows", "current", "--tasks", str(tasks_file)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "cal-move-ops-sync #0: reward 1 -> 0 (row changed)",
        "  moved: passed -> failed: 0 matching calendar.events record(s), expected exactly 1",
        "rows changed since the run: cal-move-ops-sync",
        "3 episode(s): 3 regraded (1 changed, 2 unchanged), 0 cannot be regraded, 0 masked; grader version "
        "changed for 1; mean reward (unmasked) 1.000 -> 0.667",
    ]


def test_a_masked_episode_stays_masked(run_file, capsys, tmp_path):
    lines = saved(run_file)
    for x in lines:
        x.update(mask_sample=True, reward=0.0, failure_kind="model_error")
    masked = tmp_path / "masked.jsonl"
    masked.write_text("".join(json.dumps(x) + "\n" for x in lines))
    after = regrade_json(capsys, str(masked))
    assert [(x["reward"], x["mask_sample"], x["failure_kind"]) for x in after] == [(0.0, True, "model_error")] * 3
    assert all(c["passed"] for x in after for c in x["checks"])  # graded again, and still masked


def test_file_content_that_was_not_saved_is_never_guessed(run_file, capsys, tmp_path):
    [note] = [x for x in saved(run_file) if x["task_id"] == "drive-vendor-review-notes"]
    [blob] = note["changes"]["files"]
    past_bound = copy.deepcopy(note)
    past_bound["changes"].update(files={}, complete=False)
    past_bound["changes"]["left_out"]["files"] = [blob]
    dropped = copy.deepcopy(note)
    dropped["changes"]["files"] = {}
    forged = copy.deepcopy(note)
    forged["changes"]["files"][blob] = "bm90IHRoZSBub3Rl"
    no_changes = {**note, "changes": None}
    path = tmp_path / "files.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in (past_bound, dropped, forged, no_changes)))
    capsys.readouterr()
    assert main(["regrade", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[:4] == [
        "drive-vendor-review-notes #0: cannot regrade: file content not saved (1 file(s) past the 1048576 bytes saved)",
        f"drive-vendor-review-notes #0: cannot regrade: file content not saved ({blob[:20]}...)",
        f"drive-vendor-review-notes #0: cannot regrade: the saved content of {blob[:20]}... does not match its id",
        "drive-vendor-review-notes #0: cannot regrade: no change set saved (the episode had no session, or was "
        "recorded before them)",
    ]
    assert "no episode could be regraded (all 4)" in err


def test_bad_input_is_a_usage_error_naming_the_line(run_file, capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(run_file.read_text() + "{not json\n")
    assert main(["regrade", str(bad)]) == 2
    assert f"{bad}:4: not an episode record" in capsys.readouterr().err
    assert main(["regrade", str(run_file), "--tasks", str(bad)]) == 2
    assert "--rows current" in capsys.readouterr().err
    assert main(["regrade", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert main(["regrade", str(empty)]) == 2  # as report: a run with no episode is a mistake, said so
    assert f"{empty}: no episode records (rollout --output writes them)" in capsys.readouterr().err


def test_a_change_set_that_does_not_fit_todays_world_cannot_be_regraded(run_file, capsys, tmp_path):
    row = TASKS["cal-move-ops-sync"].model_dump(mode="json", exclude_none=True)
    row["world"] = {"overrides": {"calendar": {"events": {"evt_016": {"start": "2026-03-12T10:00:00-04:00"}}}}}
    tasks_file = tmp_path / "today.jsonl"
    tasks_file.write_text(json.dumps(row) + "\n")
    capsys.readouterr()
    assert main(["regrade", str(run_file), "--rows", "current", "--tasks", str(tasks_file), "--json"]) == 1
    after = {x["task_id"]: x for x in map(json.loads, capsys.readouterr().out.splitlines())}
    assert after["cal-move-ops-sync"]["regrade"]["error"] == (
        "cannot regrade: the change set does not fit the row's initial world: calendar.events[evt_016].start: the "
        "initial world holds another value"
    )
    assert after["cal-move-ops-sync"]["reward"] == 1.0  # as saved: nothing is guessed
    assert after["dir-manager-of-owen"]["regrade"]["error"] == "cannot regrade: no task 'dir-manager-of-owen' today"
