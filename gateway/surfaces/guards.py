"""What every control route shares: the trusted-peer guard, JSON bodies, field and method checks.

The cluster's seed router (``gateway.cluster.router``) guards its routes with the same functions.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gateway.exceptions import GatewayError
from gateway.surfaces.socket import from_sandbox

__all__ = [
    "Handler", "NotStrictJSON", "json_body", "lone_surrogate_field", "method_only", "no_constant", "once_each",
    "only_fields", "session_id_of", "trusted_only",
]  # fmt: skip

logger = logging.getLogger(__name__)

#: A Starlette route handler.
Handler = Callable[[Request], Awaitable[Response]]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def trusted_only(networks: list[str], control_token: str | None = None) -> Callable[[Handler], Handler]:
    """Wrap a control route: peers in ``networks`` only (by the socket's address), bearing ``control_token`` if set.

    A request without a peer address (``scope["client"]`` is None: a unix-socket peer) or one
    that came through the sandboxes' unix socket is refused whatever it bears (403). A
    GatewayError raised by the route becomes a JSON error with its status.
    """
    nets = [ipaddress.ip_network(n, strict=False) for n in networks]
    expected = f"Bearer {control_token}".encode() if control_token else None

    def wrap(handler: Handler) -> Handler:
        async def guarded(request: Request) -> Response:
            if request.client is None or from_sandbox(request.scope):
                why = "came through a sandbox's socket" if from_sandbox(request.scope) else "has no peer address"
                logger.warning("control route %s refused: the request %s", request.url.path, why)
                return _error(403, "this route is only for trusted networks")
            peer = request.client.host
            try:
                addr = ipaddress.ip_address(peer)
            except ValueError:
                addr = None
            if addr is None or not any(addr in n for n in nets):
                logger.warning("control route %s refused to peer %r", request.url.path, peer)
                return _error(403, "this route is only for trusted networks")
            given = request.headers.get("authorization", "").encode()
            if expected is not None and not hmac.compare_digest(given, expected):
                logger.warning("control route %s refused: no or wrong control token", request.url.path)
                return _error(403, "this route needs the control token (Authorization: Bearer ...)")
            try:
                return await handler(request)
            except GatewayError as exc:
                return _error(exc.status_code, str(exc))

        return guarded

    return wrap


#: A JSON escape of a UTF-16 surrogate (backslash, ``ud800``): only then can a parsed body hold a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def lone_surrogate_field(raw: bytes, body: dict[str, Any]) -> str | None:
    """The first field of ``body`` whose name or value holds a lone surrogate (``U+D800`` on its own), or None.

    Such text parses but can never be sent back (UTF-8 cannot encode it), so an answer showing it would fail.
    Cheap for ordinary bodies: only a body whose bytes hold such an escape is looked at further.
    """
    if not _SURROGATE_ESCAPE.search(raw):
        return None
    for name, value in body.items():
        try:
            json.dumps({name: value}, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return name.encode("utf-8", "backslashreplace").decode("utf-8")
        except RecursionError:
            continue  # nesting is refused where it is read
    return None


class NotStrictJSON(ValueError):
    """JSON that Python's reader takes but the standard does not define: NaN or Infinity, a name twice in one object."""


def no_constant(name: str) -> Any:
    """``json.loads``'s ``parse_constant``: refuse ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON)."""
    raise NotStrictJSON(f"the body holds {name}, which is not JSON; send a number, or null")


def once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s ``object_pairs_hook``: refuse an object naming a field twice (which one counts is unclear)."""
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        twice = next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise NotStrictJSON(f"the body names the field {twice[:60]!r} twice in one object; send each field once")
    return made


async def json_body(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object.

    Raises:
        GatewayError: not JSON (``NaN``, ``Infinity`` and a field named twice in one object included), nested too
            deeply, not an object, or holding a lone surrogate (400).
    """
    raw = await request.body()
    try:
        body = json.loads(raw or b"{}", parse_constant=no_constant, object_pairs_hook=once_each)
    except NotStrictJSON as exc:
        raise GatewayError(str(exc)) from None
    except ValueError:  # not UTF-8, not JSON, or an integer past Python's 4,300-digit limit
        raise GatewayError("the body must be JSON") from None
    except RecursionError:
        raise GatewayError("the body nests too deeply; send a flat JSON object") from None
    if not isinstance(body, dict):
        raise GatewayError("the body must be a JSON object")
    if (field := lone_surrogate_field(raw, body)) is not None:
        raise GatewayError(f"{field}: the text is not valid Unicode (it holds a lone surrogate); send UTF-8 text")
    return body


def only_fields(body: dict[str, Any], *fields: str) -> None:
    """Refuse a body with fields other than ``fields`` (400), naming them and the ones the route takes."""
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise GatewayError(f"unknown fields {unknown}; this route takes {', '.join(repr(f) for f in fields)}")


def session_id_of(value: Any) -> str:
    """``value`` as a session id.

    Raises:
        GatewayError: missing or not a non-empty string (400).
    """
    if not isinstance(value, str) or not value:
        raise GatewayError("session_id: required, a string returned by /seed_session")
    return value


_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def method_only(method: str, path: str, handler: Handler) -> Route:
    """A route for one method that answers every other method with a JSON 405 (not the MCP mount's 404)."""

    async def dispatch(request: Request) -> Response:
        if request.method != method and not (method == "GET" and request.method == "HEAD"):
            return JSONResponse({"error": f"use {method} on {path}"}, status_code=405, headers={"Allow": method})
        return await handler(request)

    return Route(path, dispatch, methods=_METHODS)


