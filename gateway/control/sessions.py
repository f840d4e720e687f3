"""Sessions: one world per session, an opaque signed bearer token, and the session's status.

A session moves through ``active`` -> (``complete``) -> ``verifying`` -> ``verified``
-> ``closed``. Its token opens its own world and no other, and stops working
once the session is verifying, verified or closed.
"""

from __future__ import annotations

import asyncio
import copy
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from itsdangerous import BadSignature, Signer

from gateway.control.rows import Task
from gateway.exceptions import SessionClosed, TaskError, UnknownSession
from sandbox import Sandbox
from tools import COMPLETE_TASK, Action, World, quote

__all__ = [
    "CALLS_KEPT",
    "LIVE",
    "EndedSessions",
    "Session",
    "SessionStore",
    "closed_unverified",
    "json_copy",
    "offered",
    "seed_answer",
    "seed_options",
    "state_of",
    "verdict_of_closed",
]

#: Statuses in which the session's token opens its world.
LIVE = frozenset({"active", "complete"})

#: Tool calls a session keeps the name and outcome of, for ``/verify``'s ``tool_calls`` (the first ones).
CALLS_KEPT = 1000
J = TypeVar("J")


@dataclass
class Session:
    """One session's world and bookkeeping.

    Attributes:
        id: Session id, e.g. ``"s_3f9a..."``.
        task: The task row the world was built from.
        exposure: How the tools are offered (``mcp``, ``cli`` or ``http``).
        tools: Tool names offered to this session's MCP client.
        world: The live world.
        initial: Snapshot of the world at seed, for grading.
        token: The bearer token.
        status: active, complete, verifying, verified or closed.
        calls: Completed tool calls (successful or not).
        last_call: ``{"tool", "ok", "at"}`` of the last whole call, or None.
        call_log: ``{"tool", "ok"}`` of each whole call, in order: the first :data:`CALLS_KEPT`.
        verify_result: The ``/verify`` response, once verified.
        failure: ``(kind, reason)`` when an infrastructure failure masks the reward.
        sandbox: The lent sandbox, until verify or close destroys it.
    """

    id: str
    task: Task
    exposure: str
    tools: list[str]
    world: World
    initial: dict[str, Any]
    token: str
    status: str = "active"
    calls: int = 0
    last_call: dict[str, Any] | None = None
    call_log: list[dict[str, Any]] = field(default_factory=list)
    verify_result: dict[str, Any] | None = None
    failure: tuple[str, str] | None = None
    sandbox: Sandbox | None = None
    created: float = field(default_factory=time.time)
    #: Characters of text the session's changes have written so far (``session_max_written_chars``).
    written_chars: int = 0
    #: CPU seconds the session's off-loop calls spent and has not yet paid back, as of ``cpu_owed_at``
    #: (``time.monotonic()``): see :mod:`gateway.control.cpushare`.
    cpu_owed_s: float = 0.0
    cpu_owed_at: float = 0.0
    #: Finish tags of the session's last call in the gateway's fair lanes (:class:`gateway.control.cpushare.Lane`).
    loop_tag: float = 0.0
    thread_tag: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    #: Whether ``company_complete_task`` has succeeded, as of the last whole call (a call under way
    #: may have set the world's completion already; this changes only when the call is over).
    task_complete: bool = False

    def record_call(self, tool: str, ok: bool) -> None:
        """Count a whole call and remember it as the last one."""
        self.calls += 1
        self.last_call = {"tool": tool, "ok": ok, "at": time.time()}
        if len(self.call_log) < CALLS_KEPT:
            self.call_log.append({"tool": tool, "ok": ok})
        self.task_complete = self.world.completion is not None
        if ok and self.status == "active" and self.task_complete:
            self.status = "complete"


