"""One episode as its page shows it: the steps with each call's arguments and result, checks, change set.

:func:`episode_view` turns an :class:`~gateway.runners.episodes.EpisodeRecord` into JSON for the episode
page. The conversation (``trajectory``, Chat Completions messages or Responses items) becomes steps: each
model reply with its text and its tool calls, each call with its full arguments and full result, and the
runner's outcome of the call (``ok``, ``offered``, seconds) when the record has one per call. The change set
becomes one row per record added, changed or removed, each with its field-level diff (``before``/``after``).

Nothing is cut: a text longer than ``fold_at`` characters is handed to ``fold``, which stores it elsewhere
(a side file the page loads when the value is opened) and returns what stands in for it,
``{"$long": key, "chars": n, "head": first characters}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from gateway.runners.episodes import EpisodeRecord

__all__ = ["FOLD_AT", "HEAD_CHARS", "Fold", "episode_view", "steps_of"]

#: Texts longer than this many characters go to a side file, loaded when the reader opens them.
FOLD_AT = 2000

#: Characters of a folded text shown before it is opened.
HEAD_CHARS = 400

#: Stores a long text; returns its key for the page.
Fold = Callable[[str], str]


def _text(value: Any) -> str:
    """A value as the page shows it: strings as they are, JSON text parsed and indented, anything else as JSON."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "[") and len(stripped) < 5_000_000:
            try:
                return json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
            except ValueError:
                return value
        return value
    return json.dumps(value, indent=2, ensure_ascii=False)


def _fold(value: Any, fold: Fold | None, fold_at: int) -> Any:
    """The text of ``value``, or its stand-in when it is longer than ``fold_at`` and ``fold`` is given."""
    text = _text(value)
    if fold is None or len(text) <= fold_at:
        return text
    return {"$long": fold(text), "chars": len(text), "head": text[:HEAD_CHARS]}


def steps_of(trajectory: list[dict[str, Any]] | None) -> tuple[str | None, list[dict[str, Any]]]:
    """The instruction and the steps of a conversation (either wire API's shape).

    Returns:
        (the first user message or None, steps): a step is ``{"text": str, "calls": [{"id", "tool",
        "args", "result"}]}``; ``result`` is None for a call with no output in the conversation.
    """
    instruction: str | None = None
    steps: list[dict[str, Any]] = []
    outputs: dict[str, Any] = {}
    current: dict[str, Any] | None = None

    def new_step() -> dict[str, Any]:
        step: dict[str, Any] = {"text": "", "calls": []}
        steps.append(step)
        return step

    for item in trajectory or []:
        role, kind = item.get("role"), item.get("type")
        if role == "user" and instruction is None:
            instruction = str(item.get("content") or "")
        elif role == "assistant":  # Chat: one message is one reply; Responses: a reply's text, before its calls
            current = new_step()
            current["text"] = str(item.get("content") or "")
            for call in item.get("tool_calls") or []:
                fn = call.get("function") or {}
                current["calls"].append({"id": call.get("id"), "tool": fn.get("name"), "args": fn.get("arguments"),
                                         "result": None})  # fmt: skip
        elif kind == "function_call":
            if current is None or any(c["id"] in outputs for c in current["calls"]):
                current = new_step()
            current["calls"].append({"id": item.get("call_id"), "tool": item.get("name"),
                                     "args": item.get("arguments"), "result": None})  # fmt: skip
        elif role == "tool":
            outputs[str(item.get("tool_call_id"))] = item.get("content")
        elif kind == "function_call_output":
            outputs[str(item.get("call_id"))] = item.get("output")
    for step in steps:
        for call in step["calls"]:
            call["result"] = outputs.get(str(call["id"]))
    return instruction, steps


def _diffs(changes: dict[str, Any] | None, fold: Fold | None, fold_at: int) -> list[dict[str, Any]]:
    """One row per record the session added, changed or removed, with each field's before and after."""
    rows: list[dict[str, Any]] = []
    for app, collections in sorted(((changes or {}).get("records") or {}).items()):
        for collection, kinds in sorted(collections.items()):
            for kind in ("added", "changed", "removed"):
                for record_id, value in sorted((kinds.get(kind) or {}).items()):
                    fields = []
                    for name, v in sorted((value or {}).items()):
                        if kind == "changed":
                            before, after = (v or {}).get("before"), (v or {}).get("after")
                            has_before, has_after = "before" in (v or {}), "after" in (v or {})
                        else:
                            before, after = (None, v) if kind == "added" else (v, None)
                            has_before, has_after = kind == "removed", kind == "added"
                        fields.append({"name": name,
                                       "before": _fold(before, fold, fold_at) if has_before else None,
                                       "after": _fold(after, fold, fold_at) if has_after else None})  # fmt: skip
                    rows.append({"app": app, "collection": collection, "kind": kind, "id": record_id,
                                 "fields": fields})  # fmt: skip
    return rows


def episode_view(record: EpisodeRecord, index: int, *, fold: Fold | None = None,
                 fold_at: int = FOLD_AT) -> dict[str, Any]:  # fmt: skip
    """The episode page's data (JSON-ready).

    Args:
        record: The episode.
        index: Its place in its run (from 0).
        fold: Stores a text longer than ``fold_at`` elsewhere; None keeps every text inline.
        fold_at: Characters past which a text is folded.

    Returns:
        The record's identity, grade and timings, ``instruction``, ``steps`` (each call with ``ok``,
        ``offered`` and ``s`` when the record's ``tool_calls`` line up with the conversation's calls, else
        null), ``calls`` (the record's ``tool_calls``), ``checks``, ``changes`` (``rows``: field-level diffs;
        ``counts``, ``complete``, ``said``, ``files``: blob id to bytes, ``left_out``) and ``regrade``.
    """
    instruction, steps = steps_of(record.trajectory)
    calls = [c for s in steps for c in s["calls"]]
    outcomes = record.tool_calls if len(record.tool_calls) == len(calls) else [{} for _ in calls]
    for call, outcome in zip(calls, outcomes, strict=True):
        call["args"] = _fold(call["args"] if call["args"] is not None else "{}", fold, fold_at)
        call["result"] = None if call["result"] is None else _fold(call["result"], fold, fold_at)
        call.update(ok=outcome.get("ok"), offered=outcome.get("offered"), s=outcome.get("s"))
    for step in steps:
        step["text"] = _fold(step["text"], fold, fold_at) if step["text"] else ""
    if instruction is None and isinstance(record.row, dict):
        instruction = str(record.row.get("instruction") or "")
    changes = record.changes
    said = {k: _fold(v, fold, fold_at) for k, v in ((changes or {}).get("said") or {}).items() if v}
    return {
        "index": index,
        **{name: getattr(record, name) for name in (
            "task_id", "repeat", "adapter", "session_id", "family", "company", "seed", "split", "tier", "apps",
            "exposure", "row_hash", "grader_version", "reward", "mask_sample", "failure_kind", "failure_reason",
            "end_reason", "timings", "tools", "regrade")},
        "model_steps": record.steps,
        "checks": [{"name": c.get("name"), "passed": c.get("passed"),
                    "detail": _fold(c.get("detail") or "", fold, fold_at)} for c in record.checks],  # fmt: skip
        "instruction": _fold(instruction or "", fold, fold_at),
        "steps": steps,
        "calls": record.tool_calls,
        "changes": None if changes is None else {
            "rows": _diffs(changes, fold, fold_at), "counts": changes.get("counts"),
            "complete": changes.get("complete"), "said": said, "left_out": changes.get("left_out"),
            "files": {blob: (len(data) * 3) // 4 for blob, data in (changes.get("files") or {}).items()},
        },
    }  # fmt: skip
