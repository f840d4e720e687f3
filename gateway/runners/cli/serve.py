"""``company-gateway serve``: serve the gateway (MCP at /mcp, the control routes)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import sys
from typing import Any

__all__ = ["run"]


def _cannot_bind(host: str, port: int) -> str | None:
    """Why HOST:PORT cannot be bound now (e.g. "Address already in use"), or None when it can.

    The probe binds as uvicorn does (SO_REUSEADDR, so a port in TIME_WAIT passes) and lets go at once; a host
    that does not resolve is refused before (``run``).
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]  # fmt: skip
    except (OSError, IndexError):
        return None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


def run(args: argparse.Namespace) -> int:
    """``serve``: the gateway on HOST:PORT until SIGTERM or SIGINT; the exit status is the signal's."""
    import uvicorn

    from gateway.settings import Settings
    from gateway.surfaces.asgi import create_app
    from gateway.surfaces.protocol import http_protocol

    overrides = {k: v for k, v in vars(args).items() if k in Settings.model_fields and v is not None}
    settings = Settings(**overrides)
    # Before the task rows load (seconds for the built-in ones): a host that is no address, or a port in use, is
    # said at once.
    try:
        socket.getaddrinfo(settings.host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        print(f"company-gateway serve: --host {settings.host} (GATEWAY_HOST) is no address here: "
              f"{exc.strerror or exc}; use an interface's address, 127.0.0.1 or 0.0.0.0", file=sys.stderr)  # fmt: skip
        return 2
    if settings.port and (why := _cannot_bind(settings.host, settings.port)):
        print(f"company-gateway serve: --port {settings.port} (GATEWAY_PORT) cannot be bound on {settings.host}: "
              f"{why}; choose another --port, or --port 0 for a free one", file=sys.stderr)  # fmt: skip
        return 2
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")
    app = create_app(settings)
    gateway = app.state.gateway
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        proxy_headers=False,  # the peer address is the socket's, never one from X-Forwarded-For
        timeout_graceful_shutdown=max(1, int(settings.shutdown_timeout_s - 2)),
        http=http_protocol(settings.read_timeout_s, settings.max_request_bytes),
    )

    class Server(uvicorn.Server):
        """Refuses new seeds the moment SIGTERM or SIGINT arrives, before waiting for open requests."""

        async def serve(self, sockets: list[socket.socket] | None = None) -> None:
            # Reach the sandbox provider first, in the server's loop: an unreachable engine is then one
            # ProviderUnavailable line (main), not a traceback from the app's startup.
            await gateway.reap()
            await super().serve(sockets)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            bound = [sock.getsockname() for server in self.servers for sock in server.sockets]
            if bound and not self.should_exit:  # the port actually taken (port 0 picks one)
                host, port = bound[0][0], bound[0][1]
                shown = f"[{host}]" if ":" in host else host
                print(f"company-gateway: serving http://{shown}:{port} (MCP at /mcp)", flush=True)

        received: int | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.received = sig
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_soon_threadsafe(gateway.begin_shutdown)
            super().handle_exit(sig, frame)

    server = Server(config)
    print(f"company-gateway: {len(gateway.tasks)} tasks", flush=True)
    try:
        server.run()  # after a clean stop, uvicorn raises the signal again: SIGTERM ends the process as SIGTERM does
    except KeyboardInterrupt:  # SIGINT, re-raised the same way: the shell's usual status, no traceback
        return 128 + signal.SIGINT
    # SIGINT raised again inside asyncio's runner can land on a main task that has just finished, and the
    # runner then returns quietly (seen under load): the status is still the shell's usual one for SIGINT.
    return 128 + signal.SIGINT if server.received == signal.SIGINT else 0
