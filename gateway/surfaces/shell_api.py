"""The server side of the shell commands: ``POST /cli/<app>`` with the command's words.

The body is form-encoded: ``argc`` (the number of words) then one ``argv``
field per word, in order. The words are parsed by :mod:`cli_shim.parse` and
the call runs through :meth:`gateway.control.core.Gateway.call` with ``surface="cli"``.
The parser and the scripts (``cli_shim``) read only the registry; this route
is the gateway's.

Answers: 200 the JSON result (or help, as text); 400 wrong usage; 401 bad
token; 404 a command this session does not have; 405 not POST; 409 no further changes; 422
a call the company's data refused. Refusals are JSON in the company API's shape
(``{"error": {"message", "parameter"}}``), or plain text to a caller that asks for it
(``Accept: text/plain``, as the app commands do: their words are for a person to read).
The script turns the statuses into exit statuses.
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
from gateway.surfaces.http_api import bearer_session, callable_apps, error_response
from tools import COMPLETE_TASK, REGISTRY, Action, AppError, shorten

__all__ = ["cli_routes", "read_argv"]

APPLESS_DESCRIPTION = "Commands that belong to no single app."


def _wants_text(request: Request) -> bool:
    """Whether the caller asked for plain-text refusals (``Accept: text/plain`` without JSON; the app commands do)."""
    accept = request.headers.get("accept", "").lower()
    return "text/plain" in accept and "application/json" not in accept


def _text(status: int, text: str, request: Request, parameter: str | None = None, **headers: str) -> Response:
    """An answer: help (200) as text; a refusal as JSON, or as text to a caller that asked for text."""
    if status >= 400:  # an error repeats a caller's long word only in part
        text = "\n".join(shorten(line) for line in text.splitlines())
        if not _wants_text(request):
            return error_response(status, text.strip(), parameter, **headers)
    text = text.removesuffix("\n")
    return PlainTextResponse(text + "\n", status_code=status, headers=headers)


def read_argv(body: bytes) -> list[str]:
    """The words of a form-encoded ``argc``/``argv`` body, in order.

    Raises:
        ValueError: the body is not UTF-8 form data (JSON included), or ``argc`` disagrees with the number of words.
    """
    if body.lstrip()[:1] in (b"{", b"["):
        raise ValueError("the body is JSON, not form fields; send argc=N, then argv=WORD once per word, in order")
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
            return _text(405, "use POST with the command's words", request, Allow="POST")
        session = bearer_session(request, gateway)
        if session is None:
            return _text(401, "the access token is missing or not valid; check COMPANY_API_TOKEN", request)
        command = request.path_params["app"]
        commands = _commands(callable_apps(session))
        if command not in commands:
            return _text(404, f"unknown command '{command}'; commands here: {', '.join(commands)}", request)
        description, actions = commands[command]
        try:
            argv = read_argv(await request.body())
        except UnicodeDecodeError:
            return _text(400, f"{command}: the words could not be read (they are not UTF-8 text)", request)
        except (ValueError, RecursionError) as exc:
            shown = "a number too long to read" if "digits" in str(exc) else str(exc)
            return _text(400, f"{command}: the words could not be read ({shown})", request)
        try:
            parsed = parse_argv(command, actions, argv, description)
        except UsageError as exc:
            where = f"{command} {exc.action.command}" if exc.action else command
            return _text(400, f"{where}: {exc.message}\nRun '{where} --help' for usage.", request)
        if isinstance(parsed, Help):
            return _text(200, parsed.text, request)
        where = f"{command} {parsed.action.command}"
        try:
            result = await gateway.call(session, parsed.action.tool_name, parsed.arguments, surface="cli")
        except AppError as exc:
            lead = f"{option(exc.parameter)}: " if exc.parameter else ""
            return _text(422, f"{where}: {lead}{exc.message}", request, exc.parameter)
        except CallRefused as exc:
            return _text(409, f"{where}: {exc}", request)
        except ProviderFailed:
            return _text(502, f"{where}: {PROVIDER_FAILED_MESSAGE}", request)
        except ServerFault:
            return _text(500, f"{where}: {SERVER_FAULT_MESSAGE}", request)
        return Response(json.dumps(result, ensure_ascii=False, indent=2) + "\n", media_type="application/json")

    # Every method, so that a wrong one is answered here (405) rather than as not found by the catch-all mount.
    return [Route("/cli/{app}", run, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])]
