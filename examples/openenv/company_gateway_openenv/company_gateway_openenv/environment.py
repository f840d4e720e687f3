"""The OpenEnv environment: one episode is one company-gateway session.

- ``reset(task_id=...)``, or ``reset(split=..., family=..., seed=...)`` (a task drawn from the listing file by
  ``seed``): seeds a session (MCP exposure, no sandbox) and answers the instruction, the session id and the tool
  names in the observation's ``metadata``. A session still open from an earlier episode is closed unscored.
- ``step(ListToolsAction())``: the session's tools (names, descriptions, input schemas, as the gateway gives them).
- ``step(CallToolAction(tool_name, arguments))``: one call on the session's tool; the result is the MCP
  ``tools/call`` result (``content``, ``structuredContent``, ``isError``). A ``company_complete_task`` that
  succeeds ends the episode.
- ``step(CallToolAction(tool_name="end_episode", arguments={"response": text}))``: ends the episode with the
  model's final text (when it stops without completing). Not a tool: it is never listed.
- At the end the session is verified and closed: the observation has ``done=True`` and ``reward`` = ``/verify``'s
  reward, with ``metadata`` holding ``mask_sample``, ``failure_kind``, ``failure_reason``, ``checks`` and the
  ``episode`` record (also appended to the episodes file when one is set). A masked session has ``reward=None``
  and ``mask_sample=True``: it is never reported as 0.
- ``state``: episode id, step count, task, session, whether it is done, its reward and mask.
- ``close()`` (the client went away, or the server stops): closes a session still open, unscored, and appends a
  masked record (``failure_kind: "client_gone"``: the client's model or loop failed before the episode ended).
"""

from __future__ import annotations

import json
import logging
import random
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.mcp_types import (
    CallToolAction,
    CallToolObservation,
    ListToolsAction,
    ListToolsObservation,
    Tool,
    ToolError,
    ToolErrorType,
)
from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State

from company_gateway_openenv.episode import Control, McpError, append_record, episode_record

__all__ = ["END_EPISODE", "CompanyGatewayEnvironment", "GatewayConfig", "GatewayEnvState"]

LOG = logging.getLogger(__name__)

#: The control action that ends an episode with the model's final text (never a tool the model sees).
END_EPISODE = "end_episode"
COMPLETE_TASK = "company_complete_task"
SPLITS = ("train", "validation", "test")


@dataclass(frozen=True)
class GatewayConfig:
    """Where the gateway is and which tasks ``reset`` may draw from.

    Attributes:
        gateway_url: The running gateway's base URL.
        control_token: The gateway's control token, when it has one.
        tasks_file: ``company-gateway tasks --json > tasks.jsonl``; needed to reset by split or family.
        episodes_file: A JSONL file each episode appends its record to (none when None).
        timeout_s: Per gateway request, seconds.
    """

    gateway_url: str = "http://127.0.0.1:8000"
    control_token: str | None = None
    tasks_file: str | None = None
    episodes_file: str | None = None
    timeout_s: float = 300.0


class GatewayEnvState(State):
    """OpenEnv's state plus the episode's task, session, end and grade."""

    task_id: str | None = None
    session_id: str | None = None
    done: bool = False
    reward: float | None = None
    mask_sample: bool = False
    failure_kind: str | None = None


