"""A NeMo Gym resources server that lends each rollout a company-gateway session.

Written into ``resources_servers/company_gateway/app.py`` by ``company-gateway gym-export``. It runs in Gym's
own venv (Gym pins ``mcp<2``), so it imports ``nemo_gym`` and ``httpx`` only, never the gateway's code, and
reaches a running gateway over HTTP at the config variable ``company_gateway_url``:

- ``POST /seed_session``: ``POST {gateway}/seed_session {"task_id", "exposure": "mcp", "sandbox": false}``. Gym's
  session cookie names the rollout; a seed repeated for the same rollout (or the same ``resources_session_id``)
  returns the session it already has. An agent's legacy seed body is the dataset row (its ``task_id``); an
  Environment Server's is a ``ResourcesSeedSessionRequest``.
- ``POST /company_<app>_<action>`` and ``POST /company_complete_task``: one MCP ``tools/call`` on the session's
  tool, answered with the tool's text (JSON), or its error text, as the model's function output.
- ``POST /verify``: ``POST {gateway}/verify`` with the last assistant text, then ``/close_session``; the
  gateway's ``reward``, ``mask_sample``, ``failure_kind`` and ``failure_reason`` become Gym's, and its
  ``checks`` ride along. A gateway that cannot be reached at seed, call or verify masks the rollout
  (``mask_sample: true``, ``failure_kind: "transport_unreachable"``); it never scores it.
- ``POST /close_session``: closes the gateway session if it is still live (idempotent); a seed for a closed
  ``resources_session_id`` is refused (409). When the server stops, every session still live is closed.

Failure kinds the gateway reports that Gym's shared vocabulary (``nemo_gym.failure_kinds``) lacks are
namespaced ``company_gateway:<kind>``.
"""

from __future__ import annotations

import asyncio
import logging
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


class CompanyGatewayConfig(BaseResourcesServerConfig):
    """The instance config: ``company_gateway_url`` (base URL, no path), an optional control token, timeouts (s)."""

    company_gateway_url: str
    control_token: str | None = None
    request_timeout_s: float = Field(default=300.0, gt=0)


class CompanySeedRequest(BaseSeedSessionRequest):
    """An agent's legacy seed body: the dataset row, whose ``task_id`` names the task."""

    model_config = ConfigDict(extra="allow")
    task_id: str


class CompanyVerifyRequest(BaseVerifyRequest):
    """The rollout to grade; the session comes from Gym's cookie."""

    model_config = ConfigDict(extra="allow")


class CompanyVerifyResponse(BaseVerifyResponse):
    """Gym's verify response plus the gateway's ``checks`` (``[{"name", "passed", "detail"}]``)."""

    model_config = ConfigDict(extra="allow")
    checks: list[dict[str, Any]] = Field(default_factory=list)


class _Session:
    """One rollout's gateway session, or why it has none (``failure``: the seed could not reach the gateway)."""

    def __init__(self) -> None:
        self.gateway_id: str | None = None
        self.mcp_url = ""
        self.mcp_headers: dict[str, str] = {}
        self.failure: str | None = None
        self.closed = False
        self.ready = asyncio.Event()


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
            async with inner(app) as state:
                yield state
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

    async def _seed(self, key: str, task_id: str) -> _Session:
        existing = self.sessions.get(key)
        if existing is not None:
            if existing.closed:
                raise HTTPException(status_code=409, detail=f"session {key!r} was closed; seed a new one")
            await existing.ready.wait()
            return existing
        session = self.sessions[key] = _Session()
        try:
            seeded = await self._control("/seed_session", {"task_id": task_id, "exposure": "mcp", "sandbox": False})
            session.gateway_id = seeded["session_id"]
            session.mcp_url = seeded["mcp"]["url"]
            session.mcp_headers = dict(seeded["mcp"]["headers"])
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
        try:
            arguments = await request.json()
        except ValueError:
            return PlainTextResponse("Error: the arguments are not valid JSON.")
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
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
        if "error" in answer:
            return PlainTextResponse(f"Error: {answer['error'].get('message', 'the call failed')}")
        content = answer.get("result", {}).get("content") or []
        return PlainTextResponse("".join(part.get("text", "") for part in content if isinstance(part, dict)))

    async def verify(self, request: Request, body: CompanyVerifyRequest) -> CompanyVerifyResponse:  # type: ignore[override]
        """Grade the session (``/verify``), close it, and map the gateway's answer to Gym's fields."""
        fields = body.model_dump()
        session = self.sessions.get(request.session.get(SESSION_ID_KEY, ""))
        if session is None:
            return CompanyVerifyResponse(**fields, reward=0.0, mask_sample=True, failure_kind="session_lost",
                                         failure_reason="verify for a session that was never seeded")  # fmt: skip
        if session.failure:
            await self._safe_close(session)
            return CompanyVerifyResponse(**fields, reward=0.0, mask_sample=True, failure_kind=TRANSPORT_UNREACHABLE,
                                         failure_reason=session.failure)  # fmt: skip
        try:
            graded = await self._control(
                "/verify", {"session_id": session.gateway_id, "response": _final_text(body.response)}
            )
        except httpx.HTTPError as exc:
            await self._safe_close(session)
            return CompanyVerifyResponse(**fields, reward=0.0, mask_sample=True, failure_kind=TRANSPORT_UNREACHABLE,
                                         failure_reason=f"verify failed: {type(exc).__name__}: {exc}")  # fmt: skip
        await self._safe_close(session)
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
        )

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


def _final_text(response: Any) -> str:
    """The text of the last assistant message in a Responses-API response ('' when there is none)."""
    texts = []
    for item in getattr(response, "output", None) or []:
        if getattr(item, "type", None) == "message" and getattr(item, "role", None) == "assistant":
            texts = [getattr(part, "text", "") or "" for part in getattr(item, "content", None) or []]
    return "".join(texts)


if __name__ == "__main__":
    CompanyGatewayResourcesServer.run_webserver()
