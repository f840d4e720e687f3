"""A NeMo Gym resources server that lends each rollout a company-gateway session.

Written into ``resources_servers/company_gateway/app.py`` by ``company-gateway gym-export``. It runs in Gym's
own venv (Gym pins ``mcp<2``), so it imports ``nemo_gym`` and ``httpx`` only, never the gateway's code, and
reaches a running gateway over HTTP at the config variable ``company_gateway_url``:

- ``POST /seed_session``: ``POST {gateway}/seed_session {"task_id", "exposure": "mcp"}`` (a row that moves
  files gets the sandbox it asks for). Gym's session cookie names the rollout; a seed repeated for the same
  rollout (or the same ``resources_session_id``) returns the session it already has. An agent's legacy seed
  body is the dataset row (its ``task_id``); an Environment Server's is a ``ResourcesSeedSessionRequest``.
- ``POST /company_<app>_<action>`` and ``POST /company_complete_task``: one MCP ``tools/call`` on the session's
  tool, answered with the tool's text (JSON), or its error text, as the model's function output.
- ``POST /verify``: ``POST {gateway}/verify`` with the last assistant text, then ``/close_session``; the
  gateway's ``reward``, ``mask_sample``, ``failure_kind`` and ``failure_reason`` become Gym's, and its
  ``checks`` ride along, with ``episode``: the episode record (company-gateway's docs/grading.md), also
  appended as one JSON line to the config's ``episodes_file`` when it names one (``company-gateway regrade``
  reads that file). A gateway that cannot be reached at seed, call or verify masks the rollout
  (``mask_sample: true``, ``failure_kind: "transport_unreachable"``); it never scores it.
- A response whose ``metadata`` names ``company_gateway_failure`` (the export's agent ends an episode so when a model
  call fails: ``model_unreachable``, ``model_api``, ``model_error``) is not graded: ``/verify`` closes the gateway
  session and answers ``mask_sample: true``, ``failure_kind: "company_gateway:<kind>"`` and the reason.
- ``POST /close_session``: closes the gateway session if it is still live (idempotent); a seed for a closed
  ``resources_session_id`` is refused (409). When the server stops, every session still live is closed.
- Leases: the gateway closes a session nobody touched for its ``lease_s`` (the seed answers it) as abandoned.
  While a rollout runs (its last seed or tool call here is at most the config's ``renew_idle_s`` old: a model
  turn can be slow), this server renews its session (``POST {gateway}/renew_session``) every third of the
  lease; a rollout whose agent died stops being renewed after that, and one whose server died (kill -9) ends
  with its lease.

Failure kinds the gateway reports that Gym's shared vocabulary (``nemo_gym.failure_kinds``) lacks are
namespaced ``company_gateway:<kind>``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import PlainTextResponse
from nemo_gym.base_resources_server import (
    BaseResourcesServerConfig,
    BaseSeedSessionRequest,
    BaseSeedSessionResponse,
    BaseVerifyRequest,
    BaseVerifyResponse,
    ResourcesCloseSessionRequest,
    ResourcesCloseSessionResponse,
    ResourcesSeedSessionRequest,
    ResourcesSeedSessionResponse,
    SimpleResourcesServer,
)
from nemo_gym.failure_kinds import TRANSPORT_UNREACHABLE, is_registered
from nemo_gym.server_utils import SESSION_ID_KEY
from pydantic import ConfigDict, Field

LOG = logging.getLogger(__name__)

#: What the model reads when its world cannot be reached; the rollout is masked at verify.
UNAVAILABLE_TEXT = "Error: the service is unavailable right now."
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
#: The episode record's format (company-gateway's gateway/runners/episodes.py; its fields: docs/grading.md).
EPISODE_FORMAT = "company-gateway.episode/1"


def episode_record(adapter: str, task_id: str, verdict: dict[str, Any] | None, *, session_id: str | None = None,
                   tools: list[str] | None = None, timings: dict[str, float | None] | None = None,
                   failure_kind: str | None = None, failure_reason: str | None = None) -> dict[str, Any]:  # fmt: skip
    """The episode record from ``/verify``'s answer (None: there was none) and what this adapter saw.

    ``failure_kind`` and ``failure_reason`` are the adapter's own failure (the episode is then masked); the
    gateway's, when it masked the session, are kept as it gave them. The same function is in
    company-gateway's Harbor adapter; a test there holds both to ``EpisodeRecord.as_dict``.
    """
    verdict = verdict or {}
    task = verdict.get("task") or {}
    masked = failure_kind is not None or bool(verdict.get("mask_sample"))
    seconds: dict[str, float | None] = dict.fromkeys(("seed_s", "model_s", "tools_s", "verify_s", "total_s"))
    seconds.update({k: round(v, 3) for k, v in (timings or {}).items() if v is not None})
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
        "end_reason": None,
        "steps": None,
        "timings": seconds,
        "tools": list(tools or []),
        "tool_calls": list(verdict.get("tool_calls") or []),
        "changes": verdict.get("changes"),
        "trajectory": None,
        "regrade": None,
    }


class CompanyGatewayConfig(BaseResourcesServerConfig):
    """The instance config: ``company_gateway_url`` (base URL, no path), an optional control token, timeouts (s).

    ``episodes_file``: a JSONL file each verify appends its episode record to (none when null).
    """

    company_gateway_url: str
    control_token: str | None = None
    request_timeout_s: float = Field(default=300.0, gt=0)
    episodes_file: str | None = None
    #: Seconds since a rollout's last seed or tool call during which its gateway session is still renewed.
    renew_idle_s: float = Field(default=3600.0, ge=0)


class CompanySeedRequest(BaseSeedSessionRequest):
    """An agent's legacy seed body: the dataset row, whose ``task_id`` names the task."""

    model_config = ConfigDict(extra="allow")
    task_id: str


