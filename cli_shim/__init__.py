"""The shell commands lent to a workspace, and the server side that parses their words.

``cli_shim`` reads only the registry; the route that receives the words is the
gateway's (:mod:`gateway.surfaces.shell_api`).
"""

from cli_shim.generate import command_scripts, script_for
from cli_shim.parse import (
    APPLESS_COMMAND,
    Help,
    Invocation,
    UsageError,
    action_help,
    app_help,
    parse_argv,
    to_argv,
)

__all__ = [
    "APPLESS_COMMAND",
    "Help",
    "Invocation",
    "UsageError",
    "action_help",
    "app_help",
    "command_scripts",
    "parse_argv",
    "script_for",
    "to_argv",
]
