"""What the sandbox-network tests share: a served gateway, and a probe of the control routes from inside a sandbox."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

import httpx
from starlette.applications import Starlette

from sandbox import ExecResult

TASK_ID = "dir-manager-of-owen"
#: Every control route, as curl arguments after the base URL's path.
CONTROL = {
    "/tasks": [],
    "/metrics": [],
    "/openapi.json": [],
    "/task_state?session_id=s_x": [],
    "/seed_session": ["-d", '{"task_id": "no-such-row"}'],
    "/verify": ["-d", "{}"],
    "/close_session": ["-d", "{}"],
    "/renew_session": ["-d", "{}"],
}
#: Prints "<path> <status>" for each control route, asked the way a command in the sandbox would.
PROBE = """
base=${COMPANY_API_URL%/api}
ask() { p=$1; shift; echo "$p $(curl -s ${COMPANY_API_SOCKET:+--unix-socket "$COMPANY_API_SOCKET"} \\
    -o /dev/null -w '%{http_code}' "$@" "$base$p")"; }
"""
#: The start-up warning when sandboxes share this host's network and no control token is set.
WARNING = "an agent in a sandbox could call them"


def statuses(result: ExecResult) -> dict[str, str]:
    """``{path: status}`` from the output of :func:`probe_control_routes`."""
    return dict(line.split(" ", 1) for line in result.stdout.decode().splitlines())


def probe_control_routes() -> str:
    """A shell script asking every control route (see :data:`PROBE`)."""
    return PROBE + "\n".join(shlex.join(["ask", path, *args]) for path, args in CONTROL.items())


@dataclass
class Served:
    """A gateway served on loopback, its control client, and the provider its sandboxes come from."""

    app: Starlette
    base: str
    control: httpx.AsyncClient
    provider: str

    async def seed(self, exposure: str = "cli") -> dict[str, Any]:
        r = await self.control.post("/seed_session", json={"task_id": TASK_ID, "exposure": exposure})
        assert r.status_code == 200, r.text
        return r.json()

    async def run(self, seed: dict[str, Any], script: str, **env: str) -> ExecResult:
        """Run ``script`` with ``sh -c`` in the session's sandbox."""
        gateway = self.app.state.gateway
        sandbox = gateway.get_session(seed["session_id"]).sandbox
        assert sandbox is not None and sandbox.provider == self.provider
        return await gateway.provider.exec(sandbox, ["sh", "-c", script], timeout_s=30, env=env or None)
