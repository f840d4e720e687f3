"""``company-gateway model``: serve the scripted model for dry runs, until SIGTERM or SIGINT.

It plays each session of the gateway at ``--gateway-url`` with ``--policy`` (oracle, noop or wrong), asking the
gateway's control plane which session a request belongs to; the control token comes from ``--control-token``,
else from ``GATEWAY_CONTROL_TOKEN``.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import socket

__all__ = ["run"]

logger = logging.getLogger(__name__)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def run(args: argparse.Namespace) -> int:
    """``model``: the scripted model on HOST:PORT (printed at start); exit status 0, or 130 after SIGINT."""
    import uvicorn

    from gateway.runners.model import GatewayReferences, ScriptedModel

    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    if not _loopback(args.host):
        logger.warning("listening on %s: anyone who reaches it can ask it for the reference solutions", args.host)
    token = args.control_token or os.environ.get("GATEWAY_CONTROL_TOKEN") or None
    model = ScriptedModel(GatewayReferences(args.gateway_url, token), policy=args.policy, keep_requests=0)
    config = uvicorn.Config(model.app(), host=args.host, port=args.port, log_level=args.log_level.lower(),
                            proxy_headers=False)  # fmt: skip

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            bound = [sock.getsockname() for server in self.servers for sock in server.sockets]
            if bound and not self.should_exit:
                host, port = bound[0][0], bound[0][1]
                shown = f"[{host}]" if ":" in host else host
                print(f"company-gateway model: serving http://{shown}:{port}/v1 (policy {args.policy}, "
                      f"sessions of {args.gateway_url})", flush=True)  # fmt: skip

    try:
        Server(config).run()
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    return 0
