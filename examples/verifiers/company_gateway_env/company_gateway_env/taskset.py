"""The taskset: one task per gateway task, loaded from ``company-gateway tasks --json`` output.

A rollout's life: ``setup`` seeds a gateway session for the task (MCP exposure, no sandbox) and puts its MCP
URL and bearer header into the rollout's state, where the toolset finds them; the harness plays the task
with the session's tools; ``finalize`` verifies with the model's last reply and closes the session; the
``gateway`` reward is ``/verify``'s reward. A session the gateway masks (or one the adapter could not reach)
raises in ``finalize``: verifiers records the rollout as errored, never as a 0.0. A rollout that fails before
``finalize`` (its model unreachable or answering errors, its harness crashing) skips it: the environment's own
``finalize`` then closes that session and writes a masked episode record (``model_unreachable``,
``model_api`` or ``model_error``); sessions still open when the environment worker stops are closed then.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any, ClassVar

import httpx
import verifiers.v1 as vf
from pydantic import Field

from company_gateway_env.episode import Control, append_record, episode_record, failure_of
from company_gateway_env.toolset import GatewayState, SessionToolset

__all__ = [
    "CompanyGatewayConfig",
    "CompanyGatewayEnv",
    "CompanyGatewayTask",
    "CompanyGatewayTaskConfig",
    "CompanyGatewayTaskset",
    "CompanyTaskData",
]

LOG = logging.getLogger(__name__)
SPLITS = ("train", "validation", "test")


class CompanyGatewayTaskConfig(vf.TaskConfig):
    """Where the gateway is (``--env.taskset.task.gateway-url``) and where episode records go."""

    gateway_url: str = "http://127.0.0.1:8000"
    """The running gateway's base URL."""
    control_token: str | None = None
    """The gateway's control token, when it has one."""
    timeout_s: float = Field(300.0, gt=0)
    """Per control or MCP request, seconds."""
    episodes_file: str | None = None
    """A JSONL file each rollout appends its episode record to (company-gateway regrade reads it)."""


class CompanyGatewayConfig(vf.TasksetConfig):
    """Which tasks: a listing file, narrowed by split, family and ids."""

    tasks_file: Path = Path("tasks.jsonl")
    """``company-gateway tasks --json [--split S] [--family F] > tasks.jsonl`` (one object per task)."""
    split: str | None = None
    """``train``, ``validation`` or ``test``; None for every split in the file."""
    family: list[str] = Field(default_factory=list)
    """Family names to keep (``none``: the hand-written rows); empty for all."""
    task_ids: list[str] = Field(default_factory=list)
    """Task ids to keep, in this order; empty for all."""
    tools: vf.SharedToolsetConfig = vf.SharedToolsetConfig()
    task: CompanyGatewayTaskConfig = CompanyGatewayTaskConfig()


class CompanyTaskData(vf.TaskData):
    """A gateway task as the listing gives it (no solution, no checks: those stay in the gateway)."""

    task_id: str
    family: str | None = None
    split: str = "train"
    apps: list[str] = Field(default_factory=list)


#: Sessions seeded in this worker and not yet closed: session id -> the control client that seeded it.
_OPEN: dict[str, Control] = {}


