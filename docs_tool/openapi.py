"""The OpenAPI 3.1 document of the company API, generated from the registry.

One path per action (``POST /api/<app>/<action>``, and ``POST /api/complete_task``),
its request body the action's input schema, a bearer security scheme, and the
error shape ``{"error": {"message", "parameter"}}`` shared by every endpoint and status (400, 401, 404,
408, 409, 413, 429, 502). A body over the size limit is refused before it is read (413), as is a request
past its token's bound on open requests (429, with ``Retry-After``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tools import COMPLETE_TASK, REGISTRY, Action
from tools.kernel.examples import example_arguments, returns_text

__all__ = ["API_DESCRIPTION", "openapi_document"]

API_DESCRIPTION = (
    "The company's mail, calendar, files, chat and people directory. Every endpoint is POST with a JSON object "
    "body and the header 'Authorization: Bearer $COMPANY_API_TOKEN'; $COMPANY_API_URL is the base of the "
    "paths below without their leading /api (POST /api/directory/get_person is POST "
    '$COMPANY_API_URL/directory/get_person). Errors answer {"error": {"message", "parameter"}}.'
)

_ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "message": {"type": "string", "description": "What went wrong and what to do instead."},
                "parameter": {"type": ["string", "null"], "description": "The parameter at fault, if any."},
            },
            "required": ["message", "parameter"],
        }
    },
    "required": ["error"],
}

_ERRORS = {
    "400": "Invalid JSON, a bad parameter, or a request the company's data refuses; the message says which.",
    "401": "The access token is missing or not valid.",
    "404": "No such app or action here; the message lists what exists.",
    "408": "The request body took too long to arrive.",
    "409": "No further changes are possible.",
    "413": "The request body is over the size limit (refused before it is read).",
    "429": "Too many requests open at once for this token; retry after the seconds Retry-After gives.",
    "502": "The workspace could not be reached just now; nothing was changed. Try again.",
}

#: The 200 answer: every action returns a JSON object (its shape is in the action's description).
_RESULT_SCHEMA: dict[str, Any] = {"type": "object"}


_HEADERS = {
    "401": {"WWW-Authenticate": {"description": "Always 'Bearer'.", "schema": {"type": "string"}}},
    "429": {"Retry-After": {"description": "Seconds to wait before sending again.", "schema": {"type": "integer"}}},
}


def _json(schema: dict[str, Any], description: str, **extra: Any) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}, **extra}


def _operation(action: Action) -> dict[str, Any]:
    returns = returns_text(action)
    return {
        "operationId": f"{action.app}_{action.name}" if action.app else action.name,
        "summary": action.summary,
        "description": action.description,
        "tags": [action.app or "company"],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": action.input_schema, "example": example_arguments(action)}},
        },
        "responses": {
            "200": _json(_RESULT_SCHEMA, f"The result: {returns}" if returns else "The result."),
            **{
                code: _json(
                    {"$ref": "#/components/schemas/Error"},
                    text,
                    **({"headers": _HEADERS[code]} if code in _HEADERS else {}),
                )
                for code, text in _ERRORS.items()
            },
        },
        "x-read-only": action.read_only,
    }


def openapi_document(apps: Iterable[str] | None = None, server_url: str = "") -> dict[str, Any]:
    """The OpenAPI 3.1 document for ``apps`` (default: every app) plus ``/api/complete_task``.

    Args:
        apps: App names to describe, or None for all.
        server_url: Absolute base URL of the server (the paths start with ``/api``); omitted when empty.

    Returns:
        The document as a JSON-able dict.
    """
    names = list(REGISTRY.apps) if apps is None else [a for a in apps if a in REGISTRY.apps]
    actions = [*REGISTRY.actions(names), COMPLETE_TASK]
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Company API", "version": "1.0.0", "description": API_DESCRIPTION},
        "tags": [
            *({"name": n, "description": REGISTRY.apps[n].description} for n in names),
            {"name": "company", "description": "Saying that the work is done."},
        ],
        "paths": {a.http_path: {"post": _operation(a)} for a in actions},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Error": _ERROR_SCHEMA},
        },
        "security": [{"bearer": []}],
    }
    if server_url:
        doc["servers"] = [{"url": server_url}]
    return doc
