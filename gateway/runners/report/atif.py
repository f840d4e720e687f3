"""Episodes as ATIF trajectories (Agent Trajectory Interchange Format), the JSON Harbor and NeMo Gym write.

ATIF is defined by Harbor's pydantic models (``harbor.models.trajectories``: ``Trajectory``, ``Step``,
``ToolCall``, ``Observation``); this writes :data:`ATIF_VERSION` as Harbor 0.25.0 validates it, so other
viewers (``harbor view`` among them) read our runs. One trajectory per episode:

- ``session_id``: the gateway session (or ``<task_id>#<repeat>`` when none was seeded); ``agent``: the
  adapter (``rollout``, ...) and this package's version, the tools offered in ``agent.extra.tools``;
- ``steps``: the system prompt (``source: "system"``), the instruction (``"user"``), then one ``"agent"``
  step per model reply: its text as ``message``, its ``tool_calls`` (``tool_call_id``, ``function_name``,
  ``arguments``: the JSON object the model wrote, or ``{"_raw": text}`` when it was not one) and their
  results as ``observation.results``; the runner's outcome of each call (``ok``, ``offered``, ``s``) in the
  call's ``extra``;
- ``final_metrics.total_steps``; ``extra``: the grade (``reward``, ``mask_sample``, ``failure_kind``,
  ``failure_reason``, ``checks``, ``grader_version``), the task (``task_id``, ``repeat``, ``family``,
  ``split``, ``tier``, ``exposure``, ``row_hash``), ``end_reason`` and ``timings``.

A record without a conversation (an adapter that does not drive the model) has the instruction step alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from gateway.runners.episodes import EpisodeRecord
from gateway.runners.report.episode import steps_of

__all__ = ["ATIF_VERSION", "to_atif", "write_atif"]

#: The ATIF schema version written (Harbor 0.25.0 reads v1.0 to v1.8; ``extra`` on calls came in v1.7).
ATIF_VERSION = "ATIF-v1.7"


def _package_version() -> str:
    try:
        return version("company-gateway")
    except PackageNotFoundError:
        return "0"


def _arguments(text: Any) -> dict[str, Any]:
    if isinstance(text, dict):
        return text
    try:
        value = json.loads(text or "{}")
    except (TypeError, ValueError):
        return {"_raw": str(text)}
    return value if isinstance(value, dict) else {"_raw": str(text)}


def to_atif(record: EpisodeRecord) -> dict[str, Any]:
    """One episode as an ATIF trajectory (a JSON object; see the module docstring)."""
    instruction, replies = steps_of(record.trajectory)
    if instruction is None:
        instruction = str((record.row or {}).get("instruction") or "") if isinstance(record.row, dict) else ""
    system = next((str(m.get("content") or "") for m in record.trajectory or [] if m.get("role") == "system"), None)
    steps: list[dict[str, Any]] = []
    if system is not None:
        steps.append({"source": "system", "message": system})
    steps.append({"source": "user", "message": instruction})
    calls = [c for reply in replies for c in reply["calls"]]
    outcomes = iter(record.tool_calls if len(record.tool_calls) == len(calls) else [None] * len(calls))
    for n, reply in enumerate(replies):
        step: dict[str, Any] = {"source": "agent", "message": reply["text"] or ""}
        if reply["calls"]:
            step["tool_calls"] = []
            results = []
            for i, call in enumerate(reply["calls"]):
                call_id = str(call["id"] or f"call-{n}-{i}")
                entry: dict[str, Any] = {"tool_call_id": call_id, "function_name": str(call["tool"]),
                                         "arguments": _arguments(call["args"])}  # fmt: skip
                outcome = next(outcomes)
                if outcome:
                    entry["extra"] = {k: outcome[k] for k in ("ok", "offered", "s") if k in outcome}
                step["tool_calls"].append(entry)
                results.append({"source_call_id": call_id,
                                "content": None if call["result"] is None else str(call["result"])})  # fmt: skip
            step["observation"] = {"results": results}
        steps.append(step)
    for number, step in enumerate(steps, 1):
        step["step_id"] = number
    return {
        "schema_version": ATIF_VERSION,
        "session_id": record.session_id or f"{record.task_id}#{record.repeat}",
        "agent": {"name": f"company-gateway-{record.adapter}", "version": _package_version(),
                  "extra": {"tools": record.tools}},
        "steps": steps,
        "final_metrics": {"total_steps": len(steps)},
        "extra": {name: getattr(record, name) for name in (
            "task_id", "repeat", "family", "split", "tier", "exposure", "row_hash", "grader_version", "reward",
            "mask_sample", "failure_kind", "failure_reason", "checks", "end_reason", "timings")},
    }  # fmt: skip


def write_atif(records: Sequence[EpisodeRecord], out: str | Path) -> list[Path]:
    """Write one ATIF file per episode into the folder ``out``: ``<n>-<task id>-<repeat>.json``.

    ``n`` is the episode's place in ``records`` (from 0, five digits), so the files sort in run order; the
    task id is kept to letters, digits, ``.``, ``_`` and ``-``.

    Returns:
        The files written, in order.

    Raises:
        OSError: the folder cannot be written.
    """
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for n, record in enumerate(records):
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", record.task_id)[:120]
        path = root / f"{n:05d}-{safe}-{record.repeat}.json"
        path.write_text(json.dumps(to_atif(record), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written
