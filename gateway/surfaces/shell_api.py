"""The server side of the shell commands: ``POST /cli/<app>`` with the command's words.

The body is form-encoded: ``argc`` (the number of words) then one ``argv``
field per word, in order. The words are parsed by :mod:`cli_shim.parse` and
the call runs through :meth:`gateway.control.core.Gateway.call` with ``surface="cli"``.
The parser and the scripts (``cli_shim``) read only the registry; this route
is the gateway's.

Answers are text: 200 the JSON result (or help); 400 wrong usage; 401 bad
token; 404 a command this session does not have; 405 not POST; 409 no further changes; 422
a call the company's data refused. The script turns them into exit statuses.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from cli_shim.parse import APPLESS_COMMAND, Help, UsageError, option, parse_argv
from gateway.control.core import SERVER_FAULT_MESSAGE, CallRefused, Gateway, ServerFault
from gateway.control.workspace import PROVIDER_FAILED_MESSAGE, ProviderFailed
from gateway.surfaces.http_api import bearer_session, callable_apps
from tools import COMPLETE_TASK, REGISTRY, Action, AppError, shorten

__all__ = ["cli_routes", "read_argv"]

APPLESS_DESCRIPTION = "Commands that belong to no single app."


def _text(status: int, text: str) -> Response:
    if status >= 400:  # an error repeats a caller's long word only in part
        text = "\n".join(shorten(line) for line in text.splitlines())
    text = text.removesuffix("\n")
    return PlainTextResponse(text + "\n", status_code=status)


def read_argv(body: bytes) -> list[str]:
    """The words of a form-encoded ``argc``/``argv`` body, in order.

    Raises:
        ValueError: the body is not UTF-8 form data, or ``argc`` disagrees with the number of words.
    """
    fields = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False, errors="strict")
    words = [v for k, v in fields if k == "argv"]
    counts = [v for k, v in fields if k == "argc"]
    if counts and (not counts[0].isdigit() or int(counts[0]) != len(words)):
        raise ValueError(f"argc says {counts[0]} words but {len(words)} arrived")
    return words


def _commands(apps: list[str]) -> dict[str, tuple[str, dict[str, Action]]]:
    found = {app: (REGISTRY.apps[app].description, REGISTRY.apps[app].actions) for app in apps}
    found[APPLESS_COMMAND] = (APPLESS_DESCRIPTION, {COMPLETE_TASK.name: COMPLETE_TASK})
    return found


def cli_routes(gateway: Gateway) -> list[Route]:
    """The ``/cli/<app>`` route; mount it before any catch-all."""
    # Imported here, not at the top: the gateway package imports this module while it builds its app.

    async def run(request: Request) -> Response:
        if request.method != "POST":
            return PlainTextResponse("use POST with the command's words\n", status_code=405, headers={"Allow": "POST"})
        session = bearer_session(request, gateway)
        if session is None:
            return _text(401, "the access token is missing or not valid; check COMPANY_API_TOKEN")
        command = request.path_params["app"]
        commands = _commands(callable_apps(session))
        if command not in commands:
            return _text(404, f"unknown command '{command}'; commands here: {', '.join(commands)}")
        description, actions = commands[command]
        try:
            argv = read_argv(await request.body())
        except UnicodeDecodeError:
            return _text(400, f"{command}: the words could not be read (they are not UTF-8 text)")
        except (ValueError, RecursionError) as exc:
            shown = "a number too long to read" if "digits" in str(exc) else str(exc)
            return _text(400, f"{command}: the words could not be read ({shown})")
        try:
            parsed = parse_argv(command, actions, argv, description)
        except UsageError as exc:
            where = f"{command} {exc.action.command}" if exc.action else command
            return _text(400, f"{where}: {exc.message}\nRun '{where} --help' for usage.")
        if isinstance(parsed, Help):
            return _text(200, parsed.text)
        where = f"{command} {parsed.action.command}"
        try:
            result = await gateway.call(session, parsed.action.tool_name, parsed.arguments, surface="cli")
        except AppError as exc:
            lead = f"{option(exc.parameter)}: " if exc.parameter else ""
            return _text(422, f"{where}: {lead}{exc.message}")
        except CallRefused as exc:
            return _text(409, f"{where}: {exc}")
        except ProviderFailed:
            return _text(502, f"{where}: {PROVIDER_FAILED_MESSAGE}")
        except ServerFault:
            return _text(500, f"{where}: {SERVER_FAULT_MESSAGE}")
        return Response(json.dumps(result, ensure_ascii=False, indent=2) + "\n", media_type="application/json")

    # Every method, so that a wrong one is answered here (405) rather than as not found by the catch-all mount.
    return [Route("/cli/{app}", run, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])]
