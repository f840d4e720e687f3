"""Entry point of one server process: ``python -m bench.serve gateway|gateway-fastmcp|gateway-kept|gateway-files|bare``.

``gateway-fastmcp`` has the MCP fast path switched off (every MCP request through FastMCP, part a);
``gateway-kept`` keeps at most :data:`bench.closed.KEPT` closed sessions (part e); ``gateway-files`` lends
local sandboxes (``bench.release``).

Binds a free loopback port, prints ``READY <port>`` on stdout, then serves under
uvicorn (log level warning) until SIGTERM.
"""

from __future__ import annotations

import logging
import socket
import sys
from typing import Any

import uvicorn


def main(kind: str) -> None:
    logging.basicConfig(level=logging.WARNING)
    if kind in ("gateway", "gateway-fastmcp", "gateway-kept"):
        from bench.closed import KEPT
        from gateway.settings import Settings
        from gateway.surfaces.asgi import create_app

        kept = {"max_closed_sessions": KEPT} if kind == "gateway-kept" else {}
        fast = kind != "gateway-fastmcp"
        app = create_app(Settings(sandbox_provider="none", log_level="WARNING", mcp_fast_path=fast, **kept))
    elif kind == "gateway-files":  # local sandboxes; GATEWAY_SANDBOX_ROOT and GATEWAY_MEMORY_TRIM_INTERVAL_S apply
        from gateway.settings import Settings
        from gateway.surfaces.asgi import create_app

        app = create_app(Settings(sandbox_provider="local", log_level="WARNING"))
    elif kind == "bare":
        from bench.bare import create_bare_app

        app = create_bare_app()
    else:
        kinds = "gateway|gateway-fastmcp|gateway-kept|gateway-files|bare"
        raise SystemExit(f"usage: python -m bench.serve {kinds} (not {kind!r})")
    # proto=IPPROTO_TCP: asyncio sets TCP_NODELAY only on sockets whose proto says TCP (else 40 ms delayed-ACK stalls)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            print(f"READY {port}", flush=True)  # listening, lifespan started

    http: Any = "auto"
    if kind != "bare":  # the gateway's servers read request heads with the deadline ``serve`` sets
        from gateway.surfaces.protocol import http_protocol

        gateway_settings = app.state.gateway.settings
        http = http_protocol(gateway_settings.read_timeout_s, gateway_settings.max_request_bytes)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", proxy_headers=False, backlog=4096, http=http)
    Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
