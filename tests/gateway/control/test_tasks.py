"""Loading task rows: validation and the lint that refuses graders that cannot be right."""

import json

import pytest

from gateway.control.rows import load_tasks
from gateway.exceptions import TaskError

ROW = {
    "id": "t1",
    "instruction": "Move the ops sync.",
    "apps": ["calendar"],
    "checks": [{"name": "moved", "kind": "record", "app": "calendar", "collection": "events",
                "where": {"id": "evt_016", "start": {"instant": "2026-03-12T12:00:00-04:00"}}}],
    "allowed_changes": [{"app": "calendar", "collection": "events", "kinds": ["update"], "where": {"id": "evt_016"}}],
}


def write(tmp_path, *rows):
    path = tmp_path / "tasks.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_a_valid_row_loads(tmp_path):
    assert list(load_tasks(write(tmp_path, ROW))) == ["t1"]


def test_a_row_that_passes_on_the_initial_world_is_refused(tmp_path):
    lazy = {**ROW, "checks": [{"name": "exists", "kind": "record", "app": "calendar", "collection": "events",
                               "where": {"id": "evt_016"}}]}
    with pytest.raises(TaskError, match="already pass on the initial world"):
        load_tasks(write(tmp_path, lazy))


def test_a_rule_naming_a_missing_record_is_refused(tmp_path):
    typo = {**ROW, "allowed_changes": [{**ROW["allowed_changes"][0], "where": {"id": "evt_9999"}}]}
    with pytest.raises(TaskError, match="allowed_changes\\[0\\].*evt_9999"):
        load_tasks(write(tmp_path, typo))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"apps": ["calendar", "fax"]}, "apps"),
        ({"exposure": "smoke"}, "exposure"),
        ({"checks": [{"name": "x", "kind": "record", "app": "gmail", "collection": "messages"}]}, "not enabled"),
        ({"checks": [{"name": "x", "kind": "record", "app": "calendar", "collection": "meetings"}]}, "no collection"),
        ({"checks": [{"name": "x", "kind": "record", "app": "calendar", "collection": "events",
                      "where": {"title": {"contains": "a", "fuzzy": "b"}}}]}, "unknown operators"),
        ({"solution": [{"tool": "calendar.teleport", "args": {}}]}, "unknown tool"),
    ],
)
def test_rows_naming_what_does_not_exist_are_refused_with_the_line(tmp_path, change, message):
    path = write(tmp_path, ROW, {**ROW, "id": "t2", **change})
    with pytest.raises(TaskError, match=message) as err:
        load_tasks(path)
    assert "tasks.jsonl:2" in str(err.value)


def test_a_tasks_file_that_cannot_be_read_is_refused_by_name(tmp_path):
    with pytest.raises(TaskError, match=r"^tasks file '.*missing.jsonl' does not exist; give a JSONL file of task"):
        load_tasks(tmp_path / "missing.jsonl")
    with pytest.raises(TaskError, match=r"^tasks file '.*' is a folder; give a JSONL file of task rows$"):
        load_tasks(tmp_path)
    (tmp_path / "latin1.jsonl").write_bytes(b"\xff\xfe not utf-8")
    not_utf8 = r"^tasks file '.*latin1.jsonl' is not UTF-8 text \(byte 0\); give a JSONL file$"
    with pytest.raises(TaskError, match=not_utf8):
        load_tasks(tmp_path / "latin1.jsonl")