class CompanyVerifyRequest(BaseVerifyRequest):
    """The rollout to grade; the session comes from Gym's cookie."""

    model_config = ConfigDict(extra="allow")


class CompanyVerifyResponse(BaseVerifyResponse):
    """Gym's verify response plus the gateway's ``checks`` (``[{"name", "passed", "detail"}]``) and ``episode``."""

    model_config = ConfigDict(extra="allow")
    checks: list[dict[str, Any]] = Field(default_factory=list)
    episode: dict[str, Any] | None = None


class _Session:
    """One rollout's gateway session, or why it has none (``failure``: the seed could not reach the gateway)."""

    def __init__(self, task_id: str = "") -> None:
        self.task_id = task_id
        self.gateway_id: str | None = None
        self.mcp_url = ""
        self.mcp_headers: dict[str, str] = {}
        self.tools: list[str] = []
        self.failure: str | None = None
        self.closed = False
        self.ready = asyncio.Event()
        self.started = time.perf_counter()
        self.timings: dict[str, float | None] = {"seed_s": None, "tools_s": 0.0}
        self.lease_s = 0.0  # the gateway's lease of this session (0: none)
        self.active = time.monotonic()  # the rollout's last seed or tool call here
        self.renewed = time.monotonic()


class CompanyGatewayResourcesServer(SimpleResourcesServer):
    """Forwards seed, tool calls, verify and close to a running company-gateway."""

    ray_enabled = False
    config: CompanyGatewayConfig
    sessions: dict[str, Any] = Field(default_factory=dict)

    def setup_webserver(self) -> FastAPI:
        """Gym's routes, one catch-all ``POST /{name}`` for the ``company_*`` tools, and a lifespan that closes."""
        app = super().setup_webserver()
        app.post("/{name}")(self.call_tool)
        inner = app.router.lifespan_context

        @asynccontextmanager
        async def lifespan(app: FastAPI) -> Any:
            renewer = asyncio.create_task(self.renew_loop())
            try:
                async with inner(app) as state:
                    yield state
            finally:
                renewer.cancel()
                await asyncio.gather(renewer, return_exceptions=True)
                await self.close_all()

        app.router.lifespan_context = lifespan
        return app

    # ---- the gateway's control routes ---------------------------------------------------------------

    def _http(self) -> httpx.AsyncClient:
        """One client per event loop (a server has one; Gym's in-process test client starts one per request)."""
        loop = asyncio.get_running_loop()
        held = self.__dict__.get("_client")
        if held is None or held[0] is not loop:
            headers = {"Authorization": f"Bearer {self.config.control_token}"} if self.config.control_token else {}
            held = (loop, httpx.AsyncClient(timeout=self.config.request_timeout_s, headers=headers))
            self.__dict__["_client"] = held
        client: httpx.AsyncClient = held[1]
        return client

    def _url(self, path: str) -> str:
        return self.config.company_gateway_url.rstrip("/") + path

    async def _control(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = await self._http().post(self._url(path), json=body)
        response.raise_for_status()
        answer: dict[str, Any] = response.json()
        return answer

    async def renew_loop(self) -> None:
        """Renew every running rollout's session each third of its lease (see the module's docstring)."""
        while True:
            leases = [s.lease_s for s in list(self.sessions.values()) if s.lease_s and not s.closed]
            await asyncio.sleep(min(1.0, max(0.1, min(leases, default=6.0) / 6)))  # at most 1 s between looks
            now = time.monotonic()
            for session in list(self.sessions.values()):
                due = session.lease_s and now - session.renewed >= session.lease_s / 3
                if not due or session.closed or session.failure or now - session.active > self.config.renew_idle_s:
                    continue
                try:
                    await self._control("/renew_session", {"session_id": session.gateway_id})
                    session.renewed = now
                except httpx.HTTPError as exc:  # the rollout's own calls renew too; try again next turn
                    LOG.warning("company-gateway renew of session %s failed: %s", session.gateway_id, exc)

    async def _seed(self, key: str, task_id: str) -> _Session:
        existing = self.sessions.get(key)
        if existing is not None:
            if existing.closed:
                raise HTTPException(status_code=409, detail=f"session {key!r} was closed; seed a new one")
            existing.active = time.monotonic()
            await existing.ready.wait()
            return existing
        session = self.sessions[key] = _Session(task_id)
        try:
            seeded = await self._control("/seed_session", {"task_id": task_id, "exposure": "mcp"})
            session.gateway_id = seeded["session_id"]
            session.mcp_url = seeded["mcp"]["url"]
            session.mcp_headers = dict(seeded["mcp"]["headers"])
            session.tools = list(seeded.get("tools") or [])
            lease = seeded.get("lease_s")
            session.lease_s = float(lease) if isinstance(lease, int | float) and lease > 0 else 0.0
            session.timings["seed_s"] = time.perf_counter() - session.started
        except httpx.HTTPStatusError as exc:
            session.failure = f"seed_session answered {exc.response.status_code}: {exc.response.text[:300]}"
        except (httpx.HTTPError, KeyError, ValueError) as exc:
            session.failure = f"seed_session failed: {type(exc).__name__}: {exc}"
        finally:
            session.ready.set()
        if session.failure:
            LOG.error("company-gateway seed for task %r failed: %s", task_id, session.failure)
        return session

    async def _close(self, session: _Session) -> None:
        if session.closed:
            return
        session.closed = True
        if session.gateway_id is not None:
            await self._control("/close_session", {"session_id": session.gateway_id})

    async def close_all(self) -> None:
        """Close every gateway session still live (at shutdown); a failure is logged, not raised."""
        for session in list(self.sessions.values()):
            try:
                await self._close(session)
            except httpx.HTTPError:
                LOG.exception("could not close company-gateway session %s", session.gateway_id)
        held = self.__dict__.pop("_client", None)
        if held is not None:
            await held[1].aclose()

    # ---- Gym's routes -------------------------------------------------------------------------------

    async def seed_session(  # type: ignore[override]
        self, request: Request, body: ResourcesSeedSessionRequest | CompanySeedRequest
    ) -> ResourcesSeedSessionResponse | BaseSeedSessionResponse:
        """Seed a gateway session for the row's task, once per Gym session."""
        if isinstance(body, ResourcesSeedSessionRequest):
            key = body.resources_session_id
            request.session[SESSION_ID_KEY] = key
            session = await self._seed(key, body.task_id.task_id)
            if session.failure:
                raise HTTPException(status_code=503, detail=session.failure)
            return ResourcesSeedSessionResponse(resources_session_id=key)
        await self._seed(request.session[SESSION_ID_KEY], body.task_id)
        return BaseSeedSessionResponse()

    async def call_tool(self, name: str, request: Request) -> PlainTextResponse:
        """Run the ``company_*`` tool ``name`` with the JSON body as its arguments; the text is what the model reads."""
        if not name.startswith("company_"):
            raise HTTPException(status_code=404, detail=f"no route /{name}")
        session = self.sessions.get(request.session.get(SESSION_ID_KEY, ""))
        if session is None or session.closed or session.failure:
            return PlainTextResponse(UNAVAILABLE_TEXT)
        session.active = time.monotonic()
        try:
            arguments = await request.json()
        except ValueError:
            return PlainTextResponse("Error: the arguments are not valid JSON.")
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        started = time.perf_counter()
        try:
            response = await self._http().post(
                session.mcp_url, json=call, headers={**MCP_HEADERS, **session.mcp_headers}
            )
            response.raise_for_status()
            answer = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            session.failure = f"tools/call {name} failed: {type(exc).__name__}: {exc}"
            LOG.error("company-gateway %s", session.failure)
            return PlainTextResponse(UNAVAILABLE_TEXT)
        finally:
            session.timings["tools_s"] = (session.timings["tools_s"] or 0.0) + time.perf_counter() - started
        if "error" in answer:
            return PlainTextResponse(f"Error: {answer['error'].get('message', 'the call failed')}")
        content = answer.get("result", {}).get("content") or []
        return PlainTextResponse("".join(part.get("text", "") for part in content if isinstance(part, dict)))

    async def verify(self, request: Request, body: CompanyVerifyRequest) -> CompanyVerifyResponse:  # type: ignore[override]
        """Grade the session (``/verify``), close it, and map the gateway's answer to Gym's fields."""
        fields = body.model_dump()
        session = self.sessions.get(request.session.get(SESSION_ID_KEY, ""))
        if session is None:
            why = "verify for a session that was never seeded"
            episode = self._episode(_Session(str(fields.get("task_id") or "")), None, "session_lost", why)
            return CompanyVerifyResponse(**fields, reward=0.0, mask_sample=True, failure_kind="session_lost",
                                         failure_reason=why, episode=episode)  # fmt: skip
        failed = _model_failure(body.response)
        if failed is not None:  # the agent's model call failed (agent_app.py): masked, never graded
            await self._safe_close(session)
            kind, why = f"company_gateway:{failed[0]}", failed[1]
            episode = self._episode(session, None, kind, why)
            return CompanyVerifyResponse(**fields, reward=0.0, mask_sample=True, failure_kind=kind, failure_reason=why,
                                         episode=episode)  # fmt: skip
        if session.failure:
            await self._safe_close(session)
            episode = self._episode(session, None, TRANSPORT_UNREACHABLE, session.failure)
            return CompanyVerifyResponse(**fields, reward=0.0, mask_sample=True, failure_kind=TRANSPORT_UNREACHABLE,
                                         failure_reason=session.failure, episode=episode)  # fmt: skip
        started = time.perf_counter()
        try:
            graded = await self._control(
                "/verify", {"session_id": session.gateway_id, "response": _final_text(body.response)}
            )
        except httpx.HTTPError as exc:
            await self._safe_close(session)
            why = f"verify failed: {type(exc).__name__}: {exc}"
            episode = self._episode(session, None, TRANSPORT_UNREACHABLE, why)
            return CompanyVerifyResponse(**fields, reward=0.0, mask_sample=True, failure_kind=TRANSPORT_UNREACHABLE,
                                         failure_reason=why, episode=episode)  # fmt: skip
        await self._safe_close(session)
        session.timings["verify_s"] = time.perf_counter() - started
        kind = graded.get("failure_kind")
        if kind and not is_registered(kind):
            kind = f"company_gateway:{kind}"
        return CompanyVerifyResponse(
            **fields,
            reward=float(graded["reward"]),
            mask_sample=bool(graded.get("mask_sample", False)),
            failure_kind=kind,
            failure_reason=graded.get("failure_reason"),
            checks=list(graded.get("checks") or []),
            episode=self._episode(session, graded),
        )

    def _episode(self, session: _Session, graded: dict[str, Any] | None, kind: str | None = None,
                 reason: str | None = None) -> dict[str, Any]:  # fmt: skip
        """The rollout's episode record, appended to ``episodes_file`` when the config names one."""
        timings = {**session.timings, "total_s": time.perf_counter() - session.started}
        record = episode_record("nemo-gym", session.task_id, graded, session_id=session.gateway_id, tools=session.tools,
                                timings=timings, failure_kind=kind, failure_reason=reason)  # fmt: skip
        if self.config.episodes_file:
            try:
                with open(self.config.episodes_file, "a", encoding="utf-8") as out:
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
            except OSError:
                LOG.exception("could not append the episode record to %s", self.config.episodes_file)
        return record

    async def _safe_close(self, session: _Session) -> None:
        try:
            await self._close(session)
        except httpx.HTTPError:
            LOG.exception("could not close company-gateway session %s", session.gateway_id)

    async def close_resources_session(self, body: ResourcesCloseSessionRequest) -> ResourcesCloseSessionResponse:
        """Close the gateway session of ``resources_session_id``; closing twice or a never-seeded id succeeds."""
        session = self.sessions.get(body.resources_session_id)
        if session is None:
            session = self.sessions[body.resources_session_id] = _Session()
            session.ready.set()
        await session.ready.wait()
        try:
            await self._close(session)
        except httpx.HTTPError as exc:
            session.closed = False  # let the caller retry
            raise HTTPException(status_code=503, detail=f"close_session failed: {exc}") from exc
        return ResourcesCloseSessionResponse(resources_session_id=body.resources_session_id)


def _model_failure(response: Any) -> tuple[str, str] | None:
    """``(kind, reason)`` when the agent ended the episode on a failed model call (its response's ``metadata``)."""
    metadata = getattr(response, "metadata", None) or {}
    kind = metadata.get("company_gateway_failure") if isinstance(metadata, dict) else None
    if not kind:
        return None
    return str(kind), str(metadata.get("company_gateway_failure_reason") or "the model call failed")


def _final_text(response: Any) -> str:
    """The text of the last assistant message in a Responses-API response ('' when there is none)."""
    texts = []
    for item in getattr(response, "output", None) or []:
        if getattr(item, "type", None) == "message" and getattr(item, "role", None) == "assistant":
            texts = [getattr(part, "text", "") or "" for part in getattr(item, "content", None) or []]
    return "".join(texts)


if __name__ == "__main__":
    CompanyGatewayResourcesServer.run_webserver()
