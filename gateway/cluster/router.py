"""The seed router of a scaled-out gateway: places new sessions on replicas, routes verify and close by session.

Tool calls never pass through here: a seed's response (forwarded unchanged) holds
its replica's absolute URLs, so agents call their replica directly. Routes:

- ``POST /seed_session``: to the replica with the fewest live sessions under its cap; 503 when every
  replica is full, lost or shutting down.
- ``POST /verify``, ``GET /task_state``, ``POST /close_session``, ``POST /renew_session``: to the session's
  replica. A lost
  replica's sessions verify masked: ``{"session_id", "reward": 0.0, "checks": [], "mask_sample": true,
  "failure_kind": "replica_lost", "failure_reason", "grader_version": null, "task": null, "tool_calls": [],
  "changes": null}``.
- ``GET /metrics``: every replica's metrics, each sample labelled ``replica="<name>"``.
- ``GET /health``: ``{"ok", "replicas", "lost", "live"}``.

Control routes answer only peers in ``trusted_networks`` (the socket peer, as in the gateway).
A replica is lost when its ``/health`` does not answer in time or ``alive`` says it died. Each probe also
reads the replica's ``gateway_sessions_live`` (``/metrics``) as its count against the cap; when that count is below
the sessions the router holds open there, the router looks at each of them (``GET /task_state?renew=false``, which
does not extend a lease) and counts closed those the replica ended on its own (their lease ran out: the caller
died), so ``/health``'s ``live`` and a drain's wait do not wait for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gateway.exceptions import UnknownSession
from gateway.surfaces.guards import json_body, session_id_of, trusted_only
from tools import quote

__all__ = ["ReplicaRef", "Router", "create_router_app"]

logger = logging.getLogger(__name__)


@dataclass
class ReplicaRef:
    """One replica as the router sees it.

    Attributes:
        name: Label in metrics and logs, e.g. ``"r0"``.
        url: Absolute base URL, e.g. ``"http://10.0.0.5:41234"``.
        incarnation: The replica run's id (its tokens start with it).
        live: Sessions seeded here and not yet closed.
        lost: Set once the replica stopped answering or its actor died.
        lost_reason: Why it was marked lost.
    """

    name: str
    url: str
    incarnation: str = ""
    live: int = 0
    seeding: int = 0
    lost: bool = False
    lost_reason: str = ""
    handle: Any = field(default=None, repr=False)  # e.g. the Ray actor handle, for ``alive``


@dataclass
class _Routed:
    replica: ReplicaRef
    closed: bool = False
    failure: tuple[str, str] | None = None  # set by the router: replica_lost or shutdown


class Router:
    """Placement and routing state.

    Args:
        replicas: The replicas, all serving.
        max_sessions_per_replica: Cap on live sessions per replica (None: no cap).
        alive: Optional ``async (replica) -> bool`` that says whether the replica's process lives
            (e.g. a Ray actor ping); False marks the replica lost.
        health_timeout_s: Seconds a replica's ``/health`` (and ``alive``) may take before it counts as lost.
    """

    def __init__(
        self,
        replicas: list[ReplicaRef],
        max_sessions_per_replica: int | None = None,
        alive: Callable[[ReplicaRef], Awaitable[bool]] | None = None,
        health_timeout_s: float = 5.0,
    ) -> None:
        self.replicas = replicas
        self.cap = max_sessions_per_replica
        self.alive = alive
        self.health_timeout_s = health_timeout_s
        self.sessions: dict[str, _Routed] = {}
        self.closing = False
        self._drained = asyncio.Event()
        self.client = httpx.AsyncClient(timeout=httpx.Timeout(120.0, connect=health_timeout_s))

    # ---- health -----------------------------------------------------------------------------------

    def mark_lost(self, replica: ReplicaRef, reason: str) -> None:
        """Mark ``replica`` lost: its open sessions will verify masked, and no seed goes there."""
        if replica.lost:
            return
        replica.lost, replica.lost_reason = True, reason
        held = [sid for sid, r in self.sessions.items() if r.replica is replica and not r.closed]
        for sid in held:
            self.sessions[sid].failure = ("replica_lost", f"replica {replica.name} was lost: {reason}")
        replica.live = 0
        logger.error("replica %s (%s) lost: %s; %d session(s) masked", replica.name, replica.url, reason, len(held))
        self._check_drained()

    async def probe(self, replica: ReplicaRef) -> bool:
        """Check one replica now (``/health`` within the timeout, then ``alive``); False marks it lost."""
        if replica.lost:
            return False
        try:
            r = await self.client.get(f"{replica.url}/health", timeout=self.health_timeout_s)
            healthy = r.status_code == 200
            reason = f"/health answered {r.status_code}"
        except httpx.HTTPError as exc:
            healthy, reason = False, f"/health failed: {type(exc).__name__}"
        if healthy and self.alive is not None:
            try:
                healthy = await asyncio.wait_for(self.alive(replica), self.health_timeout_s)
            except TimeoutError:
                healthy = False
            reason = "its process died or did not answer a ping"
        if not healthy:
            self.mark_lost(replica, reason)
        else:
            await self._recount(replica)
        return healthy

    async def _recount(self, replica: ReplicaRef) -> None:
        """Set ``replica.live`` to what the replica holds plus seeds in flight (it ends abandoned sessions itself)."""
        try:
            r = await self.client.get(f"{replica.url}/metrics", timeout=self.health_timeout_s)
        except httpx.HTTPError:
            return
        found = re.search(r"^gateway_sessions_live (\S+)$", r.text, flags=re.M) if r.status_code == 200 else None
        if found is None:
            return
        reported = int(float(found.group(1)))
        replica.live = reported + replica.seeding
        held = [sid for sid, routed in self.sessions.items()
                if routed.replica is replica and not routed.closed and routed.failure is None]  # fmt: skip
        if len(held) > reported:  # the replica ended some on its own: find which
            await self._forget_ended(replica, held)

    async def _forget_ended(self, replica: ReplicaRef, held: list[str]) -> None:
        """Count closed the sessions of ``held`` that ``replica`` has ended (or forgotten), without renewing any."""
        for sid in held:
            try:
                r = await self.client.get(f"{replica.url}/task_state", params={"session_id": sid, "renew": "false"},
                                          timeout=self.health_timeout_s)  # fmt: skip
            except httpx.HTTPError:
                return
            if r.status_code == 404 or (r.status_code == 200 and r.json().get("status") == "closed"):
                routed = self.sessions[sid]
                routed.closed = True
                logger.info("replica %s ended session %s on its own (lease ran out)", replica.name, sid)
        self._check_drained()

    async def watch(self, interval_s: float) -> None:
        """Probe every replica each ``interval_s`` seconds, forever (run it as a task)."""
        while True:
            await asyncio.gather(*(self.probe(r) for r in self.replicas if not r.lost))
            await asyncio.sleep(interval_s)

    # ---- routing ----------------------------------------------------------------------------------

    def _candidates(self) -> list[ReplicaRef]:
        ok = [r for r in self.replicas if not r.lost and (self.cap is None or r.live < self.cap)]
        return sorted(ok, key=lambda r: r.live)

    async def seed(self, body: bytes) -> Response:
        """Forward a seed to the least-loaded replica; its response unchanged, or 503."""
        if self.closing:
            return JSONResponse({"error": "the cluster is shutting down; no new sessions"}, status_code=503)
        for replica in self._candidates():
            replica.live += 1  # held while the seed is in flight, so concurrent seeds spread
            replica.seeding += 1
            try:
                r = await self.client.post(
                    f"{replica.url}/seed_session", content=body, headers={"content-type": "application/json"}
                )
            except httpx.HTTPError as exc:
                replica.live = max(0, replica.live - 1)
                logger.warning("seed to replica %s failed: %s; probing it", replica.name, exc)
                await self.probe(replica)
                continue
            finally:
                replica.seeding -= 1
            if r.status_code == 200 and not replica.lost:
                sid = r.json()["session_id"]
                self.sessions[sid] = _Routed(replica)
            else:
                replica.live = max(0, replica.live - 1)
            if r.status_code == 503:  # that replica is shutting down or full: try the next
                continue
            return Response(r.content, status_code=r.status_code, media_type="application/json")
        return JSONResponse({"error": "every replica is full, lost or shutting down; try again later"}, status_code=503)

    def _routed(self, session_id: str) -> _Routed:
        routed = self.sessions.get(session_id)
        if routed is None:
            raise UnknownSession(f"no session with id {quote(session_id)} was seeded through this router")
        return routed

    @staticmethod
    def masked(session_id: str, failure: tuple[str, str]) -> dict[str, Any]:
        """The verify result of a session the router masks."""
        kind, reason = failure
        return {"session_id": session_id, "reward": 0.0, "checks": [], "mask_sample": True,
                "failure_kind": kind, "failure_reason": reason, "grader_version": None, "task": None,
                "tool_calls": [], "changes": None}  # fmt: skip

    async def forward(self, session_id: str, method: str, path: str, **kwargs: Any) -> Response | None:
        """Send a request to the session's replica; None when the replica is (now found) lost."""
        routed = self._routed(session_id)
        if routed.failure is not None:
            return None
        try:
            r = await self.client.request(method, f"{routed.replica.url}{path}", **kwargs)
        except httpx.HTTPError as exc:
            logger.warning("%s to replica %s failed: %s; probing it", path, routed.replica.name, exc)
            if await self.probe(routed.replica):
                return JSONResponse({"error": "the session's replica did not answer; try again"}, status_code=502)
            return None
        return Response(r.content, status_code=r.status_code, media_type="application/json")

    def closed(self, session_id: str) -> None:
        """Count a session closed (idempotent)."""
        routed = self.sessions.get(session_id)
        if routed is not None and not routed.closed:
            routed.closed = True
            if routed.failure is None:
                routed.replica.live = max(0, routed.replica.live - 1)
        self._check_drained()

    # ---- shutdown ---------------------------------------------------------------------------------

    def begin_shutdown(self) -> None:
        """Refuse new seeds (503) from now on."""
        if not self.closing:
            logger.info("router: refusing new seeds; %d session(s) open", self.open_sessions())
        self.closing = True
        self._check_drained()

    def open_sessions(self) -> int:
        """Sessions neither closed nor masked by the router."""
        return sum(1 for r in self.sessions.values() if not r.closed and r.failure is None)

    def _check_drained(self) -> None:
        if self.closing and self.open_sessions() == 0:
            self._drained.set()

    async def drain(self, deadline_s: float) -> int:
        """Refuse seeds, wait up to ``deadline_s`` seconds for open sessions to close, mask the rest.

        Returns:
            How many sessions were masked (failure_kind ``"shutdown"``).
        """
        self.begin_shutdown()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drained.wait(), deadline_s)
        rest = [r for r in self.sessions.values() if not r.closed and r.failure is None]
        for r in rest:
            r.failure = ("shutdown", "the cluster shut down before the session was verified")
        if rest:
            logger.warning("router: masked %d session(s) still open at the drain deadline", len(rest))
        return len(rest)

    async def metrics(self) -> str:
        """Every replica's metrics text, each sample labelled with its replica."""

        async def fetch(replica: ReplicaRef) -> tuple[ReplicaRef, str]:
            try:
                r = await self.client.get(f"{replica.url}/metrics", timeout=self.health_timeout_s)
                return replica, r.text if r.status_code == 200 else ""
            except httpx.HTTPError:
                return replica, ""

        texts = await asyncio.gather(*(fetch(r) for r in self.replicas if not r.lost))
        seen: set[str] = set()
        out: list[str] = [
            "# HELP gateway_router_replicas_lost Replicas the router marked lost.",
            "# TYPE gateway_router_replicas_lost gauge",
            f"gateway_router_replicas_lost {sum(r.lost for r in self.replicas)}",
        ]
        for replica, text in texts:
            for line in text.splitlines():
                if line.startswith("#"):
                    if line not in seen:
                        seen.add(line)
                        out.append(line)
                elif line.strip():
                    out.append(_label(line, replica.name))
        return "\n".join(out) + "\n"


