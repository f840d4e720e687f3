"""The HTTP surface: ``POST /api/<app>/<action>`` with a JSON body, and ``GET /api/openapi.json``.

Every call carries ``Authorization: Bearer <token>`` and runs through
:meth:`gateway.control.core.Gateway.call` with ``surface="http"``. A session may call
every action of its task's apps, plus ``POST /api/complete_task``; anything else
is answered as unknown (404), listing what exists.

Statuses: 200 the action's JSON result; 400 invalid JSON or an app error
(``{"error": {"message", "parameter"}}``); 401 missing or invalid token; 404
unknown app or action; 405 not POST; 409 the session takes no further calls.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from docs_tool.openapi import openapi_document
from gateway.control.core import SERVER_FAULT_MESSAGE, CallRefused, Gateway, ServerFault
from gateway.control.sessions import Session
from gateway.control.workspace import PROVIDER_FAILED_MESSAGE, ProviderFailed
from gateway.surfaces.gate import bearer_token
from gateway.surfaces.guards import NotStrictJSON, lone_surrogate_field, no_constant, once_each
from gateway.surfaces.hints import reword
from tools import COMPLETE_TASK, REGISTRY, Action, AppError, shorten

__all__ = ["api_routes", "bearer_session", "callable_apps", "error_response"]


def error_response(status: int, message: str, parameter: str | None = None, **headers: str) -> JSONResponse:
    """``{"error": {"message", "parameter"}}`` with ``status``."""
    shown = shorten(message)  # e.g. a path of 8,000 characters comes back as its first 80
    return JSONResponse({"error": {"message": shown, "parameter": parameter}}, status_code=status, headers=headers)


def bearer_session(request: Request, gateway: Gateway) -> Session | None:
    """The live session named by the request's ``Authorization: Bearer`` token, else None."""
    token = bearer_token(request.headers.get("authorization"))  # None for a token that is not ASCII
    return gateway.session_by_token(token) if token is not None else None


def callable_apps(session: Session) -> list[str]:
    """The apps whose actions the session may call over HTTP or the shell commands: its task's apps."""
    return [app for app in session.task.apps if app in REGISTRY.apps]


def _unauthorized() -> JSONResponse:
    return error_response(
        401, "missing, invalid or expired access token (a token stops working once its work is closed); send the "
        "header 'Authorization: Bearer $COMPANY_API_TOKEN'",
        **{"WWW-Authenticate": "Bearer"},
    )  # fmt: skip


def _resolve(session: Session, path: str) -> Action | JSONResponse:
    apps = callable_apps(session)
    parts = [p for p in path.split("/") if p]
    if parts == [COMPLETE_TASK.name]:
        return COMPLETE_TASK
    if len(parts) == 2 and parts[0] in apps:
        actions = REGISTRY.apps[parts[0]].actions
        name = parts[1].replace("-", "_")
        if name in actions:
            return actions[name]
        listing = ", ".join(a.http_path for a in actions.values())
        return error_response(404, f"'{parts[0]}' has no action '{parts[1]}'; its endpoints: {listing}", "action")
    listing = ", ".join(apps)
    return error_response(
        404,
        f"no endpoint /api/{path}; endpoints are POST /api/<app>/<action> for the apps {listing}, "
        f"and POST {COMPLETE_TASK.http_path}; GET /api/openapi.json describes them all",
        "app",
    )


def api_routes(gateway: Gateway) -> list[Route]:
    """The ``/api`` routes; mount them before any catch-all."""

    async def openapi(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return error_response(405, "use GET for the OpenAPI document", Allow="GET")
        server = gateway.settings.public_url or str(request.base_url)
        return JSONResponse(openapi_document(server_url=server.rstrip("/")))

    async def call(request: Request) -> Response:
        if request.method != "POST":
            return error_response(405, "use POST with a JSON object body", Allow="POST")
        session = bearer_session(request, gateway)
        if session is None:
            return _unauthorized()
        action = _resolve(session, request.path_params["path"])
        if isinstance(action, JSONResponse):
            return action
        raw = await request.body()
        try:
            body: Any = json.loads(raw, parse_constant=no_constant, object_pairs_hook=once_each) if raw.strip() else {}
        except NotStrictJSON as exc:
            return error_response(400, f"{exc}; send a JSON object of parameters")
        except UnicodeDecodeError as exc:
            where = f"byte {exc.start}"
            return error_response(400, f"the body is not UTF-8 text (at {where}); send a JSON object of parameters")
        except json.JSONDecodeError as exc:
            return error_response(400, f"the body is not valid JSON ({exc}); send a JSON object of parameters")
        except ValueError:  # an integer past Python's 4,300-digit limit
            return error_response(400, "the body holds a number too long to read; send a JSON object of parameters")
        except RecursionError:
            return error_response(400, "the body nests too deeply; send a JSON object of parameters")
        if not isinstance(body, dict):
            return error_response(400, "the body must be a JSON object of parameter names to values, e.g. {}")
        if (field := lone_surrogate_field(raw, body)) is not None:
            message = "the text is not valid Unicode (it holds a lone surrogate); send UTF-8 text"
            return error_response(400, message, field)
        try:
            result = await gateway.call(session, action.tool_name, body, surface="http")
        except AppError as exc:
            return error_response(400, reword(exc.message, "http"), exc.parameter)
        except CallRefused as exc:
            return error_response(409, str(exc))
        except ProviderFailed:
            return error_response(502, PROVIDER_FAILED_MESSAGE)
        except ServerFault:
            return error_response(500, SERVER_FAULT_MESSAGE)
        return JSONResponse(result)

    return [
        Route("/api/openapi.json", openapi, methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]),
        # Every method, so that a wrong one is answered here (405 JSON) rather than by a later catch-all.
        Route("/api/{path:path}", call, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
    ]
