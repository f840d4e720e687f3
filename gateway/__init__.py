"""The gateway: ASGI server, control plane, sessions, tasks and grading."""

from gateway.control.core import Gateway
from gateway.settings import Settings
from gateway.surfaces.asgi import create_app

__all__ = ["Gateway", "Settings", "create_app"]
