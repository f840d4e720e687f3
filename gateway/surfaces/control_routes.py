"""The control routes, as module-level handlers reading the gateway from ``request.app.state.gateway``.

``POST /seed_session``, ``GET /task_state``, ``POST /verify``, ``POST /close_session``, ``POST /renew_session``,
``POST /reference_solution``, ``GET /tasks``,
``GET /metrics`` and ``GET /openapi.json`` answer trusted peers only (:func:`~gateway.surfaces.guards.trusted_only`);
``GET /health`` answers everyone. Bodies and answers are the control-plane contract in the README.
"""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gateway.control.core import Gateway
from gateway.control.references import reference_solution as _reference_solution
from gateway.exceptions import GatewayError
from gateway.surfaces.control_openapi import control_openapi_route
from gateway.surfaces.guards import json_body, method_only, only_fields, session_id_of, trusted_only

__all__ = [
    "close_session",
    "control_routes",
    "health",
    "list_tasks",
    "metrics",
    "reference_solution",
    "renew_session",
    "seed_session",
    "task_state",
    "verify",
]


def _gateway(request: Request) -> Gateway:
    gateway: Gateway = request.app.state.gateway
    return gateway


async def seed_session(request: Request) -> Response:
    """``POST /seed_session``: build a session's world (and sandbox) from a task; answers the session."""
    gateway = _gateway(request)
    body = await json_body(request)
    return JSONResponse(await gateway.seed(body, gateway.settings.public_url or str(request.base_url)))


async def task_state(request: Request) -> Response:
    """``GET /task_state?session_id=[&renew=false]``: the state the session's last whole call left.

    Asking renews the session's lease; ``renew=false`` only looks (a watcher's ask, as the seed router's).
    """
    renew = request.query_params.get("renew", "true")
    if renew not in ("true", "false"):
        raise GatewayError(f"renew: must be true or false, not {renew[:40]!r}")
    session_id = session_id_of(request.query_params.get("session_id"))
    return JSONResponse(_gateway(request).task_state(session_id, renew=renew == "true"))


async def verify(request: Request) -> Response:
    """``POST /verify``: stop the sandbox, grade the final world; the same answer every time it is asked."""
    body = await json_body(request)
    only_fields(body, "session_id", "response")
    response = body.get("response")
    if response is not None and not isinstance(response, str):
        raise GatewayError("response: must be a string (the final text), or left out")
    return JSONResponse(await _gateway(request).verify(session_id_of(body.get("session_id")), response))


async def close_session(request: Request) -> Response:
    """``POST /close_session``: end a session and free its world and sandbox."""
    body = await json_body(request)
    only_fields(body, "session_id")
    return JSONResponse(await _gateway(request).close(session_id_of(body.get("session_id"))))


async def reference_solution(request: Request) -> Response:
    """``POST /reference_solution``: a live session's task id, exposure, reference solution and negative control.

    The session is the one whose instruction is in the body's ``instruction`` text, or ``session_id``'s; a
    scripted model (``company-gateway model``) plays what it answers.
    """
    body = await json_body(request)
    only_fields(body, "instruction", "session_id")
    sessions = _gateway(request).store.all()
    return JSONResponse(_reference_solution(sessions, instruction=body.get("instruction"),
                                            session_id=body.get("session_id")))  # fmt: skip


async def renew_session(request: Request) -> Response:
    """``POST /renew_session``: extend the session's lease; answers ``{"session_id", "expires_at", "lease_s"}``."""
    body = await json_body(request)
    only_fields(body, "session_id")
    return JSONResponse(_gateway(request).renew(session_id_of(body.get("session_id"))))


async def list_tasks(request: Request) -> Response:
    """``GET /tasks``: every task's id, apps and exposure."""
    tasks = _gateway(request).tasks.values()
    return JSONResponse({"tasks": [{"task_id": t.id, "apps": t.apps, "exposure": t.exposure} for t in tasks]})


async def health(request: Request) -> Response:
    """``GET /health``: ``{"ok": true}``, open to everyone."""
    return JSONResponse({"ok": True})


async def metrics(request: Request) -> Response:
    """``GET /metrics``: Prometheus text."""
    return Response(_gateway(request).metrics.render(), media_type=CONTENT_TYPE_LATEST)


def control_routes(gateway: Gateway) -> list[Route]:
    """The control routes, guarded by the gateway's ``trusted_networks`` and ``control_token``."""
    trusted = trusted_only(gateway.settings.trusted_networks, gateway.settings.control_token)
    return [
        method_only("POST", "/seed_session", trusted(seed_session)),
        method_only("GET", "/task_state", trusted(task_state)),
        method_only("POST", "/verify", trusted(verify)),
        method_only("POST", "/close_session", trusted(close_session)),
        method_only("POST", "/reference_solution", trusted(reference_solution)),
        method_only("POST", "/renew_session", trusted(renew_session)),
        method_only("GET", "/tasks", trusted(list_tasks)),
        method_only("GET", "/health", health),
        method_only("GET", "/metrics", trusted(metrics)),
        method_only("GET", "/openapi.json", trusted(control_openapi_route(gateway))),
    ]
