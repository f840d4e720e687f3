"""The episode record and the gateway's control routes, with no verifiers import (a test loads it alone).

The record is company-gateway's episode record (its docs/grading.md, "The episode record"), the shape every
adapter writes; ``company-gateway regrade`` reads a file of them. The same function is in the gateway's other
adapters; a test holds each to ``EpisodeRecord.as_dict``.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx

__all__ = ["EPISODE_FORMAT", "Control", "append_record", "episode_record", "failure_of"]

LOG = logging.getLogger(__name__)

#: The ``format`` field of a record of this shape.
EPISODE_FORMAT = "company-gateway.episode/1"
_TIMINGS = ("seed_s", "model_s", "tools_s", "verify_s", "total_s")


def episode_record(adapter: str, task_id: str, verdict: dict[str, Any] | None, *, session_id: str | None = None,
                   tools: list[str] | None = None, timings: dict[str, float | None] | None = None,
                   failure_kind: str | None = None, failure_reason: str | None = None,
                   steps: int | None = None, end_reason: str | None = None) -> dict[str, Any]:  # fmt: skip
    """The episode record from ``/verify``'s answer (None: there was none) and what the adapter saw.

    Args:
        adapter: The adapter's name (``verifiers``, ``openenv``).
        task_id: The task played.
        verdict: ``/verify``'s JSON answer, or None when the episode never reached it.
        session_id: The gateway session, if one was seeded.
        tools: The tool names the session offered.
        timings: Seconds per part (``seed_s``, ``model_s``, ``tools_s``, ``verify_s``, ``total_s``); missing: null.
        failure_kind: The adapter's own failure (the record is then masked); the gateway's is kept otherwise.
        failure_reason: Its words.
        steps: Model replies, when the adapter counts them.
        end_reason: Why the episode ended, when the adapter knows.

    Returns:
        The record as a JSON object (``format`` first, fields in the documented order).
    """
    verdict = verdict or {}
    task = verdict.get("task") or {}
    masked = failure_kind is not None or bool(verdict.get("mask_sample"))
    seconds: dict[str, float | None] = dict.fromkeys(_TIMINGS)
    seconds.update({k: round(v, 3) for k, v in (timings or {}).items() if v is not None and k in seconds})
    return {
        "format": EPISODE_FORMAT,
        "task_id": task_id,
        "repeat": 0,
        "adapter": adapter,
        "session_id": session_id,
        **{k: task.get(k) for k in ("family", "company", "seed", "split", "tier")},
        "apps": list(task.get("apps") or []),
        **{k: task.get(k) for k in ("exposure", "row_hash", "row")},
        "grader_version": verdict.get("grader_version"),
        "reward": 0.0 if masked else float(verdict.get("reward", 0.0)),
        "mask_sample": masked,
        "failure_kind": (failure_kind or verdict.get("failure_kind")) if masked else None,
        "failure_reason": (failure_reason or verdict.get("failure_reason")) if masked else None,
        "checks": list(verdict.get("checks") or []),
        "end_reason": end_reason,
        "steps": steps,
        "timings": seconds,
        "tools": list(tools or []),
        "tool_calls": list(verdict.get("tool_calls") or []),
        "changes": verdict.get("changes"),
        "trajectory": None,
        "regrade": None,
    }


def append_record(path: str | None, record: dict[str, Any]) -> None:
    """Append ``record`` as one JSON line to ``path`` (nothing when None); a failure is logged, not raised."""
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    except OSError:
        LOG.exception("could not append the episode record to %s", path)


class Control:
    """The gateway's control routes (``/seed_session``, ``/verify``, ``/close_session``, ``/renew_session``).

    Args:
        base_url: The gateway's base URL (``http://127.0.0.1:8000``).
        control_token: Sent as ``Authorization: Bearer ...`` when the gateway has one.
        timeout_s: Per request, seconds.

    Raises (from each call):
        httpx.HTTPError: the gateway could not be reached or answered an error status.
    """

    def __init__(self, base_url: str, control_token: str | None = None, timeout_s: float = 300.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {control_token}"} if control_token else {}
        self.timeout_s = timeout_s

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body`` to ``path`` and return the JSON answer."""
        async with httpx.AsyncClient(timeout=self.timeout_s, headers=self.headers) as client:
            response = await client.post(self.base_url + path, json=body)
            response.raise_for_status()
            answer: dict[str, Any] = response.json()
            return answer

    async def seed(self, task_id: str) -> dict[str, Any]:
        """Seed a session for ``task_id`` (MCP exposure, no sandbox); the gateway's seed answer."""
        return await self.post("/seed_session", {"task_id": task_id, "exposure": "mcp"})

    async def verify(self, session_id: str, response: str) -> dict[str, Any]:
        """Grade the session with the model's final text; ``/verify``'s answer."""
        return await self.post("/verify", {"session_id": session_id, "response": response})

    async def close(self, session_id: str) -> None:
        """Close the session (idempotent on the gateway's side)."""
        await self.post("/close_session", {"session_id": session_id})


_UNREACHABLE = ("connection attempts failed", "connection refused", "connecterror", "connectionerror",
                "name or service not known", "connect timeout")


def failure_of(errors: Any) -> tuple[str, str]:
    """``(failure_kind, reason)`` of a rollout that failed before ``finalize``, from its trace's errors.

    ``model_unreachable`` (no connection), ``model_api`` (the model answered with an HTTP error status) or
    ``model_error`` (anything else: a harness crash, a bad reply); the reason is the errors' text, cut to 500.
    """
    text = json.dumps(errors, default=str)
    if any(w in text.lower() for w in _UNREACHABLE):
        kind = "model_unreachable"
    elif any(w in text for w in ("APIStatusError", "BadRequestError", "NotFoundError", "status code", "status_code")):
        kind = "model_api"
    else:
        kind = "model_error"
    return kind, f"the rollout failed before it finished: {text}"[:500]
