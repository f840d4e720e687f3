"""The control plane: seed, call, task state, verify and close, independent of any transport.

Every surface (MCP tools, HTTP endpoints, shell commands) reaches the world
through :meth:`Gateway.call`, so a call has the same effect whichever way it
came in. The per-session lock is held through a whole call, and ``verify`` and
``close`` take the same lock.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

from gateway.control import cpushare, quotas, release
from gateway.control.admission import Admission, Turn, Turns
from gateway.control.leases import Leases
from gateway.control.metrics import Metrics
from gateway.control.offload import run_call
from gateway.control.quotas import QuotaExceeded, check_quotas, check_text, check_written, restore, text_size
from gateway.control.reaping import ABANDONED, abandoned_result, destroy_all, reap_leftovers
from gateway.control.rows import Task, parse_task, task_facts, tools_for
from gateway.control.runmarks import RunMark, ended_runs, runs_folder
from gateway.control.sessions import (
    LIVE,
    EndedSessions,
    Session,
    SessionStore,
    closed_unverified,
    json_copy,
    offered,
    seed_answer,
    seed_options,
    state_of,
    verdict_of_closed,
)
from gateway.control.workspace import (
    FILES_OFF_LOOP,
    FilesNeeded,
    ProviderFailed,
    SandboxFiles,
    destroy_quietly,
    lend_sandbox,
)
from gateway.control.worlds import Templates, WorldTemplate
from gateway.exceptions import SandboxUnavailable, SessionClosed, ShuttingDown, TaskError, UnknownSession
from gateway.grading import AnswerText, Request, grade
from gateway.grading.changes import diff
from gateway.grading.changeset import change_set
from gateway.grading.version import grader_version
from gateway.settings import Settings
from sandbox import Provider, ProviderUnavailable
from tools import COMPLETE_TASK, REGISTRY, Action, AppError, Context, quote
from tools.companies import company, set_company_cache_size
from tools.kernel.documents import set_document_cache_limit, set_text_cache_limit

__all__ = [
    "OFF_LOOP_WRITTEN_CHARS",
    "SERVER_FAULT_MESSAGE",
    "SLOW_ON_LOOP_S",
    "SWITCH_INTERVAL_S",
    "CallRefused",
    "Gateway",
    "QuotaExceeded",
    "ServerFault",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")


async def _before_the_work(wait: Awaitable[T], session: Session, backup: Any) -> T:
    """Await ``wait`` (a share's wait, a lane's turn) before a call's work runs.

    A cancel puts back the state ``quotas.backup`` made: nothing has run yet.
    """
    try:
        return await wait
    except asyncio.CancelledError:
        restore(session, backup)
        raise


def _leave_after(lane: cpushare.Lane, session: Session, start: float, spent: list[float], _: object) -> None:
    """End a thread lane's turn when the call's thread has ended, charging the CPU it spent."""
    lane.leave(session, start, sum(spent))


class CallRefused(Exception):
    """A tool call the session's state does not allow (HTTP 409); the text is safe to show the caller."""


#: What the caller reads when a call fails through a fault of this server (a bug, not the caller's input).
SERVER_FAULT_MESSAGE = (
    "the request could not be completed because of a fault on the server; nothing was changed. "
    "Try a different request, or carry on with other steps."
)

#: Characters a session without a sandbox may have written before its calls run in a worker thread rather than
#: on the event loop: past this, what it wrote makes its searches cost more than the loop should wait for
#: (``python -m bench.filled``: ~110 ms at the 5 M character quota, ~10 ms for a fixture's own world).
OFF_LOOP_WRITTEN_CHARS = 250_000

#: Seconds a tool's call may hold the event loop before that tool's later calls (of every session) run in a worker
#: thread instead (searches over a large world: ~10 ms; a cheap read ~0.3 ms; the hop to a thread ~0.3 ms).
SLOW_ON_LOOP_S = 0.003