_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?(\s.*)$")


def _label(line: str, replica: str) -> str:
    m = _SAMPLE.match(line)
    if m is None:
        return line
    name, labels, rest = m.groups()
    inner = labels[1:-1] if labels else ""
    tag = f'replica="{replica}"'
    return f"{name}{{{tag + ',' + inner if inner else tag}}}{rest}"


def create_router_app(router: Router, trusted_networks: list[str], watch_interval_s: float | None = 2.0) -> Starlette:
    """The router's ASGI app (see the module docstring for its routes).

    Args:
        router: Placement and routing state.
        trusted_networks: CIDR blocks whose peers may call the control routes.
        watch_interval_s: Seconds between health probes of every replica (None: probe only on failures).
    """
    trusted = trusted_only(trusted_networks)

    async def seed_session(request: Request) -> Response:
        return await router.seed(await request.body())

    async def verify(request: Request) -> Response:
        body = await json_body(request)
        sid = session_id_of(body.get("session_id"))
        response = await router.forward(sid, "POST", "/verify", json=body)
        failure = router._routed(sid).failure
        if response is None and failure is not None:
            return JSONResponse(router.masked(sid, failure))
        assert response is not None
        return response

    async def task_state(request: Request) -> Response:
        sid = session_id_of(request.query_params.get("session_id"))
        response = await router.forward(sid, "GET", "/task_state", params={"session_id": sid})
        if response is None:
            failure = router._routed(sid).failure or ("replica_lost", "")
            return JSONResponse({"session_id": sid, "status": "lost", "task_complete": False, "calls": None,
                                 "last_call": None, "failure_kind": failure[0]})  # fmt: skip
        return response

    async def close_session(request: Request) -> Response:
        body = await json_body(request)
        sid = session_id_of(body.get("session_id"))
        response = await router.forward(sid, "POST", "/close_session", json=body)
        if response is None:
            router.closed(sid)
            return JSONResponse({"session_id": sid, "closed": True, "lost": True})
        if response.status_code == 200:
            router.closed(sid)
        return response

    async def renew_session(request: Request) -> Response:
        body = await json_body(request)
        sid = session_id_of(body.get("session_id"))
        response = await router.forward(sid, "POST", "/renew_session", json=body)
        if response is None:
            return JSONResponse({"error": f"session {quote(sid)} was lost with its replica"}, status_code=409)
        if response.status_code == 409:  # closed on its replica (its lease ran out)
            router.closed(sid)
        return response

    async def health(request: Request) -> Response:
        lost = sum(r.lost for r in router.replicas)
        ok = lost < len(router.replicas) and not router.closing
        return JSONResponse({"ok": ok, "replicas": len(router.replicas), "lost": lost, "live": router.open_sessions()})

    async def metrics(request: Request) -> Response:
        return Response(await router.metrics(), media_type=CONTENT_TYPE_LATEST)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        watcher = asyncio.create_task(router.watch(watch_interval_s)) if watch_interval_s else None
        try:
            yield
        finally:
            if watcher is not None:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
            await router.client.aclose()

    routes = [
        Route("/seed_session", trusted(seed_session), methods=["POST"]),
        Route("/verify", trusted(verify), methods=["POST"]),
        Route("/task_state", trusted(task_state), methods=["GET"]),
        Route("/close_session", trusted(close_session), methods=["POST"]),
        Route("/renew_session", trusted(renew_session), methods=["POST"]),
        Route("/metrics", trusted(metrics), methods=["GET"]),
        Route("/health", health, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.router = router
    return app
