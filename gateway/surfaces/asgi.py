"""The ASGI application: FastMCP at ``/mcp``, the ``/api`` and ``/cli`` routes, and the control routes.

Control routes (``/seed_session``, ``/task_state``, ``/verify``,
``/close_session``, ``/tasks``, ``/metrics``, ``/openapi.json``) answer only peers
inside ``trusted_networks``, judged by the socket's peer address (never by a
forwarded header), and never a request that came through the sandboxes' unix
socket (:mod:`gateway.surfaces.socket`), which has no peer address.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount

from docs_tool import DOCS_TOOL_NAMES, docs_tool
from gateway.control.core import SWITCH_INTERVAL_S, Gateway
from gateway.control.rows import Task, settings_tasks
from gateway.control.sessions import Session
from gateway.control.workspace import SANDBOX_API_SOCKET, make_provider
from gateway.settings import Settings
from gateway.surfaces.control_routes import control_routes
from gateway.surfaces.gate import SessionGate
from gateway.surfaces.http_api import api_routes
from gateway.surfaces.limits import BodyLimit, BodyValues, ShortErrors
from gateway.surfaces.mcp import build_mcp, mcp_tools
from gateway.surfaces.mcp_fast import FastPath, server_info
from gateway.surfaces.refusals import JsonRefusals
from gateway.surfaces.shell_api import cli_routes
from gateway.surfaces.socket import remove_stale_sockets, serve_on_unix_socket
from sandbox import Provider

__all__ = ["create_app"]

logger = logging.getLogger(__name__)


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
        tasks = settings_tasks(settings.tasks_file, settings.tasks_split, settings.tasks_family)
    own_root = provider is None and settings.sandbox_provider == "local" and not settings.sandbox_root
    gateway = Gateway(settings, tasks, provider if provider is not None else make_provider(settings))
    # Isolated sandboxes: no network of their own; the API reaches them over a unix socket (gateway.surfaces.socket).
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
    tools = mcp_tools(gateway, docs_tools)
    server = build_mcp(gateway, tools=tools)
    mcp_app = server.http_app(
        path="/mcp",
        stateless_http=True,
        json_response=True,
        host_origin_protection="auto",  # Host and Origin checked against DNS rebinding on loopback
        allowed_hosts=[h for h in hosts if h] or None,
    )
    # Local and docker sandboxes share this host's network unless isolated (a remote docker engine never is).
    lender = gateway.provider.name if gateway.provider is not None else settings.sandbox_provider
    shares_network = lender in ("local", "docker") and not isolate
    if settings.control_token is None and shares_network:
        logger.warning(
            "sandboxes share this host's network and the control routes need no token: an agent in a sandbox "
            "could call them; set GATEWAY_CONTROL_TOKEN to require one"
        )

    mcp_app.add_exception_handler(404, _json_not_found)  # the mount below takes every path the others do not

    routes = [
        *control_routes(gateway),
        *api_routes(gateway),
        *cli_routes(gateway),
        # last: the routes above win. The fast path answers hot MCP requests itself, the rest go to FastMCP;
        # whatever either refuses in plain text is answered in JSON.
        Mount(
            "/",
            app=JsonRefusals(
                ShortErrors(
                    FastPath(mcp_app, gateway, tools, enabled=settings.mcp_fast_path, server_info=server_info(server))
                )
            ),
        ),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await gateway.reap()
        root: Path | None = getattr(gateway.provider, "root", None)
        if root is not None:
            await asyncio.to_thread(remove_stale_sockets, root)  # a killed run's socket folder
        async with mcp_app.lifespan(app):
            # What was built at start (tasks, tools, companies: ~330,000 objects) lives as long as the process;
            # a full collection walking it held the loop ~0.35 s. Frozen, collections walk only what came after.
            gc.collect()
            gc.freeze()
            # An action running in a worker thread hands the GIL back to the event loop this often.
            switch_interval = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_INTERVAL_S)
            try:
                async with contextlib.AsyncExitStack() as stack:
                    if isolate and gateway.provider is not None:
                        # In the provider's root: whoever removes it after a crash removes the socket too.
                        served = serve_on_unix_socket(
                            app,
                            parent=root,
                            head_timeout_s=settings.read_timeout_s,
                            max_request_bytes=settings.max_request_bytes,
                        )
                        path = await stack.enter_async_context(served)
                        gateway.provider.bind_socket(SANDBOX_API_SOCKET, str(path))
                        stack.callback(gateway.provider.bind_socket, SANDBOX_API_SOCKET, None)
                    try:
                        yield
                    finally:
                        await gateway.shutdown()  # before the socket closes: sandboxes may still be calling
            finally:
                gc.unfreeze()  # what a stopped app leaves may be collected again
                sys.setswitchinterval(switch_interval)
                if own_root and root is not None:
                    with contextlib.suppress(OSError):
                        root.rmdir()

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: _json_not_found},  # a target no mount takes: `OPTIONS *`, `GET *`
        middleware=[
            # First, from the head alone: the caller's session, and its turn (429 past its bound), before any body.
            Middleware(
                SessionGate,
                gateway=gateway,
                max_inflight=settings.session_max_inflight,
                large_body_bytes_per_s=settings.large_body_bytes_per_s,
            ),
            # The MCP transport refuses bodies over its own limit (4 MiB) in plain text; ours answers first, in JSON.
            Middleware(
                BodyLimit,
                max_bytes=settings.max_request_bytes,
                # /mcp/ is served as /mcp: the same bound, from the head
                paths={
                    "/mcp": DEFAULT_MAX_REQUEST_BODY_SIZE,
                    "/mcp/": DEFAULT_MAX_REQUEST_BODY_SIZE,
                    "/seed_session": settings.max_seed_bytes,
                },
                timeout_s=settings.read_timeout_s,
            ),
            Middleware(BodyValues),  # inside BodyLimit: counts only what that let through
        ],
    )
    app.state.gateway = gateway
    return app


async def _json_not_found(request: Request, exc: Exception) -> Response:
    """A path no route serves: ``{"error": ...}`` with 404 (Starlette's own answer is plain text)."""
    path = request.url.path
    shown = path if len(path) <= 80 else path[:80] + "..."
    return JSONResponse({"error": f"no route {request.method} {shown}; the MCP endpoint is /mcp"}, status_code=404)
