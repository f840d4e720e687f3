"""The OpenEnv server: ``company-gateway-openenv --gateway-url URL [--tasks-file F] [--port P]``.

Serves OpenEnv's HTTP and WebSocket API (``/reset``, ``/step``, ``/state``, ``/ws``, ``/mcp``) with one
:class:`~company_gateway_openenv.environment.CompanyGatewayEnvironment` per client session.
"""

from __future__ import annotations

import argparse
import functools

from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation

from company_gateway_openenv.environment import CompanyGatewayEnvironment, GatewayConfig, GatewayEnvState

__all__ = ["build_app", "main"]


def build_app(config: GatewayConfig, max_concurrent_envs: int = 64):  # type: ignore[no-untyped-def]
    """The FastAPI app OpenEnv builds for this environment (one environment per client session)."""
    return create_app(functools.partial(CompanyGatewayEnvironment, config), CallToolAction, CallToolObservation,
                      env_name="company_gateway", max_concurrent_envs=max_concurrent_envs,
                      state_cls=GatewayEnvState)  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """Parse the options and serve until stopped."""
    import uvicorn

    parser = argparse.ArgumentParser(prog="company-gateway-openenv", description=__doc__.splitlines()[0])
    parser.add_argument("--gateway-url", default="http://127.0.0.1:8000", help="the running gateway's base URL")
    parser.add_argument("--control-token", default=None, help="the gateway's control token, when it has one")
    parser.add_argument("--tasks-file", default=None, help="`company-gateway tasks --json` output, to reset by split")
    parser.add_argument("--episodes-file", default=None, help="append each episode's record to this JSONL file")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    parser.add_argument("--port", type=int, default=8010, help="port (default 8010)")
    parser.add_argument("--max-sessions", type=int, default=64, help="client sessions at once (default 64)")
    args = parser.parse_args(argv)
    config = GatewayConfig(gateway_url=args.gateway_url, control_token=args.control_token,
                           tasks_file=args.tasks_file, episodes_file=args.episodes_file)  # fmt: skip
    uvicorn.run(build_app(config, args.max_sessions), host=args.host, port=args.port)


if __name__ == "__main__":
    main()