class SessionStore:
    """Live sessions by id, and signed tokens that name them.

    Args:
        secret: Key that signs tokens; a random 32-byte key when None (per process).
        incarnation: Id of this server's run (e.g. a cluster replica's); when set, every token starts
            with ``"<incarnation>."`` and is signed for it, so a restart that shares the secret
            (and perhaps the port) refuses the tokens of the earlier run.
    """

    def __init__(self, secret: str | None = None, incarnation: str | None = None) -> None:
        salt = f"session-token:{incarnation}" if incarnation else "session-token"
        self._signer = Signer(secret or secrets.token_urlsafe(32), salt=salt)
        self._prefix = f"{incarnation}." if incarnation else ""
        self._sessions: dict[str, Session] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def new_token(self, session_id: str) -> str:
        """A token naming ``session_id``, signed, with a random nonce so no two are alike."""
        # "<id>~<nonce>.<signature>": only characters a bearer token may hold; signed, not serialized (a
        # serializer compresses even a payload this small: 0.4 ms a token)
        return self._prefix + self._signer.sign(f"{session_id}~{secrets.token_urlsafe(9)}").decode()

    def add(self, session: Session) -> None:
        """Register a new session."""
        self._sessions[session.id] = session

    def get(self, session_id: str) -> Session:
        """The session with this id.

        Raises:
            UnknownSession: No session has that id.
        """
        try:
            return self._sessions[session_id]
        except KeyError:
            raise UnknownSession(f"no session with id {quote(session_id)}") from None

    def by_token(self, token: str) -> Session | None:
        """The live session this token opens, or None (bad signature, unknown, or no longer live)."""
        if not token.startswith(self._prefix):
            return None
        try:
            session_id, _nonce = self._signer.unsign(token[len(self._prefix) :]).decode().split("~")
        except (BadSignature, ValueError, TypeError):
            return None
        session = self._sessions.get(session_id)
        if session is None or session.status not in LIVE:
            return None
        if not hmac.compare_digest(session.token, token):
            return None
        return session

    def new_id(self) -> str:
        """A fresh, unguessable session id."""
        return "s_" + secrets.token_hex(8)

    def all(self) -> list[Session]:
        """Every session still held."""
        return list(self._sessions.values())

    def forget(self, session_id: str) -> None:
        """Drop a session's world (after close); unknown ids are ignored."""
        self._sessions.pop(session_id, None)


class EndedSessions:
    """What closed sessions left (their last ``/task_state``), kept a while so retries get the same answer.

    An entry expires ``ttl_s`` seconds after its session closed, and the oldest go first once more than
    ``max_count`` are held or their sizes add up to more than ``max_bytes``, so memory stays bounded however
    many sessions the server has served (a verify result carries its change set: a few KB, at most about
    2.5 MB). An expired session is forgotten: it answers as one never seeded.

    Args:
        ttl_s: Seconds an entry is kept after its session closed.
        max_count: Most entries kept; closing one more drops the oldest.
        clock: Seconds on a monotonic clock (``time.monotonic``; a test passes its own).
        max_bytes: Most bytes the entries' sizes (as :meth:`add` is told them) add up to; None: no bound.
    """

    def __init__(
        self, ttl_s: float, max_count: int, clock: Callable[[], float] = time.monotonic, max_bytes: int | None = None
    ) -> None:
        self.ttl_s = ttl_s
        self.max_count = max_count
        self.max_bytes = max_bytes
        self._clock = clock
        # in closing order: id -> (closed at, state, size)
        self._entries: dict[str, tuple[float, dict[str, Any], int]] = {}
        self._bytes = 0

    def __len__(self) -> int:
        self._expire()
        return len(self._entries)

    def __contains__(self, session_id: object) -> bool:
        return self.get(session_id) is not None

    def add(self, session_id: str, state: dict[str, Any], size: int = 0) -> None:
        """Keep ``state`` (the session's last task state, ``size`` bytes) for the closed session ``session_id``."""
        old = self._entries.pop(session_id, None)
        if old is not None:
            self._bytes -= old[2]
        self._entries[session_id] = (self._clock(), state, size)
        self._bytes += size
        self._expire()

    def get(self, session_id: object) -> dict[str, Any] | None:
        """The kept state of a closed session (the caller must not change it), or None: unknown or expired."""
        self._expire()
        entry = self._entries.get(session_id) if isinstance(session_id, str) else None
        return None if entry is None else entry[1]

    def _expire(self) -> None:
        """Drop entries past their age, and the oldest beyond ``max_count`` or ``max_bytes`` (O(1) per dropped)."""
        entries = self._entries
        oldest = self._clock() - self.ttl_s
        budget = self.max_bytes
        while entries:
            sid, (closed_at, _, size) = next(iter(entries.items()))
            if len(entries) <= self.max_count and closed_at > oldest and (budget is None or self._bytes <= budget):
                break
            del entries[sid]
            self._bytes -= size


def state_of(s: Session) -> dict[str, Any]:
    """A session's task state (its verify result not copied)."""
    return {
        "session_id": s.id,
        "status": s.status,
        "task_complete": s.task_complete,
        "calls": s.calls,
        "last_call": dict(s.last_call) if s.last_call else None,
        "verify_result": s.verify_result,
    }


