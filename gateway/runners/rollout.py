"""``company-gateway rollout``: drive an OpenAI-compatible model through a session's MCP tools, then verify.

One episode: seed a session over the control plane (``{"task_id", "exposure": "mcp"}``), list its
tools over MCP, then one model call per step with the whole conversation so far. Every tool call the
model makes runs over MCP with the session's bearer token, and the tool's text (an error result's text
too) goes back to the model. The episode ends before the next model call once ``company_complete_task``
has succeeded (``completed``), when the model answers without a tool call (``no_tool_call``), at
``max_steps`` (``max_steps``), or when a step fails: the model endpoint failed (``model_error``: timeout,
HTTP error, connection refused, malformed reply) or the MCP transport did (``tool_error``). Then
``/verify`` grades the world (the model's last text is sent as ``response``) and ``/close_session``
closes it. Each episode is an :class:`~gateway.runners.episodes.EpisodeRecord` (one line of ``--output``):
the grade, the task and its row, the grader version and the change set from ``/verify``, with the
trajectory, the tools the model was offered (MCP ``tools/list``), every tool call the model made (``{"tool",
"ok", "offered", "s"}``: a call of a tool it was not offered too) and the timings seen here.

A failure of the model endpoint, the MCP transport or the control plane is an infrastructure failure,
never the model's mistake: it ends only its own episode, which is recorded with ``mask_sample: true``
and left out of the mean reward; the run goes on.

Two wire APIs: Chat Completions (``--api chat``) and Responses (``--api responses``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import anyio
import httpx
import openai
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from mcp import MCPError
from mcp.types import INVALID_PARAMS, METHOD_NOT_FOUND

from gateway.control.rows import Task, load_builtin_tasks, load_tasks
from gateway.exceptions import TaskError
from gateway.runners.episodes import EpisodeRecord
from gateway.runners.renewal import renewing
from gateway.runners.wires import WIRES, ModelError, ToolCall, Wire, ask, describe
from tools import COMPLETE_TASK

__all__ = [
    "END_REASONS",
    "SYSTEM_PROMPT",
    "EpisodeRecord",
    "RolloutConfig",
    "TaskSpec",
    "rollout",
    "run_episode",
    "run_rollout",
    "task_specs",
]

logger = logging.getLogger(__name__)

#: What the model is told before the request. Plain company words only: a test checks it against a word list.
SYSTEM_PROMPT = (
    "You are an assistant at the company, working in its office apps (mail, calendar, files, chat and the "
    "people directory) through the tools you have been given. A colleague has asked you to do something. "
    "Look up what you need with the tools instead of guessing, and change only what the request calls for. "
    "When the work is done, call company_complete_task once with a short summary of what you did; if you "
    "were asked a question, put only the answer itself in its answer field and anything else in the summary."
)

#: Why an episode ended. ``model_error``, ``tool_error``, ``seed_error`` and ``internal_error`` are masked.
END_REASONS = ("completed", "no_tool_call", "max_steps", "model_error", "tool_error", "seed_error", "internal_error")

#: Seconds a control-plane request (seed, verify, close) may take; a seed may wait for admission.
CONTROL_TIMEOUT_S = 300.0

#: Idle pooled connections to the gateway are dropped after 1 s, well before uvicorn's 5 s keep-alive
#: timeout, so a request is never sent on a connection the server is closing.
CONTROL_LIMITS = httpx.Limits(keepalive_expiry=1.0)

#: Attempts of ``/verify`` and ``/close_session`` (both idempotent) when the connection fails.
CONTROL_ATTEMPTS = 3

#: MCP errors that are the caller's mistake (unknown tool, bad parameters): their text goes back to the model.
_CALLER_MCP_ERRORS = (INVALID_PARAMS, METHOD_NOT_FOUND)

#: How the MCP transport fails (the client raises RuntimeError when it cannot connect).
_TRANSPORT_ERRORS = (
    RuntimeError, OSError, httpx.HTTPError, MCPError, anyio.BrokenResourceError, anyio.ClosedResourceError,
)  # fmt: skip


class _TransportFailed(Exception):
    """The MCP transport failed during a tool call."""


# ---- one episode ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskSpec:
    """A task to seed: by id (``row`` None) or as an inline row the gateway may not know."""

    task_id: str
    row: dict[str, Any] | None = None

    def seed_body(self) -> dict[str, Any]:
        """The ``POST /seed_session`` body, always with ``"exposure": "mcp"``."""
        if self.row is not None:
            return {"task": self.row, "exposure": "mcp"}
        return {"task_id": self.task_id, "exposure": "mcp"}


@dataclass
class RolloutConfig:
    """How episodes are driven.

    Attributes:
        model: Model name sent to the endpoint.
        api: ``"chat"`` (Chat Completions) or ``"responses"`` (Responses).
        max_steps: Most model calls per episode.
        concurrency: Most episodes running at once.
        repeats: Episodes per task (the k of pass@k).
        tool_timeout_s: Seconds one MCP tool call may take before it counts as a transport failure.
    """

    model: str
    api: Literal["chat", "responses"] = "chat"
    max_steps: int = 50
    concurrency: int = 4
    repeats: int = 1
    tool_timeout_s: float = 60.0


@contextlib.contextmanager
def _timed(record: EpisodeRecord, name: str) -> Iterator[None]:
    """Add the seconds of a ``with`` block to ``record.timings[name]``."""
    started = time.perf_counter()
    try:
        yield
    finally:
        record.timings[name] = (record.timings.get(name) or 0.0) + time.perf_counter() - started


async def _call_tool(mcp: Client[Any], call: ToolCall) -> tuple[str, bool]:
    """Run one tool call; returns (output text for the model, whether it succeeded).

    Raises:
        _TransportFailed: the MCP transport failed (not the model's doing).
    """
    try:
        arguments = json.loads(call.arguments or "{}")
    except ValueError as exc:
        return f"The arguments are not valid JSON ({exc}); send them as a JSON object.", False
    if not isinstance(arguments, dict):
        return 'The arguments must be a JSON object, such as {"name": "value"}.', False
    try:
        result = await mcp.call_tool(call.name, arguments, raise_on_error=False)
    except MCPError as exc:
        if exc.error.code in _CALLER_MCP_ERRORS:
            return exc.error.message, False
        raise _TransportFailed(f"{call.name}: MCP error {exc.error.code}: {describe(exc)}") from None
    except _TRANSPORT_ERRORS as exc:
        raise _TransportFailed(f"{call.name}: {type(exc).__name__}: {describe(exc)}") from None
    text = "".join(getattr(c, "text", "") for c in result.content)
    if not text and result.structured_content is not None:
        text = json.dumps(result.structured_content, ensure_ascii=False)
    return text, not result.is_error


async def _drive(record: EpisodeRecord, seed: dict[str, Any], client: openai.AsyncOpenAI, wire: Wire,
                 config: RolloutConfig) -> None:  # fmt: skip
    """The step loop of one seeded session; records the end reason, never raises for a failed step."""
    transport = StreamableHttpTransport(seed["mcp"]["url"], headers=seed["mcp"]["headers"])
    try:
        async with contextlib.AsyncExitStack() as stack:
            with _timed(record, "seed_s"):
                mcp = await stack.enter_async_context(Client(transport, timeout=config.tool_timeout_s))
                listed = await mcp.list_tools()
                tools = wire.tools(listed)
            record.tools = [t.name for t in listed]
            offered = set(record.tools)
            record.trajectory = conversation = wire.start(SYSTEM_PROMPT, seed["instruction"])
            for _ in range(config.max_steps):
                try:
                    with _timed(record, "model_s"):
                        turn = await ask(wire, client, config.model, conversation, tools)
                except ModelError as exc:
                    logger.warning("episode %s/%d: %s", record.task_id, record.repeat, exc)
                    record.end("model_error", masked=True, failure=str(exc))
                    return
                record.steps = (record.steps or 0) + 1
                record.last_text = turn.text or record.last_text
                if not turn.calls:
                    record.end("no_tool_call")
                    return
                completed = False
                for call in turn.calls:
                    began = time.perf_counter()
                    with _timed(record, "tools_s"):
                        output, ok = await _call_tool(mcp, call)
                    record.tool_calls.append({"tool": call.name, "ok": ok, "offered": call.name in offered,
                                              "s": round(time.perf_counter() - began, 3)})  # fmt: skip
                    if call.name not in offered:
                        logger.info("episode %s/%d: the model called %r, a tool it was not offered",
                                    record.task_id, record.repeat, call.name)  # fmt: skip
                    wire.add_result(conversation, call, output)
                    completed = completed or (ok and call.name == COMPLETE_TASK.tool_name)
                if completed:
                    record.end("completed")
                    return
            record.end("max_steps")
    except (_TransportFailed, *_TRANSPORT_ERRORS) as exc:  # a call, or connecting, listing tools, closing
        logger.warning("episode %s/%d: MCP transport failed: %s", record.task_id, record.repeat, exc)
        detail = str(exc) if isinstance(exc, _TransportFailed) else f"{type(exc).__name__}: {describe(exc)}"
        record.end("tool_error", masked=True, failure=f"MCP transport failed: {detail}")


async def run_episode(control: httpx.AsyncClient, client: openai.AsyncOpenAI, config: RolloutConfig,
                      spec: TaskSpec, repeat: int = 0) -> EpisodeRecord:  # fmt: skip
    """Seed, drive, verify and close one episode. Never raises for a failure of the model, MCP or the gateway.

    Args:
        control: Client of the gateway's control plane (``base_url`` set to the gateway).
        client: The model endpoint's client.
        config: How to drive (wire API, model, max steps).
        spec: The task to seed.
        repeat: Which repeat of the task this is (from 0).

    Returns:
        The episode's record; infrastructure failures have ``mask_sample`` true and ``failure_reason`` set.
    """
    record = EpisodeRecord(spec.task_id, repeat, adapter="rollout")
    record.timings.update(seed_s=0.0, model_s=0.0, tools_s=0.0, verify_s=0.0)
    started = time.perf_counter()
    try:
        try:
            with _timed(record, "seed_s"):
                seed = (await control.post("/seed_session", json=spec.seed_body())).raise_for_status().json()
        except (httpx.HTTPError, ValueError) as exc:
            detail = exc.response.text[:300] if isinstance(exc, httpx.HTTPStatusError) else describe(exc)
            record.end("seed_error", masked=True, failure=f"seed failed: {detail}")
            return record
        record.session_id = seed["session_id"]
        record.exposure = seed.get("exposure", "mcp")
        record.tools = list(seed.get("tools") or [])
        async with renewing(control, record.session_id, seed.get("lease_s")):  # a model turn may outlast the lease
            await _drive(record, seed, client, WIRES[config.api], config)
        await _verify_and_close(control, record)
    except Exception as exc:  # top-level handler of one episode: the run goes on
        logger.exception("episode %s/%d failed unexpectedly", spec.task_id, repeat)
        record.failure_reason = record.failure_reason or f"{type(exc).__name__}: {describe(exc)}"
        record.end("internal_error", masked=True)
        record.mask_sample = True
        await _close_quietly(control, record.session_id)  # leave no session open behind
    except BaseException:  # cancelled (Ctrl-C ends asyncio.run by cancelling): close, then go on stopping
        await _close_quietly(control, record.session_id)
        raise
    finally:
        record.timings["total_s"] = time.perf_counter() - started
    return record


async def _close_quietly(control: httpx.AsyncClient, session_id: str | None) -> None:
    """Close the session if there is one, within 5 s; a failure is left to the gateway's lease."""
    if session_id is not None:
        with contextlib.suppress(httpx.HTTPError, TimeoutError):
            await asyncio.wait_for(control.post("/close_session", json={"session_id": session_id}), 5)


async def _post_idempotent(control: httpx.AsyncClient, path: str, body: dict[str, Any]) -> httpx.Response:
    """POST to an idempotent control route, again when the connection fails (not on an HTTP error status).

    Raises:
        httpx.HTTPError: the last attempt failed, or the route answered an error status.
    """
    attempt = 1
    while True:
        try:
            return (await control.post(path, json=body)).raise_for_status()
        except httpx.TransportError as exc:
            if attempt >= CONTROL_ATTEMPTS:
                raise
            attempt += 1
            logger.warning("%s: %s; trying again", path, describe(exc))


async def _verify_and_close(control: httpx.AsyncClient, record: EpisodeRecord) -> None:
    with _timed(record, "verify_s"):
        try:
            body = {"session_id": record.session_id, "response": record.last_text}
            verdict = (await _post_idempotent(control, "/verify", body)).json()
            record.take_verdict(verdict)
        except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError) as exc:
            record.mask_sample = True
            record.failure_kind = record.failure_kind or "verify_error"
            record.failure_reason = record.failure_reason or f"verify failed: {describe(exc)}"
        try:
            await _post_idempotent(control, "/close_session", {"session_id": record.session_id})
        except httpx.HTTPError as exc:
            logger.warning("could not close session %s: %s", record.session_id, describe(exc))


