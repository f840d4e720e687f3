"""The episode record: one JSON shape for rollout, the NeMo Gym server and the Harbor adapter."""

from __future__ import annotations

import json

import pytest

from gateway.runners.episodes import EPISODE_FORMAT, TIMINGS, EpisodeRecord

VERDICT = {
    "session_id": "s_1",
    "reward": 1.0,
    "checks": [{"name": "moved", "passed": True, "detail": "1 matching"}],
    "mask_sample": False,
    "failure_kind": None,
    "failure_reason": None,
    "grader_version": "0123456789abcdef",
    "task": {"id": "t1", "family": "fam", "company": "gen-1", "seed": 3, "split": "test", "tier": "hard",
             "apps": ["calendar"], "exposure": "mcp", "row_hash": "sha256:" + "0" * 64, "row": {"id": "t1"}},
    "tool_calls": [{"tool": "company_calendar_update_event", "ok": True}],
    "changes": {"records": {}, "files": {}, "said": {"answer": None, "summary": None, "response": "ok"},
                "counts": {"added": 0, "changed": 0, "removed": 0}, "complete": True,
                "left_out": {"changes": 0, "files": [], "texts": []}},
}  # fmt: skip


def test_a_verdict_fills_the_record_and_a_line_reads_back_the_same():
    record = EpisodeRecord("t1", 2, adapter="rollout", tools=["company_calendar_update_event"])
    record.take_verdict(VERDICT)
    record.end("completed")
    record.timings.update(seed_s=0.25, total_s=1.0)
    line = record.to_json()
    assert "\n" not in line
    data = json.loads(line)
    assert next(iter(data)) == "format" and data["format"] == EPISODE_FORMAT
    assert (data["family"], data["company"], data["seed"], data["split"], data["tier"]) == ("fam", "gen-1", 3,
                                                                                         "test", "hard")  # fmt: skip
    assert (data["row_hash"], data["row"], data["grader_version"]) == ("sha256:" + "0" * 64, {"id": "t1"},
                                                                       "0123456789abcdef")  # fmt: skip
    assert data["tool_calls"] == VERDICT["tool_calls"] and data["changes"] == VERDICT["changes"]
    assert set(data["timings"]) == set(TIMINGS) and data["timings"]["model_s"] is None
    assert "last_text" not in data
    assert EpisodeRecord.from_json(line) == record
    assert EpisodeRecord.from_json(data) == record


def test_a_masked_verdict_or_a_masked_end_names_the_failure():
    record = EpisodeRecord("t1")
    record.take_verdict({**VERDICT, "reward": 0.0, "mask_sample": True, "failure_kind": "internal_error",
                         "failure_reason": "boom"})  # fmt: skip
    assert (record.mask_sample, record.failure_kind, record.failure_reason) == (True, "internal_error", "boom")
    other = EpisodeRecord("t2")
    other.end("model_error", masked=True, failure="HTTP 500")
    assert (other.mask_sample, other.failure_kind, other.failure_reason) == (True, "model_error", "HTTP 500")


def test_reading_is_lenient_with_unknown_fields_and_strict_with_what_is_not_a_record():
    record = EpisodeRecord.from_json({"task_id": "t1", "reward": 1, "something_new": [1], "timings": {"seed_ms": 5}})
    assert (record.task_id, record.reward, record.changes) == ("t1", 1.0, None)
    bad_lines = ("[1, 2]", '{"reward": 1.0}', "not json", '{"task_id": "t", "reward": "high"}',
                 '{"task_id": "t", "mask_sample": null}', '{"task_id": "t", "seed": true}')  # fmt: skip
    for bad in bad_lines:
        with pytest.raises(ValueError, match="episode record"):
            EpisodeRecord.from_json(bad)
