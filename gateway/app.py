"""The ASGI application: FastMCP at ``/mcp``, the ``/api`` and ``/cli`` routes, and the control routes.

Control routes (``/seed_session``, ``/task_state``, ``/verify``,
``/close_session``, ``/tasks``, ``/metrics``, ``/openapi.json``) answer only peers
inside ``trusted_networks``, judged by the socket's peer address (never by a
forwarded header), and never a request that came through the sandboxes' unix
socket (:mod:`gateway.api_socket`), which has no peer address.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import json
import logging
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from prometheus_client import CONTENT_TYPE_LATEST
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from docs_tool import DOCS_TOOL_NAMES, docs_tool
from gateway.api_socket import SANDBOX_API_SOCKET, from_sandbox, serve_on_unix_socket
from gateway.cli_api import cli_routes
from gateway.control_openapi import control_openapi_route
from gateway.core import Gateway
from gateway.exceptions import GatewayError
from gateway.http_api import api_routes
from gateway.limits import BodyLimit
from gateway.mcp_server import build_mcp
from gateway.sessions import Session
from gateway.settings import Settings
from gateway.tasks import Task, load_builtin_tasks, load_tasks
from sandbox import Provider, ProviderUnavailable, get_provider

__all__ = ["create_app"]

logger = logging.getLogger(__name__)

Handler = Callable[[Request], Awaitable[Response]]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def trusted_only(networks: list[str], control_token: str | None = None) -> Callable[[Handler], Handler]:
    """Wrap a control route: peers in ``networks`` only (by the socket's address), bearing ``control_token`` if set.

    A request without a peer address (``scope["client"]`` is None: a unix-socket peer) or one
    that came through the sandboxes' unix socket is refused whatever it bears (403). A
    GatewayError raised by the route becomes a JSON error with its status.
    """
    nets = [ipaddress.ip_network(n, strict=False) for n in networks]
    expected = f"Bearer {control_token}".encode() if control_token else None

    def wrap(handler: Handler) -> Handler:
        async def guarded(request: Request) -> Response:
            if request.client is None or from_sandbox(request.scope):
                why = "came through a sandbox's socket" if from_sandbox(request.scope) else "has no peer address"
                logger.warning("control route %s refused: the request %s", request.url.path, why)
                return _error(403, "this route is only for trusted networks")
            peer = request.client.host
            try:
                addr = ipaddress.ip_address(peer)
            except ValueError:
                addr = None
            if addr is None or not any(addr in n for n in nets):
                logger.warning("control route %s refused to peer %r", request.url.path, peer)
                return _error(403, "this route is only for trusted networks")
            given = request.headers.get("authorization", "").encode()
            if expected is not None and not hmac.compare_digest(given, expected):
                logger.warning("control route %s refused: no or wrong control token", request.url.path)
                return _error(403, "this route needs the control token (Authorization: Bearer ...)")
            try:
                return await handler(request)
            except GatewayError as exc:
                return _error(exc.status_code, str(exc))

        return guarded

    return wrap


async def json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        body = json.loads(raw or b"{}")
    except ValueError:  # not UTF-8, not JSON, or an integer past Python's 4,300-digit limit
        raise GatewayError("the body must be JSON") from None
    except RecursionError:
        raise GatewayError("the body nests too deeply; send a flat JSON object") from None
    if not isinstance(body, dict):
        raise GatewayError("the body must be a JSON object")
    return body


def only_fields(body: dict[str, Any], *fields: str) -> None:
    """Refuse a body with fields other than ``fields`` (400), naming them and the ones the route takes."""
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise GatewayError(f"unknown fields {unknown}; this route takes {', '.join(repr(f) for f in fields)}")


def session_id_of(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise GatewayError("session_id: required, a string returned by /seed_session")
    return value


_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def _only(method: str, path: str, handler: Handler) -> Route:
    """A route for one method that answers every other method with a JSON 405 (not the MCP mount's 404)."""

    async def dispatch(request: Request) -> Response:
        if request.method != method and not (method == "GET" and request.method == "HEAD"):
            return JSONResponse({"error": f"use {method} on {path}"}, status_code=405, headers={"Allow": method})
        return await handler(request)

    return Route(path, dispatch, methods=_METHODS)


def make_provider(settings: Settings) -> Provider | None:
    """The sandbox provider the settings name, or None for ``sandbox_provider="none"``.

    The local provider keeps its workspaces under ``sandbox_root``; without one, under a
    fresh temporary folder of this process (so two servers on one machine never reap each
    other's workspaces), removed at shutdown when empty.

    Raises:
        ProviderUnavailable: the provider's backend is missing.
    """
    if settings.sandbox_provider == "none":
        return None
    if settings.sandbox_block_internet and settings.sandbox_provider != "opensandbox":
        raise ProviderUnavailable(
            f"sandbox_block_internet needs the opensandbox provider; {settings.sandbox_provider!r} cannot "
            "limit a sandbox's network"
        )
    if settings.sandbox_provider == "local":
        root = Path(settings.sandbox_root) if settings.sandbox_root else Path(tempfile.mkdtemp(prefix="workspaces-"))
        return get_provider("local", root=root, owner=settings.sandbox_owner)
    options: dict[str, Any] = {"owner": settings.sandbox_owner}
    if settings.sandbox_block_internet:
        gateway_host = urlsplit(settings.sandbox_base_url or settings.public_url or "").hostname
        options.update(block_internet=True, gateway_host=gateway_host, allowed_hosts=settings.sandbox_allowed_hosts)
    if settings.sandbox_image:
        options["image"] = settings.sandbox_image
    if settings.sandbox_provider == "docker" and settings.sandbox_host_binds:
        options["host_binds"] = settings.sandbox_host_binds
    return get_provider(settings.sandbox_provider, **options)


def create_app(
    settings: Settings | None = None, tasks: dict[str, Task] | None = None, provider: Provider | None = None
) -> Starlette:
    """Build the gateway's ASGI app.

    Args:
        settings: Server settings (default: ``Settings()`` from the environment).
        tasks: Tasks by id (default: ``settings.tasks_file`` or the built-in tasks).
        provider: The sandbox provider (default: the one ``settings.sandbox_provider`` names).

    Returns:
        A Starlette app; ``app.state.gateway`` is the :class:`Gateway`.
    """
    settings = settings or Settings()
    if tasks is None:
        tasks = load_tasks(settings.tasks_file) if settings.tasks_file else load_builtin_tasks()
    own_root = provider is None and settings.sandbox_provider == "local" and not settings.sandbox_root
    gateway = Gateway(settings, tasks, provider if provider is not None else make_provider(settings))
    # Isolated sandboxes: no network of their own; the API reaches them over a unix socket (gateway.api_socket).
    isolate = (
        settings.sandbox_network == "isolated"
        and gateway.provider is not None
        and gateway.provider.supports_socket_binds
    )

    def over_socket(session: Session) -> bool:
        """Whether ``session``'s sandbox reaches the API through the unix socket (the docs tool's examples say so)."""
        lender = gateway.provider
        return (
            session.sandbox is not None
            and lender is not None
            and session.sandbox.provider == lender.name
            and SANDBOX_API_SOCKET in lender.socket_binds
        )

    docs_tools = [docs_tool(name, gateway, unix_socket=over_socket) for name in DOCS_TOOL_NAMES]
    hosts = [
        *settings.allowed_hosts,
        *(urlsplit(u).hostname for u in (settings.public_url, settings.sandbox_base_url) if u),
    ]
    mcp_app = build_mcp(gateway, extra_tools=docs_tools).http_app(
        path="/mcp",
        stateless_http=True,
        json_response=True,
        host_origin_protection="auto",  # Host and Origin checked against DNS rebinding on loopback
        allowed_hosts=[h for h in hosts if h] or None,
    )
    trusted = trusted_only(settings.trusted_networks, settings.control_token)
    # Local and docker sandboxes share this host's network unless isolated (a remote docker engine never is).
    lender = gateway.provider.name if gateway.provider is not None else settings.sandbox_provider
    shares_network = lender in ("local", "docker") and not isolate
    if settings.control_token is None and shares_network:
        logger.warning(
            "sandboxes share this host's network and the control routes need no token: an agent in a sandbox "
            "could call them; set GATEWAY_CONTROL_TOKEN to require one"
        )

    def base_url(request: Request) -> str:
        return settings.public_url or str(request.base_url)

    async def seed_session(request: Request) -> Response:
        body = await json_body(request)
        return JSONResponse(await gateway.seed(body, base_url(request)))

    async def task_state(request: Request) -> Response:
        return JSONResponse(gateway.task_state(session_id_of(request.query_params.get("session_id"))))

    async def verify(request: Request) -> Response:
        body = await json_body(request)
        only_fields(body, "session_id", "response")
        response = body.get("response")
        if response is not None and not isinstance(response, str):
            raise GatewayError("response: must be a string (the final text), or left out")
        return JSONResponse(await gateway.verify(session_id_of(body.get("session_id")), response))

    async def close_session(request: Request) -> Response:
        body = await json_body(request)
        only_fields(body, "session_id")
        return JSONResponse(await gateway.close(session_id_of(body.get("session_id"))))

    async def list_tasks(request: Request) -> Response:
        rows = [{"task_id": t.id, "apps": t.apps, "exposure": t.exposure} for t in gateway.tasks.values()]
        return JSONResponse({"tasks": rows})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def metrics(request: Request) -> Response:
        return Response(gateway.metrics.render(), media_type=CONTENT_TYPE_LATEST)

    routes = [
        _only("POST", "/seed_session", trusted(seed_session)),
        _only("GET", "/task_state", trusted(task_state)),
        _only("POST", "/verify", trusted(verify)),
        _only("POST", "/close_session", trusted(close_session)),
        _only("GET", "/tasks", trusted(list_tasks)),
        _only("GET", "/health", health),
        _only("GET", "/metrics", trusted(metrics)),
        _only("GET", "/openapi.json", trusted(control_openapi_route(gateway))),
        *api_routes(gateway),
        *cli_routes(gateway),
        Mount("/", app=mcp_app),  # last: the routes above win
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await gateway.reap()
        root: Path | None = getattr(gateway.provider, "root", None)
        async with mcp_app.lifespan(app):
            try:
                async with contextlib.AsyncExitStack() as stack:
                    if isolate and gateway.provider is not None:
                        # In the provider's root: whoever removes it after a crash removes the socket too.
                        path = await stack.enter_async_context(serve_on_unix_socket(app, parent=root))
                        gateway.provider.bind_socket(SANDBOX_API_SOCKET, str(path))
                        stack.callback(gateway.provider.bind_socket, SANDBOX_API_SOCKET, None)
                    try:
                        yield
                    finally:
                        await gateway.shutdown()  # before the socket closes: sandboxes may still be calling
            finally:
                if own_root and root is not None:
                    with contextlib.suppress(OSError):
                        root.rmdir()

    app = Starlette(
        routes=routes, lifespan=lifespan, middleware=[Middleware(BodyLimit, max_bytes=settings.max_request_bytes)]
    )
    app.state.gateway = gateway
    return app
