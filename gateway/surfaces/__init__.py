"""The surfaces: the ASGI app and everything that speaks a wire format to a caller.

Control routes, MCP (``/mcp``), the company HTTP API (``/api/...``), the shell API the app
commands call, the unix socket sandboxes reach it through, request limits and hints. Each
turns a request into a call on the control plane and its answer back into the wire format.
"""

from gateway.surfaces.asgi import create_app

__all__ = ["create_app"]