async def run_rollout(gateway_url: str, specs: Sequence[TaskSpec], client: openai.AsyncOpenAI,
                      config: RolloutConfig,
                      on_episode: Callable[[EpisodeRecord], None] | None = None) -> list[EpisodeRecord]:  # fmt: skip
    """Every task ``config.repeats`` times, at most ``config.concurrency`` episodes at once.

    Args:
        gateway_url: Base URL of the gateway (control routes and ``/mcp``).
        specs: The tasks.
        client: The model endpoint's client.
        config: How to drive.
        on_episode: Called with each record as its episode ends (in the order they end).

    Returns:
        The records, in task order then repeat order.
    """
    gate = asyncio.Semaphore(config.concurrency)
    async with httpx.AsyncClient(base_url=gateway_url, timeout=CONTROL_TIMEOUT_S, limits=CONTROL_LIMITS) as control:

        async def one(spec: TaskSpec, repeat: int) -> EpisodeRecord:
            async with gate:
                record = await run_episode(control, client, config, spec, repeat)
            if on_episode is not None:
                on_episode(record)
            return record

        return list(await asyncio.gather(*(one(s, r) for s in specs for r in range(config.repeats))))


# ---- the command: tasks, gateway, output, progress, summary -------------------------------------------


def task_specs(values: Sequence[str] | None, served: Collection[str]) -> tuple[list[TaskSpec], dict[str, Task]]:
    """Turn ``--tasks`` values into specs: ids (comma-separated or repeated) and JSONL files of task rows.

    A value that names an existing file, or ends in ``.jsonl``, is a file of task rows; anything
    else is a task id, checked against ``served``. With no values, every served task.

    Returns:
        The specs (ids seed by id, file rows inline) and the rows read from files, by id.

    Raises:
        TaskError: an id names no served task, a row is invalid, or there is no task at all.
        OSError: a task file cannot be read.
    """
    items = [part.strip() for v in values or [] for part in v.split(",") if part.strip()]
    if not items:
        if not served:
            raise TaskError("--tasks: no tasks to run; name task ids or a JSONL file of task rows")
        return [TaskSpec(t) for t in served], {}
    specs: list[TaskSpec] = []
    rows: dict[str, Task] = {}
    for item in items:
        if item.endswith(".jsonl") or Path(item).is_file():
            loaded = load_tasks(item)
            rows.update(loaded)
            specs += [TaskSpec(t.id, t.model_dump(mode="json", exclude_none=True)) for t in loaded.values()]
        else:
            specs.append(TaskSpec(item))
    unknown = [s.task_id for s in specs if s.row is None and s.task_id not in served]
    if unknown:
        raise TaskError(f"--tasks: no task {', '.join(map(repr, unknown))}; 'company-gateway tasks' lists them")
    return specs, rows