class CompanyGatewayTask(vf.Task[CompanyTaskData, GatewayState, CompanyGatewayTaskConfig]):
    """One gateway task: seed on setup, verify and close on finalize, the gateway's reward."""

    @property
    def key(self) -> str:
        """The gateway's task id (stable across runs)."""
        return self.data.task_id

    def _control(self) -> Control:
        return Control(self.config.gateway_url, self.config.control_token, self.config.timeout_s)

    async def setup(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        """Seed the session and hand its MCP URL and header to the toolset through the rollout's state."""
        state: GatewayState = trace.state
        started = time.perf_counter()
        control = self._control()
        seeded = await control.seed(self.data.task_id)
        _OPEN[seeded["session_id"]] = control
        state.session_id = seeded["session_id"]
        state.mcp_url = seeded["mcp"]["url"]
        state.mcp_headers = dict(seeded["mcp"]["headers"])
        state.tools = list(seeded.get("tools") or [])
        state.timeout_s = self.config.timeout_s
        trace.info["company_gateway"] = {"seed_s": round(time.perf_counter() - started, 3)}

    async def finalize(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        """Verify with the last reply and close the session; raise when the session is masked."""
        state: GatewayState = trace.state
        info: dict[str, Any] = trace.info.setdefault("company_gateway", {})
        started = time.perf_counter()
        verdict: dict[str, Any] | None = None
        kind = reason = None
        if state.session_id is None:
            kind, reason = "seed_error", "the rollout has no gateway session"
        else:
            control = self._control()
            try:
                verdict = await control.verify(state.session_id, trace.last_reply or "")
            except httpx.HTTPError as exc:
                kind, reason = "transport_unreachable", f"verify failed: {type(exc).__name__}: {exc}"
            try:
                await control.close(state.session_id)
                _OPEN.pop(state.session_id, None)
            except httpx.HTTPError:
                LOG.exception("could not close company-gateway session %s", state.session_id)
        if state.failure and kind is None:
            kind, reason = "transport_unreachable", state.failure
        timings = {"seed_s": info.get("seed_s"), "tools_s": state.tools_s, "verify_s": time.perf_counter() - started}
        record = episode_record("verifiers", self.data.task_id, verdict, session_id=state.session_id,
                                tools=state.tools, timings=timings, failure_kind=kind, failure_reason=reason,
                                steps=len(trace.model_calls) if hasattr(trace, "model_calls") else None)  # fmt: skip
        append_record(self.config.episodes_file, record)
        info.update({k: record[k] for k in ("reward", "mask_sample", "failure_kind", "failure_reason", "checks")})
        info["session_id"] = state.session_id
        if record["mask_sample"]:
            raise vf.TaskError(f"masked by the gateway: {record['failure_kind']}: {record['failure_reason']}")

    @vf.reward(weight=1.0)
    async def gateway(self, trace: vf.Trace) -> float:
        """``/verify``'s reward (1.0 only when every check holds)."""
        return float(trace.info["company_gateway"]["reward"])


class CompanyGatewayTaskset(vf.Taskset[CompanyGatewayTask, CompanyGatewayConfig]):
    """The gateway's tasks from a listing file, by split, family and id; the session's tools as MCP."""

    @classmethod
    def toolsets(cls, config: CompanyGatewayConfig) -> list[vf.Toolset]:
        """One shared toolset server that forwards to each rollout's own session."""
        return [SessionToolset(config.tools)]

    def load(self) -> list[CompanyGatewayTask]:
        """The selected tasks, in file order (or in ``task_ids`` order when given).

        Raises:
            ValueError: no listing file, a bad split, or an id or family that selects nothing.
        """
        config = self.config
        if config.split is not None and config.split not in SPLITS:
            raise ValueError(f"split: {config.split!r} is not a split; use train, validation or test")
        path = config.tasks_file.expanduser()
        if not path.is_file():
            raise ValueError(f"tasks_file: no file {str(path)!r}; write one with "
                             "`company-gateway tasks --json > tasks.jsonl`")  # fmt: skip
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        families = set(config.family)
        rows = [r for r in rows if (config.split is None or r.get("split", "train") == config.split)
                and (not families or (r.get("family") or "none") in families)]  # fmt: skip
        if config.task_ids:
            by_id = {r["task_id"]: r for r in rows}
            missing = [t for t in config.task_ids if t not in by_id]
            if missing:
                raise ValueError(f"task_ids: no task {missing[0]!r} in {str(path)!r} (after split and family)")
            rows = [by_id[t] for t in config.task_ids]
        if not rows:
            raise ValueError(f"no task in {str(path)!r} matches split={config.split!r} family={sorted(families)}")
        return [CompanyGatewayTask(_data(i, row), config.task) for i, row in enumerate(rows)]


def _data(idx: int, row: dict[str, Any]) -> CompanyTaskData:
    return CompanyTaskData(idx=idx, name=row["task_id"], prompt=row["instruction"], task_id=row["task_id"],
                           family=row.get("family"), split=row.get("split") or "train",
                           apps=list(row.get("apps") or []))  # fmt: skip


class CompanyGatewayEnv(vf.SingleAgentEnv):
    """The single-agent environment: masks and closes what a failed rollout left, and every session on stop."""

    open_sessions: ClassVar[dict[str, Control]] = _OPEN

    async def finalize(self, task: vf.Task, episode: vf.Episode) -> None:
        """Close the session of each rollout that failed before its task's ``finalize``, with a masked record."""
        for trace in episode.traces:
            session_id = getattr(trace.state, "session_id", None)
            control = _OPEN.pop(session_id, None) if session_id else None
            if control is None or not isinstance(task, CompanyGatewayTask):
                continue
            kind, reason = failure_of([e.model_dump() if hasattr(e, "model_dump") else e for e in trace.errors])
            try:
                await control.close(session_id)
            except httpx.HTTPError:
                LOG.exception("could not close company-gateway session %s", session_id)
            record = episode_record("verifiers", task.data.task_id, None, session_id=session_id,
                                    tools=list(getattr(trace.state, "tools", []) or []),
                                    failure_kind=kind, failure_reason=reason)  # fmt: skip
            append_record(task.config.episodes_file, record)
            trace.info["company_gateway"] = {k: record[k] for k in ("reward", "mask_sample", "failure_kind",
                                                                   "failure_reason")}  # fmt: skip
        await super().finalize(task, episode)

    async def stop(self) -> None:
        """Close the sessions still open, then stop as usual."""
        for session_id, control in list(_OPEN.items()):
            try:
                await control.close(session_id)
                _OPEN.pop(session_id, None)
            except httpx.HTTPError:
                LOG.exception("could not close company-gateway session %s", session_id)
        await super().stop()


