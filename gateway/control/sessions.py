"""Sessions: one world per session, an opaque signed bearer token, and the session's status.

A session moves through ``active`` -> (``complete``) -> ``verifying`` -> ``verified``
-> ``closed``. Its token opens its own world and no other, and stops working
once the session is verifying, verified or closed.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

from gateway.control.rows import Task
from gateway.exceptions import UnknownSession
from sandbox import Sandbox
from tools import World, quote

__all__ = ["CALLS_KEPT", "LIVE", "EndedSessions", "Session", "SessionStore"]

#: Statuses in which the session's token opens its world.
LIVE = frozenset({"active", "complete"})

#: Tool calls a session keeps the name and outcome of, for ``/verify``'s ``tool_calls`` (the first ones).
CALLS_KEPT = 1000


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
        self._signer = URLSafeSerializer(secret or secrets.token_urlsafe(32), salt=salt)
        self._prefix = f"{incarnation}." if incarnation else ""
        self._sessions: dict[str, Session] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def new_token(self, session_id: str) -> str:
        """A token naming ``session_id``, signed, with a random nonce so no two are alike."""
        return self._prefix + str(self._signer.dumps([session_id, secrets.token_urlsafe(9)]))

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
            session_id, _nonce = self._signer.loads(token[len(self._prefix) :])
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