@contextlib.asynccontextmanager
async def _gateway(url: str | None, tasks: dict[str, Task]) -> AsyncIterator[str]:
    """The gateway's base URL: ``url``, or one started here on loopback serving ``tasks``."""
    if url:
        yield url.rstrip("/")
        return
    from gateway.settings import Settings
    from gateway.surfaces.asgi import create_app
    from gateway.surfaces.serve import serve_in_background

    async with serve_in_background(create_app(Settings(), tasks)) as base:
        yield base


async def _served_ids(url: str) -> list[str]:
    """Task ids a running gateway serves (``GET /tasks``). Raises: httpx.HTTPError when it cannot be reached."""
    async with httpx.AsyncClient(timeout=30) as http:
        return [r["task_id"] for r in (await http.get(url.rstrip("/") + "/tasks")).raise_for_status().json()["tasks"]]


@contextlib.contextmanager
def _reporter(output: Path | None, total: int,
              show_progress: bool) -> Iterator[tuple[Callable[[EpisodeRecord], None], Callable[[], None]]]:  # fmt: skip
    """A callback that writes each record's JSONL line (file truncated first) and advances a progress bar.

    Also yields a function that starts the bar's clock: call it when the first episode starts.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("episodes"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
               TimeElapsedColumn())  # fmt: skip
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(output.open("w", encoding="utf-8")) if output else None
        progress = stack.enter_context(Progress(*columns, console=Console(stderr=True), disable=not show_progress))
        bar = progress.add_task("", total=total, start=False)
        ended: Counter[str] = Counter()

        def on_episode(record: EpisodeRecord) -> None:
            if out is not None:
                out.write(record.to_json() + "\n")
                out.flush()
            ended[record.end_reason or "?"] += 1
            progress.update(bar, advance=1, description=" ".join(f"{k}:{v}" for k, v in sorted(ended.items())))

        yield on_episode, lambda: progress.start_task(bar)


async def rollout(task_values: Sequence[str] | None, client: openai.AsyncOpenAI, config: RolloutConfig, *,
                  gateway_url: str | None = None, output: Path | None = None,
                  show_progress: bool = True,
                  clock: dict[str, float] | None = None) -> list[EpisodeRecord]:  # fmt: skip
    """What ``company-gateway rollout`` runs: resolve tasks, start a gateway if none is given, run, write JSONL.

    Args:
        task_values: ``--tasks`` values (see :func:`task_specs`); None or empty: every task the gateway serves.
        client: The model endpoint's client.
        config: How to drive.
        gateway_url: A running gateway; None starts one in this process on loopback (built-in tasks plus
            the rows of any task file).
        output: JSONL file written one line per episode as episodes end.
        show_progress: Draw a progress bar on stderr (its clock starts with the first episode).
        clock: When given, gets ``episodes_s``: seconds from the first seed to the last episode's end.

    Returns:
        The records, in task order then repeat order.

    Raises:
        TaskError: unknown task id or invalid task file (a usage error).
        OSError: a task file or the output file cannot be opened.
        httpx.HTTPError: ``gateway_url`` cannot be reached.
    """
    served: dict[str, Task] = {}
    if gateway_url:
        specs, _ = task_specs(task_values, await _served_ids(gateway_url))
    else:
        builtin = load_builtin_tasks()
        specs, rows = task_specs(task_values, builtin)
        served = {**builtin, **rows}
        specs = [TaskSpec(s.task_id) for s in specs]  # the gateway started here serves the file rows by id
    with _reporter(output, len(specs) * config.repeats, show_progress) as (on_episode, start_clock):
        async with _gateway(gateway_url, served) as base:
            start_clock()
            began = time.perf_counter()
            records = await run_rollout(base, specs, client, config, on_episode)
            if clock is not None:
                clock["episodes_s"] = time.perf_counter() - began
    return records
