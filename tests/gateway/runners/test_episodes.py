"""The episode record: one JSON shape for rollout, the NeMo Gym server and the Harbor adapter."""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path

import pytest

import gateway.runners
from gateway import Gateway, Settings
from gateway.control.rows import load_builtin_tasks
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


# ---- the adapters that run in other venvs write the same shape -----------------------------------------------

ADAPTERS = {
    "nemo-gym": Path(gateway.runners.__file__).parent / "gym_server" / "app.py",
    "harbor": Path(gateway.runners.__file__).parent / "harbor_files" / "company_gateway_harbor.py",
}


def adapter_function(path: Path):
    """The adapter's own ``episode_record`` (it cannot be imported here: its module imports Gym or Harbor)."""
    source = path.read_text()
    tree = ast.parse(source)
    parts = [ast.get_source_segment(source, node) for node in tree.body
             if (isinstance(node, ast.FunctionDef) and node.name == "episode_record")
             or (isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "EPISODE_FORMAT")]  # fmt: skip
    assert len(parts) == 2, path
    namespace: dict = {}
    exec("from __future__ import annotations\nfrom typing import Any\n" + "\n".join(parts), namespace)
    return namespace["episode_record"]


@pytest.fixture(scope="module")
def verdict() -> dict:
    """A real /verify answer: cal-move-ops-sync, the event moved over the company API."""

    async def play() -> dict:
        gw = Gateway(Settings(seed_slice_s=0), load_builtin_tasks(families=False))
        seed = await gw.seed({"task_id": "cal-move-ops-sync"}, "http://127.0.0.1:1/")
        moved = {"event_id": "evt_016", "start": "2026-03-12T12:00:00", "end": "2026-03-12T12:30:00"}
        await gw.call(gw.get_session(seed["session_id"]), "company_calendar_update_event", moved, surface="http")
        answer = await gw.verify(seed["session_id"], "Moved.")
        await gw.close(seed["session_id"])
        return {**answer, "tools": seed["tools"]}

    return asyncio.run(play())


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_each_adapter_writes_the_record_rollout_writes(adapter, verdict):
    episode_record = adapter_function(ADAPTERS[adapter])
    timings = {"seed_s": 0.5, "tools_s": 0.25, "verify_s": 0.125, "total_s": 2.0}
    written = episode_record(adapter, "cal-move-ops-sync", verdict, session_id=verdict["session_id"],
                             tools=verdict["tools"], timings=timings)  # fmt: skip
    expected = EpisodeRecord("cal-move-ops-sync", adapter=adapter, session_id=verdict["session_id"],
                             tools=verdict["tools"], steps=None, trajectory=None)  # fmt: skip
    expected.take_verdict(verdict)
    expected.timings.update(timings)
    assert list(written) == list(expected.as_dict())
    assert written == expected.as_dict()
    assert written["reward"] == 1.0 and written["changes"]["counts"]["changed"] == 1
    assert EpisodeRecord.from_json(json.dumps(written)).as_dict() == written


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_an_adapters_own_failure_masks_its_record(adapter):
    episode_record = adapter_function(ADAPTERS[adapter])
    written = episode_record(adapter, "t1", None, failure_kind="transport_unreachable", failure_reason="refused")
    record = EpisodeRecord.from_json(json.dumps(written))
    assert (record.mask_sample, record.reward, record.failure_kind, record.failure_reason, record.changes) == (
        True, 0.0, "transport_unreachable", "refused", None)
    masked = episode_record(adapter, "t1", {**VERDICT, "mask_sample": True, "failure_kind": "internal_error",
                                            "failure_reason": "boom", "reward": 0.0})  # fmt: skip
    assert (masked["mask_sample"], masked["failure_kind"], masked["failure_reason"]) == (True, "internal_error", "boom")