class CompanyGatewayEnvironment(Environment[Action, Observation, GatewayEnvState]):
    """One company-gateway session per episode (see the module docstring for the contract)."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, config: GatewayConfig | None = None) -> None:
        super().__init__()
        self.config = config or GatewayConfig()
        self._control: Control | None = None
        self._state = GatewayEnvState()
        self._mcp_url = ""
        self._mcp_headers: dict[str, str] = {}
        self._tools: list[Tool] = []
        self._timings: dict[str, float | None] = {}
        self._started = 0.0

    # ---- OpenEnv's contract ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, episode_id: str | None = None, task_id: str | None = None,
              split: str | None = None, family: str | None = None, **kwargs: Any) -> Observation:  # fmt: skip
        """Seed a session for ``task_id``, or for a task of ``split``/``family`` drawn with ``seed``.

        Raises:
            ValueError: no task named, a bad split, nothing in the listing matches, or no listing file.
            httpx.HTTPError: the gateway refused the seed or could not be reached.
        """
        self._finish_unscored("abandoned", "a new episode was reset before this one ended")
        chosen = task_id or self._draw(seed, split, family)
        self._started = time.perf_counter()
        control = self._control = Control(self.config.gateway_url, self.config.control_token, self.config.timeout_s)
        seeded = control.post("/seed_session", {"task_id": chosen, "exposure": "mcp"})
        self._state = GatewayEnvState(episode_id=episode_id or str(uuid.uuid4()), step_count=0, task_id=chosen,
                                      session_id=seeded["session_id"])  # fmt: skip
        self._mcp_url = seeded["mcp"]["url"]
        self._mcp_headers = dict(seeded["mcp"]["headers"])
        listed = control.mcp(self._mcp_url, self._mcp_headers, "tools/list", {})
        self._tools = [Tool(name=t["name"], description=t.get("description") or "", input_schema=t.get("inputSchema")
                            or {}) for t in listed.get("tools") or []]  # fmt: skip
        self._timings = {"seed_s": time.perf_counter() - self._started, "tools_s": 0.0}
        return Observation(done=False, reward=None, metadata={
            "task_id": chosen, "session_id": seeded["session_id"], "instruction": seeded["instruction"],
            "tools": [t.name for t in self._tools]})  # fmt: skip

    def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        """List the tools, call one, or end the episode (see the module docstring)."""
        if isinstance(action, ListToolsAction):
            return ListToolsObservation(tools=list(self._tools), done=self._state.done, reward=self._state.reward)
        if not isinstance(action, CallToolAction):
            raise ValueError(f"action: expected list_tools or call_tool, got {type(action).__name__}")
        name = action.tool_name
        if self._control is None or self._state.done:
            return self._refused(name, "the episode has ended (or never began): reset to start one")
        self._state.step_count += 1
        if name == END_EPISODE:
            return self._finish(name, None, str(action.arguments.get("response") or ""))
        started = time.perf_counter()
        try:
            result = self._control.mcp(self._mcp_url, self._mcp_headers, "tools/call",
                                       {"name": name, "arguments": action.arguments})  # fmt: skip
        except McpError as exc:
            return CallToolObservation(tool_name=name, error=ToolError(error_type=ToolErrorType.INVALID_ARGS,
                                                                       message=str(exc)))  # fmt: skip
        except httpx.HTTPError as exc:
            why = f"tools/call {name} failed: {type(exc).__name__}: {exc}"
            return self._finish(name, None, "", failure=("transport_unreachable", why))
        finally:
            self._timings["tools_s"] = (self._timings.get("tools_s") or 0.0) + time.perf_counter() - started
        if name == COMPLETE_TASK and not result.get("isError"):
            return self._finish(name, result, "")
        return CallToolObservation(tool_name=name, result=result, done=False, reward=None)

    @property
    def state(self) -> GatewayEnvState:
        """The episode's state (see :class:`GatewayEnvState`)."""
        return self._state

    def close(self) -> None:
        """Close a session still open (unscored, with a masked record) and release the connections."""
        self._finish_unscored("client_gone", "the client went away before the episode ended (its model or loop failed)")

    def get_metadata(self) -> EnvironmentMetadata:
        """The environment's name and what it does."""
        return EnvironmentMetadata(name="company_gateway", version="0.1.0",
                                   description="An office world per episode: mail, calendar, files, chat and a "
                                   "directory as MCP tools; the reward grades the final world.")  # fmt: skip

    # ---- the episode's end ----------------------------------------------------------------------

    def _finish(self, name: str, result: dict[str, Any] | None, response: str,
                failure: tuple[str, str] | None = None) -> Observation:  # fmt: skip
        """Verify (unless ``failure``), close, record; the last observation of the episode."""
        assert self._control is not None
        control, session_id = self._control, self._state.session_id
        started = time.perf_counter()
        verdict: dict[str, Any] | None = None
        kind, reason = failure or (None, None)
        if failure is None:
            try:
                verdict = control.post("/verify", {"session_id": session_id, "response": response})
            except httpx.HTTPError as exc:
                kind, reason = "transport_unreachable", f"verify failed: {type(exc).__name__}: {exc}"
        self._close_session()
        self._timings["verify_s"] = time.perf_counter() - started
        self._timings["total_s"] = time.perf_counter() - self._started
        record = episode_record("openenv", self._state.task_id or "", verdict, session_id=session_id,
                                tools=[t.name for t in self._tools], timings=self._timings, failure_kind=kind,
                                failure_reason=reason, steps=self._state.step_count,
                                end_reason="complete_task" if name == COMPLETE_TASK else name)  # fmt: skip
        append_record(self.config.episodes_file, record)
        masked = bool(record["mask_sample"])
        reward = None if masked else float(record["reward"])
        self._state.done, self._state.reward = True, reward
        self._state.mask_sample, self._state.failure_kind = masked, record["failure_kind"]
        metadata = {k: record[k] for k in ("mask_sample", "failure_kind", "failure_reason", "checks")}
        metadata["episode"] = record
        return CallToolObservation(tool_name=name, result=result, done=True, reward=reward, metadata=metadata)

    def _refused(self, name: str, why: str) -> Observation:
        error = ToolError(error_type=ToolErrorType.EXECUTION_ERROR, message=why)
        return CallToolObservation(tool_name=name, error=error, done=self._state.done, reward=self._state.reward)

    def _close_session(self) -> None:
        control, self._control = self._control, None
        if control is None:
            return
        try:
            if self._state.session_id is not None:
                control.post("/close_session", {"session_id": self._state.session_id})
        except httpx.HTTPError:
            LOG.exception("could not close company-gateway session %s", self._state.session_id)
        finally:
            control.close()

    def _finish_unscored(self, kind: str, reason: str) -> None:
        """Close a live session without verifying it (a reset mid-episode, the client gone); record it masked."""
        if self._control is not None and not self._state.done:
            session_id = self._state.session_id
            self._close_session()
            self._state.done = True
            self._timings["total_s"] = time.perf_counter() - self._started
            record = episode_record("openenv", self._state.task_id or "", None, session_id=session_id,
                                    tools=[t.name for t in self._tools], timings=self._timings, failure_kind=kind,
                                    failure_reason=reason, steps=self._state.step_count)  # fmt: skip
            append_record(self.config.episodes_file, record)
            self._state.mask_sample, self._state.failure_kind = True, kind

    # ---- task selection -------------------------------------------------------------------------

    def _draw(self, seed: int | None, split: str | None, family: str | None) -> str:
        """A task id from the listing file of this split and family, drawn with ``seed``."""
        if split is None and family is None:
            raise ValueError("reset: name a task_id, or a split and/or family to draw from")
        if split is not None and split not in SPLITS:
            raise ValueError(f"split: {split!r} is not a split; use train, validation or test")
        if not self.config.tasks_file or not Path(self.config.tasks_file).is_file():
            raise ValueError("reset by split or family needs the server's --tasks-file "
                             "(`company-gateway tasks --json > tasks.jsonl`)")  # fmt: skip
        lines = Path(self.config.tasks_file).read_text(encoding="utf-8").splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
        ids = [r["task_id"] for r in rows if (split is None or r.get("split", "train") == split)
               and (family is None or (r.get("family") or "none") == family)]  # fmt: skip
        if not ids:
            raise ValueError(f"no task in {self.config.tasks_file!r} of split={split!r} family={family!r}")
        return random.Random(seed).choice(ids)
