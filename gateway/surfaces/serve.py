"""Serving the ASGI app under uvicorn in the background of a running event loop (demo, rollout, tests)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import uvicorn
from starlette.applications import Starlette

from gateway.settings import Settings
from gateway.surfaces.protocol import http_protocol

__all__ = ["serve_in_background"]


@contextlib.asynccontextmanager
async def serve_in_background(app: Starlette, host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[str]:
    """Run ``app`` under uvicorn on a socket bound here; yields its base URL (``http://host:port``)."""
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose proto says TCP (else ~40 ms per reply).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # proxy_headers=False: the peer address must be the socket's, never one taken from X-Forwarded-For.
    gateway = getattr(app.state, "gateway", None)
    settings = gateway.settings if gateway is not None else Settings()
    http = http_protocol(settings.read_timeout_s, settings.max_request_bytes)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", proxy_headers=False, http=http)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()  # raises why the server could not start
                raise RuntimeError("the server stopped before it started")
            await asyncio.sleep(0.005)
        yield f"http://{host}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        sock.close()
