"""Errors of the gateway's control plane.

Tree::

    GatewayError            base of every control-plane error
    ├── TaskError           a task row or task file is invalid, or an id names no task
    ├── SessionError        a session cannot do what was asked
    │   ├── UnknownSession  no live session has that id (HTTP 404)
    │   └── SessionClosed   the session is verified or closed; its token no longer works (HTTP 409)
    ├── ShuttingDown        the server refuses new sessions while it stops (HTTP 503)
    └── SandboxUnavailable  a seed's sandbox could not be started (HTTP 503); nothing is held
"""

from __future__ import annotations

__all__ = [
    "GatewayError",
    "SandboxUnavailable",
    "SessionClosed",
    "SessionError",
    "ShuttingDown",
    "TaskError",
    "UnknownSession",
]


class GatewayError(Exception):
    """Base of every control-plane error; the message is safe to return to the control client."""

    status_code = 400


class TaskError(GatewayError):
    """A task row or file is invalid, or a task id is unknown."""


class SessionError(GatewayError):
    """A session cannot do what was asked."""

    status_code = 409


class UnknownSession(SessionError):
    """No session has that id."""

    status_code = 404


class SessionClosed(SessionError):
    """The session is verified or closed."""

    status_code = 409


class ShuttingDown(GatewayError):
    """The server is stopping and takes no new sessions."""

    status_code = 503


class SandboxUnavailable(GatewayError):
    """The seed's sandbox could not be started; the seed holds nothing."""

    status_code = 503