#: The interpreter's switch interval while the app serves (``sys.setswitchinterval``; Python's default is 5 ms):
#: how long a worker thread running an action may keep the GIL while the event loop waits for it.
SWITCH_INTERVAL_S = 0.001


class ServerFault(Exception):
    """A tool call failed on an unexpected error of the server's own (HTTP 500); the world was rolled back.

    The session is marked failed (``failure_kind: "internal_error"``), so its verification is masked.
    """


class Gateway:
    """Sessions, their worlds and the operations on them.

    Args:
        settings: The server's settings.
        tasks: Task id to task: the rows ``/seed_session`` may name by id.
    """

    def __init__(self, settings: Settings, tasks: dict[str, Task], provider: Provider | None = None) -> None:
        self.settings = settings
        self.tasks = tasks
        #: Lends sandboxes to sessions that ask for one; None when the server lends none.
        self.provider = provider
        self.store = SessionStore(settings.session_secret, incarnation=settings.incarnation)
        self._reaped = False  # reap() has run: at start only
        self._mark: RunMark | None = None  # held from reap() to shutdown(): this run is alive (runmarks.py)
        #: This run's id, labelled on every sandbox it lends (a restart reaps only expired sandboxes or its own).
        self.incarnation = settings.incarnation or secrets.token_hex(6)
        #: Deadlines of live sessions; one whose lease runs out is closed as abandoned (:meth:`abandon`).
        self.leases = Leases(settings.session_lease_s, self.abandon)
        self.actions: dict[str, Action] = {**REGISTRY.by_tool_name(), COMPLETE_TASK.tool_name: COMPLETE_TASK}
        #: Closed sessions' last task state (with their verify result), kept for retries; expires by age and count.
        self.ended = EndedSessions(settings.closed_session_ttl_s, settings.max_closed_sessions,
                                   max_bytes=settings.max_closed_session_bytes)  # fmt: skip
        self._facts: dict[str, tuple[dict[str, Any], str]] = {}  # served task id -> (task_facts, grader_version)
        #: The tasks' initial worlds, built off the event loop and kept (least recently used out).
        self.templates = Templates(tasks)
        self.release = release.Release(settings.memory_trim_interval_s)  # files' text; the heap, to the system
        self._slow_tools: set[str] = set()  # tools whose calls run off the loop (see SLOW_ON_LOOP_S)
        self._file_tools: set[str] = set()  # tools that reached for a lent workspace's files: off the loop when lent
        #: Fair order between sessions' calls once two sessions call at once: on the loop, and computing in a thread.
        self.loop_lane = cpushare.Lane("loop_tag", yields=True)
        self.thread_lane = cpushare.Lane("thread_tag", yields=False)
        self._calling = 0  # sessions with a call past their lock
        #: Sessions with a request open at the server's front (set by the surfaces' session gate).
        self.requesting = 0
        set_text_cache_limit(settings.text_cache_max_bytes)  # shared by the process: the last gateway's bounds win
        set_document_cache_limit(settings.document_cache_max_bytes)
        set_company_cache_size(settings.company_cache_size)
        self.admission = Admission(settings.max_concurrent_sessions, settings.admission_timeout_s)
        self.turns = Turns(settings.seed_slice_s)
        self.metrics = Metrics()
        #: True once shutdown has begun: seeds are refused (503).
        self.closing = False
        self._starting = 0  # seeds starting a sandbox right now
        self._started = asyncio.Event()
        self._started.set()

    # ---- seed ---------------------------------------------------------------------------------

    async def seed(self, body: dict[str, Any], base_url: str) -> dict[str, Any]:
        """Build a session from ``{"task_id"}`` or ``{"task": row}`` (optional ``"exposure"``, ``"sandbox"``).

        A sandbox is lent when ``"sandbox": true``, or by default for the ``cli`` and
        ``http`` exposures (their tools live in a shell); ``"sandbox": false`` opts out.

        Args:
            body: The request body of ``POST /seed_session``.
            base_url: Absolute base URL of this server, ending in ``/``.

        Returns:
            The seed response of the control-plane contract (docs/control-plane.md).

        Raises:
            TaskError: unknown task id, invalid row, exposure or sandbox option.
            SandboxUnavailable: the sandbox could not be started (nothing is held).
        """
        task, inline = await self._task_of(body)
        block_ok = (
            self.provider is not None and self.provider.supports_egress_policy and self.settings.sandbox_block_internet
        )
        exposure, want_sandbox = seed_options(body, task, lends=self.provider is not None, can_block=block_ok)
        if self.closing:
            raise ShuttingDown("the server is shutting down; no new sessions")
        arrived = time.perf_counter()
        template = await self.templates.for_seed(task, inline)  # an inline row is checked before it takes a slot
        self.metrics.seeds_queued.inc()
        try:
            admission_wait = await self.admission.acquire()
        finally:
            self.metrics.seeds_queued.dec()
        self.metrics.admission_wait.observe(admission_wait)
        try:
            session, turn, build_s = await self._build(task, exposure, template)
            if want_sandbox:
                await self._lend(session, exposure, base_url)
        except BaseException:
            self.admission.release()
            raise
        self.store.add(session)
        self.leases.add(session.id)
        self.metrics.sessions_live.set(len(self.store))
        logger.info(
            "seed session=%s task=%s exposure=%s place=%d admission_wait_ms=%.1f turn_wait_ms=%.1f build_ms=%.1f "
            "total_ms=%.1f live=%d",
            session.id, task.id, exposure, turn.place, admission_wait * 1000, turn.wait_s * 1000, build_s * 1000,
            (time.perf_counter() - arrived) * 1000, len(self.store),
        )  # fmt: skip
        return seed_answer(session, self.settings.mcp_server_name, base_url, self.leases.lease_s)

    async def _build(self, task: Task, exposure: str, template: WorldTemplate) -> tuple[Session, Turn, float]:
        """Make the session's world in this seed's turn (see :class:`~gateway.control.admission.Turns`).

        The template is built already (:meth:`Templates.for_seed`), so a turn costs ~0.1 ms.
        """

        def build() -> tuple[Session, float]:
            if self.closing:
                raise ShuttingDown("the server is shutting down; no new sessions")
            started = time.perf_counter()
            world = template.instantiate()
            sid = self.store.new_id()
            session = Session(
                id=sid,
                task=task,
                exposure=exposure,
                tools=tools_for(task, exposure),
                world=world,
                initial=template.snapshot,
                token=self.store.new_token(sid),
            )
            build_s = time.perf_counter() - started
            self.metrics.seed_build.observe(build_s)
            return session, build_s

        (session, build_s), turn = await self.turns.run(build)
        self.metrics.seed_wait.observe(turn.wait_s)
        return session, turn, build_s

    def _template(self, task: Task) -> WorldTemplate:
        """The shared initial world of ``task``, built here if need be (callers off the event loop: prove, tests)."""
        return self.templates.get(task)

    async def _lend(self, session: Session, exposure: str, base_url: str) -> None:
        """Start and prepare the session's sandbox; a seed that finishes after shutdown began gives it back."""
        assert self.provider is not None
        world, task = session.world, session.task
        people = getattr(world.states["directory"], "people", {})
        name = next((p.name for p in people.values() if p.email == world.user), world.user)
        api_url = f"{(self.settings.sandbox_base_url or base_url).rstrip('/')}/api"
        self._starting += 1
        self._started.clear()
        if self._mark is not None:
            self._mark.touch()  # before the sandbox exists: the mark outlives every expiry this run labels
        try:
            session.sandbox = await lend_sandbox(
                self.provider, session_id=session.id, apps=task.apps, exposure=exposure, api_url=api_url,
                token=session.token, user=world.user, user_name=name, company=company(task.world.fixture).name,
                files=task.workspace,
                ttl_s=self.settings.sandbox_ttl_s, image=task.image, incarnation=self.incarnation,
                disk_bytes=self.settings.workspace_max_bytes,
            )  # fmt: skip
        except ProviderUnavailable as exc:
            self.metrics.sandbox_failures.labels(step="create").inc()
            logger.error("seed session=%s task=%s: sandbox could not start: %s", session.id, task.id, exc)
            raise SandboxUnavailable("the sandbox could not be started; try again later") from None
        finally:
            self._starting -= 1
            if self._starting == 0:
                self._started.set()
        if self.closing:
            await self._release_sandbox(session)
            raise ShuttingDown("the server is shutting down; no new sessions")

    async def _task_of(self, body: dict[str, Any]) -> tuple[Task, bool]:
        """The task a seed names and whether it came inline; an inline row is parsed in a worker thread."""
        if not isinstance(body, dict):
            raise TaskError("the body must be a JSON object with 'task_id' or 'task'")
        unknown = set(body) - {"task_id", "task", "exposure", "sandbox", "block_internet"}
        if unknown:
            raise TaskError(
                f"unknown fields {sorted(unknown)}; send 'task_id' or 'task', "
                "optional 'exposure', 'sandbox', 'block_internet'"
            )
        if ("task_id" in body) == ("task" in body):
            raise TaskError("send exactly one of 'task_id' (a known task) or 'task' (an inline task row)")
        if "task" in body:
            return await asyncio.to_thread(parse_task, body["task"], "task"), True
        tid = body["task_id"]
        if not isinstance(tid, str):  # a number, list or object (a list is unhashable: 400, not 500)
            sent = json.dumps(tid)
            raise TaskError(f"task_id: must be a string (a task id; GET /tasks lists them), not {sent[:60]}")
        if tid not in self.tasks:
            raise TaskError(f"task_id: no task {quote(tid)}; GET /tasks lists them")
        return self.tasks[tid], False

    # ---- calls --------------------------------------------------------------------------------

    async def call(self, session: Session, tool: str, arguments: dict[str, Any] | None, *, surface: str = "mcp") -> Any:
        """Run one tool call on the session's world, under the session's lock.

        A write that fails leaves the world exactly as it was.

        Args:
            session: The caller's session (from its token).
            tool: Tool name, e.g. ``company_gmail_send_message``.
            arguments: Parameter name to value.
            surface: How the call came in: ``"mcp"`` may call only the session's MCP tools;
                ``"http"`` and ``"cli"`` may call any action of the task's apps and ``company_complete_task``.

        Returns:
            The action's JSON-able result.

        Raises:
            AppError: bad arguments or a request the world refuses (the caller's mistake; text for the caller);
                :class:`QuotaExceeded` when the write would take the session past ``session_max_stored_bytes``
                or ``session_max_new_records`` (the write is undone whole).
            CallRefused: the session no longer takes calls, or the tool is not offered to it.
        """
        self.leases.renew(session.id)
        async with session.lock:
            self._calling += 1
            try:
                return await self._call_locked(session, tool, arguments, surface)
            finally:
                self._calling -= 1

    def _contended(self) -> bool:
        """Whether another session calls too: its request is open at the front, or its call under way here."""
        return max(self._calling, self.requesting) > 1

    async def _call_locked(self, session: Session, tool: str, arguments: dict[str, Any] | None, surface: str) -> Any:
        if session.status not in LIVE:
            raise CallRefused("this session is no longer open; no further changes are possible")
        if tool not in self.actions or not offered(session, self.actions[tool], surface):
            raise CallRefused(f"Unknown tool: {quote(tool)}")  # FastMCP's words for a name it lacks: one wording
        if self.settings.close_tools_on_task_end and session.task_complete:
            raise CallRefused("the work was already marked complete; no further changes are possible")
        action = self.actions[tool]
        backup = None if action.read_only else quotas.backup(session, action)
        started = time.perf_counter()
        try:
            check_text(arguments or {})
            written = 0 if action.read_only else text_size(arguments or {})
            check_written(self.settings, session, written)
            uploaded = 0  # characters of text in files taken from the workspace and stored
            lent = session.sandbox is not None and self.provider is not None
            result, off_loop = None, True
            needs_files = lent and tool in self._file_tools
            share = self.settings.session_cpu_share
            if len(self.store) > 1 and (wait := cpushare.wait_s(session, share)) > 0:
                self.metrics.cpu_share_wait.inc(wait)
                await _before_the_work(asyncio.sleep(wait), session, backup)
            if session.written_chars <= OFF_LOOP_WRITTEN_CHARS and tool not in self._slow_tools and not needs_files:
                # On the loop: a thread hop costs ~0.3 ms a call, and what a call costs is bounded by its
                # inputs and the world's size (the worst search of a fixture's world takes ~10 ms). A tool
                # that once took longer than SLOW_ON_LOOP_S here runs off the loop from then on; so does one
                # that once reached for a lent workspace's files (they are read and written off the loop).
                lane = self.loop_lane if self._contended() else None  # another session calls too: take turns
                start = await _before_the_work(lane.enter(session), session, backup) if lane else 0.0
                on_loop = time.perf_counter()
                try:
                    result = action.invoke(Context(session.world, action.app, FILES_OFF_LOOP if lent else None),
                                           arguments)  # fmt: skip
                    off_loop = False
                except FilesNeeded:  # undone, and run again off the loop below
                    self._file_tools.add(tool)
                    restore(session, backup)
                    backup = None if action.read_only else quotas.backup(session, action)
                finally:
                    held = time.perf_counter() - on_loop
                    if lane:
                        lane.leave(session, start, held + cpushare.CALL_COST_S)
                    cpushare.charge(session, held, share)
                    if held > SLOW_ON_LOOP_S:
                        self._slow_tools.add(tool)
            if off_loop:
                # Off the loop, in a worker thread that hands the GIL back every SWITCH_INTERVAL_S: file I/O
                # goes through the provider; a session that wrote much text can make searches over it that
                # cost more (~110 ms at the text quota); a slow tool's next call may cost as much again.
                files = None
                if lent:
                    assert self.provider is not None and session.sandbox is not None
                    loop, limit = asyncio.get_running_loop(), self.settings.max_file_bytes
                    files = SandboxFiles(self.provider, session.sandbox, loop, max_bytes=limit,
                                         workspace_max_bytes=self.settings.workspace_max_bytes)  # fmt: skip
                ctx: Context[Any] = Context(session.world, action.app, files)
                spent: list[float] = []
                # A call that only computes takes its turn among the others that do (one thread at a time); one
                # that reaches for workspace files mostly waits for them and goes at once.
                lane = self.thread_lane if self._contended() and not lent else None
                start = await _before_the_work(lane.enter(session), session, backup) if lane else 0.0
                try:
                    work = run_call(action, ctx, arguments, files, spent)  # in the call pool: gateway.control.offload
                except BaseException:
                    if lane:
                        lane.leave(session, start, 0.0)
                    raise
                if lane:  # the turn ends with the thread, however this coroutine ends
                    work.add_done_callback(functools.partial(_leave_after, lane, session, start, spent))
                try:
                    result, uploaded = await asyncio.shield(work)
                except asyncio.CancelledError:  # a thread cannot be stopped: let it end, then undo it
                    await asyncio.wait([work])
                    restore(session, backup)
                    session.record_call(tool, ok=False)
                    raise
                finally:
                    if work.done():  # its thread's CPU, and the time its saves spent counting the workspace's size
                        cpushare.charge(session, sum(spent) + (files.count_s if files else 0.0), share)
            if backup is not None:
                check_written(self.settings, session, written, uploaded)
                check_quotas(self.settings, session, backup)
        except ProviderFailed as exc:
            restore(session, backup)
            session.record_call(tool, ok=False)
            if session.failure is None:
                session.failure = ("provider_unavailable", exc.reason)
            logger.error("call session=%s tool=%s: provider failed: %s", session.id, tool, exc.reason)
            raise
        except (AppError, CallRefused):  # the caller's mistake: roll back, graded as usual
            restore(session, backup)
            session.record_call(tool, ok=False)
            raise
        except Exception as exc:  # ours: roll back, and mask the session (its reward would not be the model's)
            restore(session, backup)
            session.record_call(tool, ok=False)
            if session.failure is None:
                session.failure = ("internal_error", f"{tool} failed: {type(exc).__name__}")
            logger.exception("call session=%s tool=%s: unexpected error", session.id, tool)
            raise ServerFault(f"{tool}: {type(exc).__name__}") from exc
        finally:
            session.world.end_write()
            self.metrics.tool_call.labels(app=action.app or "none").observe(time.perf_counter() - started)
        session.written_chars += written + uploaded
        session.record_call(tool, ok=True)
        self.leases.renew(session.id)  # a call may outlast the lease: it counts from its end too
        return result

    # ---- state, verify, close -----------------------------------------------------------------

    def task_state(self, session_id: str, renew: bool = True) -> dict[str, Any]:
        """``GET /task_state``: the state the last whole call left, and the ``/verify`` result once there is one.

        Asking renews a live session's lease, unless ``renew`` is False (a watcher's look, as the router's).

        Returns:
            ``{"session_id", "status", "task_complete", "calls", "last_call", "verify_result"}``;
            ``verify_result`` is the body ``/verify`` answers, or None while the session is unverified (and
            for good once it was closed unverified: ``/verify`` then answers 409).

        Raises:
            UnknownSession: No session has that id (never seeded, or closed and since forgotten).
        """
        ended = self.ended.get(session_id)
        if ended is not None:
            return json_copy(ended)
        state = state_of(self.store.get(session_id))
        if renew:
            self.leases.renew(session_id)
        return json_copy(state)

    def renew(self, session_id: str) -> dict[str, Any]:
        """``POST /renew_session``: extend the session's lease to ``session_lease_s`` from now.

        Returns:
            ``{"session_id", "expires_at": Unix seconds (None with leases off), "lease_s"}``.

        Raises:
            UnknownSession: No session has that id (never seeded, or closed and since forgotten).
            SessionClosed: The session is closed (as abandoned too: its ``/verify`` tells why).
        """
        if session_id in self.ended:
            raise SessionClosed(f"session {quote(session_id)} is closed; seed a new one")
        self.store.get(session_id)
        expires = self.leases.renew(session_id)
        return {"session_id": session_id, "expires_at": expires, "lease_s": self.leases.lease_s}

    async def verify(self, session_id: str, response: str | None = None) -> dict[str, Any]:
        """``POST /verify``: grade the final world; every later ask gets the same answer.

        The answer: ``reward``, ``checks``, ``mask_sample``, ``failure_kind``, ``failure_reason``, the
        ``grader_version`` that scored it, the ``task`` (:func:`gateway.control.rows.task_facts` and the session's
        ``exposure``), the ``tool_calls`` (``{"tool", "ok"}``, the first :data:`~gateway.control.sessions.CALLS_KEPT`)
        and the session's ``changes`` (:func:`gateway.grading.changeset.change_set`). Once verified, the first
        result is answered again (``response`` is then ignored), before and after close. A session closed
        before it was verified answers :class:`SessionClosed` every time, also when the close came in while a
        call held the session and this verify waited behind it.

        Raises:
            UnknownSession: No session has that id (never seeded, or closed and since forgotten).
            SessionClosed: The session was closed before it was verified.
        """
        ended = self.ended.get(session_id)
        if ended is not None:
            return verdict_of_closed(session_id, ended)
        s = self.store.get(session_id)
        self.leases.renew(session_id)
        async with s.lock:
            if s.verify_result is not None:
                return json_copy(s.verify_result)
            if s.status == "closed":  # closed while this verify waited for the lock
                raise closed_unverified(session_id)
            s.status = "verifying"
            await self._release_sandbox(s)  # nothing left running may change the result
            said = AnswerText(answer=s.world.answer, summary=s.world.completion, response=response)
            request = Request(s.task.instruction, s.world.user, s.world.now.year)
            final = s.world.snapshot()
            changes = diff(s.initial, final)
            result = grade(s.task.checks, s.task.allowed_changes, s.initial, final, said, s.world.blobs, request,
                           changes)  # fmt: skip
            masked = s.failure is not None
            facts, version = self._facts_of(s.task)
            s.verify_result = {
                "session_id": s.id,
                "reward": 0.0 if masked else result.reward,
                "checks": [c.as_dict() for c in result.checks],
                "mask_sample": masked,
                "failure_kind": s.failure[0] if s.failure else None,
                "failure_reason": s.failure[1] if s.failure else None,
                "grader_version": version,
                "task": {**facts, "exposure": s.exposure},
                "tool_calls": list(s.call_log),
                "changes": change_set(changes, s.world.blobs, said),
            }
            s.status = "verified"
            if masked:
                self.metrics.masked.labels(kind=s.failure[0] if s.failure else "unknown").inc()
            logger.info(
                "verify session=%s task=%s reward=%s mask=%s calls=%d",
                s.id, s.task.id, s.verify_result["reward"], masked, s.calls,
            )  # fmt: skip
            return json_copy(s.verify_result)

    def _facts_of(self, task: Task) -> tuple[dict[str, Any], str]:
        """The task's facts and grader version; a served task's are worked out once (and its row dict shared)."""
        served = self.tasks.get(task.id) is task
        known = self._facts.get(task.id) if served else None
        if known is None:
            known = task_facts(task), grader_version(task.checks, task.allowed_changes)
            if served:
                self._facts[task.id] = known
        return known

    async def close(self, session_id: str) -> dict[str, Any]:
        """``POST /close_session``: release the session's world; ``{"session_id", "closed": true}`` every time.

        Its last task state (and verify result) is kept for ``closed_session_ttl_s``, at most
        ``max_closed_sessions`` of them; after that the session is forgotten.

        Raises:
            UnknownSession: No session has that id (never seeded, or closed and since forgotten).
        """
        closed = {"session_id": session_id, "closed": True}
        if session_id in self.ended:
            return closed
        s = self.store.get(session_id)
        async with s.lock:
            if s.status == "closed":  # closed while this close waited for the lock
                return closed
            await self._end(s)
        logger.info("close session=%s task=%s calls=%d", s.id, s.task.id, s.calls)
        return closed

    async def _end(self, s: Session) -> None:
        """Close a session (its lock held): sandbox destroyed, state kept for retries, world and slot freed."""
        s.status = "closed"
        self.leases.drop(s.id)
        await self._release_sandbox(s)
        state = state_of(s)  # not copied: what is kept is never changed, and every answer is a copy
        self.ended.add(s.id, state, len(json.dumps(state, ensure_ascii=False)))
        self.release.session_ended(s.world.blobs.own_ids())  # its files' text (kept for its searches); a trim
        self.store.forget(s.id)
        self.admission.release()
        self.metrics.sessions_live.set(len(self.store))

    async def abandon(self, session_id: str) -> bool:
        """Close a session whose lease ran out; returns False when it was renewed meanwhile (or is gone).

        An unverified session's ``/verify`` answers :func:`~gateway.control.reaping.abandoned_result` from then
        on (masked, ``failure_kind: "abandoned"``); a verified one keeps its result. Either way its sandbox is
        destroyed, its world dropped and its slot freed, as ``/close_session`` does.
        """
        try:
            s = self.store.get(session_id)
        except UnknownSession:
            return True
        async with s.lock:
            if s.status == "closed":
                return True
            if not self.leases.expired(session_id):  # a call or renewal came in while this waited
                return False
            if s.verify_result is None:
                facts, version = self._facts_of(s.task)
                task = {**facts, "exposure": s.exposure}
                s.verify_result = abandoned_result(s.id, self.leases.lease_s, task, version, s.call_log)
                self.metrics.masked.labels(kind=ABANDONED).inc()
            self.metrics.abandoned.inc()
            await self._end(s)
        logger.warning("abandoned session=%s task=%s calls=%d: no call or renewal for %g s",
                       s.id, s.task.id, s.calls, self.leases.lease_s)  # fmt: skip
        return True

    async def _release_sandbox(self, session: Session) -> None:
        if session.sandbox is not None and self.provider is not None:
            if not await destroy_quietly(self.provider, session.sandbox, session.id):
                self.metrics.sandbox_failures.labels(step="destroy").inc()
            session.sandbox = None

    def begin_shutdown(self) -> None:
        """Refuse new seeds from now on (503), including seeds still waiting for a slot or a turn."""
        if not self.closing:
            logger.info("shutdown: refusing new seeds; live=%d starting=%d", len(self.store), self._starting)
        self.closing = True
        self.admission.close()

    async def shutdown(self, deadline_s: float | None = None) -> None:
        """Stop: refuse seeds, wait for seeds starting a sandbox, then destroy every lent sandbox.

        Args:
            deadline_s: Seconds to wait for seeds that are starting a sandbox
                (default ``shutdown_timeout_s`` less 2 s). Sandboxes are destroyed
                concurrently, 64 at a time; each that cannot be stopped is logged at
                ERROR with its session, for a reaper.
        """
        self.begin_shutdown()
        if deadline_s is None:
            deadline_s = max(0.0, self.settings.shutdown_timeout_s - 2.0)
        if self._starting:
            try:
                await asyncio.wait_for(self._started.wait(), deadline_s)
            except TimeoutError:
                logger.error("shutdown: %d seed(s) still starting a sandbox after %.1f s", self._starting, deadline_s)
        await self.leases.stop()
        if self.provider is None:
            return
        started = time.perf_counter()
        n = await destroy_all([s for s in self.store.all() if s.sandbox is not None], self._release_sandbox)
        logger.info("shutdown: released %d sandbox(es) in %.2f s", n, time.perf_counter() - started)
        if self._mark is not None:
            self._mark.release()
            self._mark = None

    async def reap(self) -> int:
        """Destroy this owner's sandboxes whose lifetime passed, of this run, or of an ended run on this host.

        Sandboxes of other gateways sharing the engine and owner label are left alone while they live. This run
        is marked as alive from now until :meth:`shutdown` (docs/control-plane.md#reaping).

        Returns:
            How many were destroyed; 0 after the first call (``serve`` reaps before the app starts, and the app's
            start-up reaps too, for servers started otherwise: once is enough).
        """
        if self.provider is None or self._reaped:
            return 0
        self._reaped = True
        ended = await asyncio.to_thread(ended_runs)
        try:
            self._mark = await asyncio.to_thread(RunMark, self.incarnation, self.settings.sandbox_ttl_s)
        except OSError as exc:
            logger.warning("cannot mark this run as alive in %s (%s): if it is killed, a restart reaps its "
                           "sandboxes only once they expire", runs_folder(), exc)  # fmt: skip
        held = {s.sandbox.id for s in self.store.all() if s.sandbox is not None}
        return await reap_leftovers(self.provider, held, self.incarnation, lambda sb: sb.labels.get("session", "?"),
                                    ended)  # fmt: skip

    def session_by_token(self, token: str) -> Session | None:
        """The live session a bearer token opens, else None; a session found has its lease renewed."""
        if (session := self.store.by_token(token)) is not None:
            self.leases.renew(session.id)
        return session

    def get_session(self, session_id: str) -> Session:
        """A held session by id.

        Raises:
            UnknownSession: none held with that id (never seeded, or closed).
        """
        if session_id in self.ended:
            raise UnknownSession(f"session {quote(session_id)} is closed")
        return self.store.get(session_id)
