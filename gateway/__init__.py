"""The gateway: ASGI server, control plane, sessions, tasks and grading."""

from gateway.app import create_app
from gateway.core import Gateway
from gateway.settings import Settings

__all__ = ["Gateway", "Settings", "create_app"]
