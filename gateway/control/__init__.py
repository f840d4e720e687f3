"""The control plane: seed, call, verify, close; sessions, admission, tasks, workspaces, metrics. No transport.

Surfaces (``gateway.surfaces``) turn HTTP, MCP and shell requests into calls on :class:`Gateway`;
grading (``gateway.grading``) turns a session's final world into a reward.
"""

from gateway.control.core import Gateway

__all__ = ["Gateway"]