def closed_unverified(session_id: str) -> SessionClosed:
    """What ``/verify`` raises for a session closed before it was verified (409, the same every time)."""
    why = "was closed without being verified; there is nothing left to grade"
    return SessionClosed(f"session {quote(session_id)} {why}")


def verdict_of_closed(session_id: str, ended: dict[str, Any]) -> dict[str, Any]:
    """What ``/verify`` answers for a closed session: its verify result, else :class:`SessionClosed`."""
    result = ended.get("verify_result")
    if result is None:
        raise closed_unverified(session_id)
    return dict(copy.deepcopy(result))


def offered(session: Session, action: Action, surface: str) -> bool:
    """Whether ``action`` may be called by ``session`` through ``surface`` (``mcp``: only its own tools)."""
    if surface == "mcp":
        return action.tool_name in session.tools
    return action is COMPLETE_TASK or action.app in session.task.apps


def seed_answer(session: Session, server_name: str, base_url: str, lease_s: float = 0.0) -> dict[str, Any]:
    """``/seed_session``'s answer for a new session (the control-plane contract, docs/control-plane.md).

    Args:
        session: The new session.
        server_name: The MCP server's name (``mcp_server_name``).
        base_url: Absolute base URL of this server.
        lease_s: The session's lease in seconds (``session_lease_s``; 0: none), answered as ``lease_s`` so a
            client knows how often to ``/renew_session`` (every third of it).
    """
    base = base_url.rstrip("/")
    sandbox = session.sandbox
    return {
        "session_id": session.id,
        "task_id": session.task.id,
        "instruction": session.task.instruction,
        "exposure": session.exposure,
        "tools": list(session.tools),
        "mcp": {
            "server_name": server_name,
            "url": f"{base}/mcp",
            "transport": "streamable_http",
            "headers": {"Authorization": f"Bearer {session.token}"},
        },
        "company_api_url": f"{base}/api",
        "token": session.token,
        "lease_s": lease_s,
        "sandbox": None
        if sandbox is None
        else {"provider": sandbox.provider, "id": sandbox.id, "workspace": sandbox.workspace},
    }


def seed_options(body: dict[str, Any], task: Task, *, lends: bool, can_block: bool) -> tuple[str, bool]:
    """The exposure and whether to lend a sandbox, from a ``/seed_session`` body and its task.

    A sandbox is lent when ``"sandbox": true``, or by default for the ``cli`` and ``http`` exposures
    (their tools live in a shell); ``"sandbox": false`` opts out.

    Args:
        body: The seed body (``"exposure"``, ``"sandbox"``, ``"block_internet"`` optional).
        task: The task it names.
        lends: Whether this server lends sandboxes at all.
        can_block: Whether it can limit a sandbox's network (``block_internet``).

    Returns:
        ``(exposure, lend a sandbox)``.

    Raises:
        TaskError: a bad exposure or option, or one this server cannot honour.
    """
    exposure = body.get("exposure") or task.exposure
    if exposure not in ("mcp", "cli", "http"):
        raise TaskError(f"exposure must be 'mcp', 'cli' or 'http', not {quote(exposure)}")
    want_sandbox = body.get("sandbox", task.sandbox)
    if want_sandbox is None:
        want_sandbox = exposure in ("cli", "http") and lends
    if not isinstance(want_sandbox, bool):
        raise TaskError("sandbox: must be true or false")
    if want_sandbox and not lends:
        raise TaskError('sandbox: this server lends no sandboxes (sandbox_provider is "none"); seed without one')
    block = body.get("block_internet", False)
    if not isinstance(block, bool):
        raise TaskError("block_internet: must be true or false")
    if block and not (want_sandbox and can_block):
        raise TaskError(
            "block_internet: this server cannot limit a sandbox's network; it needs sandbox_provider "
            '"opensandbox" with sandbox_block_internet on (the local and docker providers cannot enforce it)'
        )
    return exposure, want_sandbox


def json_copy(value: J) -> J:
    """A deep copy of a JSON value (dicts, lists and scalars): what an answer body is; ~3x faster than ``deepcopy``."""
    return cast(J, _json_copy(value))


#: Types of the values a copy shares (immutable scalars): copied inline, without a call each.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else _json_copy(v) for v in value]
    return value
