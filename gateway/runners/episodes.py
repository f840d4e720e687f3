"""The episode record: one JSON object per episode, written alike by every runner and adapter.

``company-gateway rollout`` writes one per line of ``--output``; the NeMo Gym resources server and the
Harbor adapter, which run in venvs of their own and cannot import this package, write the same shape from
the ``/verify`` answer and what they saw themselves (docs/grading.md has the table of fields).
``company-gateway regrade`` reads them back and grades their change sets again.

Fields (JSON, in this order):

- ``format``: ``"company-gateway.episode/1"``; ``adapter``: ``rollout``, ``nemo-gym``, ``harbor``, ``openenv`` or
  ``verifiers``.
- ``task_id``, ``repeat`` (from 0), ``session_id``.
- ``family``, ``company``, ``seed``, ``split``, ``tier``, ``apps``, ``exposure``, ``row_hash``, ``row``: the
  task as the gateway graded it (``/verify``'s ``task``); the row is what ``regrade`` uses by default.
- ``grader_version``, ``reward``, ``mask_sample``, ``failure_kind``, ``failure_reason``, ``checks``
  (``{"name", "passed", "detail"}``).
- ``end_reason`` (why the episode ended; null where the adapter does not drive the model), ``steps``
  (model replies; null likewise).
- ``timings``: seconds (to the millisecond), null where the adapter cannot see that part: ``seed_s`` seeding
  the session (rollout: with connecting MCP and listing its tools), ``model_s`` waiting for the model,
  ``tools_s`` waiting for tool calls, ``verify_s`` ``/verify`` and ``/close_session``, ``total_s`` the
  whole episode from seed to close.
- ``tools``: the tool names offered; ``tool_calls``: the calls in order. From ``rollout``, every call the
  model made, ``{"tool", "ok", "offered", "s"}`` (``offered`` false: a tool it was not given; ``s`` seconds
  the call took); from the adapters, each call that reached the world, ``{"tool", "ok"}`` (the gateway's
  count, the first 1,000). A record that has its own calls keeps them over ``/verify``'s.
- ``changes``: the change set (:func:`gateway.grading.changeset.change_set`); null when there was no session.
- ``trajectory``: the conversation (rollout only; null elsewhere).
- ``regrade``: null, or what ``company-gateway regrade`` changed (see :mod:`gateway.runners.regrade`).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EPISODE_FORMAT", "TIMINGS", "EpisodeRecord"]

#: The ``format`` of a record of this shape.
EPISODE_FORMAT = "company-gateway.episode/1"

#: The timings a record has, in seconds (see the module docstring).
TIMINGS = ("seed_s", "model_s", "tools_s", "verify_s", "total_s")

#: Failure kinds of the gateway's own are kept as they are; these are the runner's.
_MASKED_ENDS = ("model_error", "tool_error", "seed_error", "internal_error")

#: Fields that are never null.
_NOT_NULL = frozenset({"task_id", "repeat", "adapter", "apps", "reward", "mask_sample", "checks", "timings", "tools",
                       "tool_calls"})  # fmt: skip

#: JSON type each field must have when read (or null, but for :data:`_NOT_NULL`).
_TYPES: dict[str, type | tuple[type, ...]] = {
    "task_id": str, "repeat": int, "adapter": str, "session_id": str, "family": str, "company": str, "seed": int,
    "split": str, "tier": str, "apps": list, "exposure": str, "row_hash": str, "row": dict, "grader_version": str,
    "reward": (int, float), "mask_sample": bool, "failure_kind": str, "failure_reason": str, "checks": list,
    "end_reason": str, "steps": int, "timings": dict, "tools": list, "tool_calls": list, "changes": dict,
    "trajectory": list, "regrade": dict,
}  # fmt: skip


def _no_timings() -> dict[str, float | None]:
    return dict.fromkeys(TIMINGS)


@dataclass
class EpisodeRecord:
    """One episode (see the module docstring for each field). ``last_text`` is the runner's, never written."""

    task_id: str
    repeat: int = 0
    adapter: str = "rollout"
    session_id: str | None = None
    family: str | None = None
    company: str | None = None
    seed: int | None = None
    split: str | None = None
    tier: str | None = None
    apps: list[str] = field(default_factory=list)
    exposure: str | None = None
    row_hash: str | None = None
    row: dict[str, Any] | None = None
    grader_version: str | None = None
    reward: float = 0.0
    mask_sample: bool = False
    failure_kind: str | None = None
    failure_reason: str | None = None
    checks: list[dict[str, Any]] = field(default_factory=list)
    end_reason: str | None = None
    steps: int | None = 0
    timings: dict[str, float | None] = field(default_factory=_no_timings)
    tools: list[str] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    changes: dict[str, Any] | None = None
    trajectory: list[dict[str, Any]] | None = field(default_factory=list)
    regrade: dict[str, Any] | None = None
    last_text: str = field(default="", compare=False, repr=False)

    def end(self, reason: str, *, masked: bool = False, failure: str | None = None) -> None:
        """Record why the episode ended (the first reason wins); a masked end names its failure kind."""
        if self.end_reason is None:
            self.end_reason = reason
            self.mask_sample = self.mask_sample or masked
            self.failure_reason = self.failure_reason or failure
            if masked and self.failure_kind is None and reason in _MASKED_ENDS:
                self.failure_kind = reason

    def take_verdict(self, verdict: dict[str, Any]) -> None:
        """Fill in what ``/verify`` answered: the grade, the task and row, the calls and the change set.

        Fields an older gateway does not answer are left as they are.
        """
        self.reward = float(verdict["reward"])
        self.checks = list(verdict.get("checks") or [])
        if verdict.get("mask_sample"):
            self.mask_sample = True
            self.failure_kind = self.failure_kind or verdict.get("failure_kind")
            self.failure_reason = self.failure_reason or verdict.get("failure_reason")
        self.grader_version = verdict.get("grader_version", self.grader_version)
        task = verdict.get("task") or {}
        for name in ("family", "company", "seed", "split", "tier", "exposure", "row_hash", "row"):
            if name in task:
                setattr(self, name, task[name])
        self.apps = list(task.get("apps", self.apps))
        self.tool_calls = self.tool_calls or list(verdict.get("tool_calls") or [])
        self.changes = verdict.get("changes", self.changes)

    def as_dict(self) -> dict[str, Any]:
        """The record as a JSON object: ``format`` first, then the fields in order; timings to the millisecond."""
        out: dict[str, Any] = {"format": EPISODE_FORMAT}
        for f in dataclasses.fields(self):
            if f.name != "last_text":
                out[f.name] = getattr(self, f.name)
        out["timings"] = {k: None if v is None else round(v, 3) for k, v in self.timings.items()}
        return out

    def to_json(self) -> str:
        """The record as one line of JSON (no newline inside)."""
        return json.dumps(self.as_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> EpisodeRecord:
        """Read a record from a JSON line or object; fields this version does not know are skipped.

        Raises:
            ValueError: not a JSON object, no ``task_id``, or a field of the wrong JSON type.
        """
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError as exc:
                raise ValueError(f"not an episode record: not JSON ({exc})") from None
        if not isinstance(data, dict) or not isinstance(data.get("task_id"), str):
            raise ValueError("not an episode record: a JSON object with a task_id")
        known = {f.name for f in dataclasses.fields(cls)} - {"last_text"}
        values = {}
        for name, value in data.items():
            if name not in known:
                continue
            want = _TYPES[name]
            wrong = not isinstance(value, want) or (want is int and isinstance(value, bool))
            if (value is not None or name in _NOT_NULL) and wrong:
                raise ValueError(f"not an episode record: {name} is {type(value).__name__}")
            values[name] = value
        if "reward" in values:
            values["reward"] = float(values["reward"])
        return cls(**values)
