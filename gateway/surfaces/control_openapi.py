"""The OpenAPI 3.1 document of the control plane, served at ``GET /openapi.json`` to trusted peers.

It describes ``/seed_session``, ``/task_state``, ``/verify``, ``/close_session``,
``/reference_solution``, ``/renew_session``, ``/tasks`` and ``/health`` as docs/control-plane.md fixes them
(field names fixed, more fields welcome, so response objects allow extra properties). Every control
error answers ``{"error": "<text>"}``: 400 bad input, 403 a peer outside
``trusted_networks``, 404 unknown session, 409 the session cannot do that, 413
a body over ``max_request_bytes``, 503 shutting down or no sandbox to lend.
Links from the seed answer let a stateful client follow a session through
task state, verify and close.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gateway.control.core import Gateway
from gateway.control.rows import Task
from tools import REGISTRY

__all__ = ["control_openapi_document", "control_openapi_route"]

_REF = "#/components/schemas/"

_ERROR_TEXT = {
    "400": "The request is not valid; the text names the field at fault.",
    "403": "The caller is outside the server's trusted networks.",
    "404": "No session has that id: never seeded, or closed and since forgotten (closed_session_ttl_s, "
    "max_closed_sessions).",
    "409": "The session cannot do that (e.g. closed before it was verified: the same answer on every retry).",
    "413": "The request body is over the server's size limit.",
    "503": "The server is shutting down, or the sandbox could not be started.",
}

_NULLABLE_STR: dict[str, Any] = {"type": ["string", "null"]}

_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "properties": {"error": {"type": "string", "description": "What went wrong."}},
        "required": ["error"],
    },
    "SeedResponse": {
        "type": "object",
        "properties": {
            "session_id": {"type": "string"},
            "task_id": {"type": "string"},
            "instruction": {"type": "string"},
            "exposure": {"type": "string", "enum": ["mcp", "cli", "http"]},
            "tools": {"type": "array", "items": {"type": "string"}, "description": "MCP tool names offered."},
            "mcp": {
                "type": "object",
                "properties": {
                    "server_name": {"type": "string"},
                    "url": {"type": "string"},
                    "transport": {"const": "streamable_http"},
                    "headers": {
                        "type": "object",
                        "properties": {"Authorization": {"type": "string", "pattern": "^Bearer .+"}},
                        "required": ["Authorization"],
                        "additionalProperties": {"type": "string"},
                    },
                },
                "required": ["server_name", "url", "transport", "headers"],
            },
            "company_api_url": {"type": "string"},
            "token": {"type": "string", "minLength": 1},
            "lease_s": {
                "type": "number",
                "minimum": 0,
                "description": "Seconds the session lives without a call, /task_state or /renew_session (0: no "
                "lease); renew every third of it while the episode runs.",
            },
            "sandbox": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "properties": {
                            "provider": {"type": "string"},
                            "id": {"type": "string"},
                            "workspace": {"type": "string"},
                        },
                        "required": ["provider", "id", "workspace"],
                    },
                ]
            },
        },
        "required": [
            "session_id",
            "task_id",
            "instruction",
            "exposure",
            "tools",
            "mcp",
            "company_api_url",
            "token",
            "sandbox",
        ],
    },
    "TaskState": {
        "type": "object",
        "properties": {
            "session_id": {"type": "string"},
            "status": {"type": "string", "enum": ["active", "complete", "verifying", "verified", "closed"]},
            "task_complete": {"type": "boolean"},
            "calls": {"type": "integer", "minimum": 0},
            "last_call": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "properties": {
                            "tool": {"type": "string"},
                            "ok": {"type": "boolean"},
                            "at": {"type": "number", "description": "Unix time, seconds."},
                        },
                        "required": ["tool", "ok", "at"],
                    },
                ]
            },
            "verify_result": {
                "oneOf": [{"type": "null"}, {"$ref": _REF + "VerifyResponse"}],
                "description": "What /verify answers, once the session is verified; null before, and for good "
                "when it was closed unverified.",
            },
        },
        "required": ["session_id", "status", "task_complete", "calls", "last_call", "verify_result"],
    },
    "VerifyRequest": {
        "type": "object",
        "properties": {
            "session_id": {"type": "string", "minLength": 1},
            "response": {"type": "string", "description": "The final text answer, if any."},
        },
        "required": ["session_id"],
    },
    "VerifyResponse": {
        "type": "object",
        "properties": {
            "session_id": {"type": "string"},
            "reward": {"type": "number", "minimum": 0, "maximum": 1},
            "checks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "passed": {"type": "boolean"},
                        "detail": {"type": "string"},
                    },
                    "required": ["name", "passed", "detail"],
                },
            },
            "mask_sample": {"type": "boolean"},
            "failure_kind": _NULLABLE_STR,
            "failure_reason": _NULLABLE_STR,
            "grader_version": {
                "type": ["string", "null"],
                "description": "16 hex digits over the grading code and the row's checks and allowed changes "
                "(null when no grader ran, e.g. a session a lost replica held).",
            },
            "task": {
                "oneOf": [{"type": "null"}, {"$ref": _REF + "TaskFacts"}],
                "description": "The task the session ran, with its row as it was graded.",
            },
            "tool_calls": {
                "type": "array",
                "description": "Each tool call that reached the session's world, in order (the first 1,000).",
                "items": {
                    "type": "object",
                    "properties": {"tool": {"type": "string"}, "ok": {"type": "boolean"}},
                    "required": ["tool", "ok"],
                },
            },
            "changes": {
                "oneOf": [{"type": "null"}, {"$ref": _REF + "ChangeSet"}],
                "description": "What the session changed against its seed, and what it said (docs/grading.md).",
            },
        },
        "required": ["session_id", "reward", "checks", "mask_sample", "failure_kind", "failure_reason",
                     "grader_version", "task", "tool_calls", "changes"],  # fmt: skip
    },
    "TaskFacts": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "family": _NULLABLE_STR,
            "company": {"type": "string"},
            "seed": {"type": ["integer", "null"]},
            "split": {"type": "string", "enum": ["train", "validation", "test"]},
            "tier": {"type": "string", "enum": ["easy", "medium", "hard"]},
            "apps": {"type": "array", "items": {"type": "string"}},
            "exposure": {"type": "string", "enum": ["mcp", "cli", "http"]},
            "row_hash": {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"},
            "row": {"type": "object", "description": "The task row, fields at their default left out."},
        },
        "required": ["id", "family", "company", "seed", "split", "tier", "apps", "exposure", "row_hash", "row"],
    },
    "ChangeSet": {
        "type": "object",
        "properties": {
            "records": {
                "type": "object",
                "description": "app -> collection -> {added: {id: record}, changed: {id: {field: {before, after}}}, "
                "removed: {id: record}}",
                "additionalProperties": {"type": "object"},
            },
            "files": {
                "type": "object",
                "description": "blob id (sha256:<hex>) -> base64 of the bytes, for the files the session created",
                "additionalProperties": {"type": "string"},
            },
            "said": {
                "type": "object",
                "properties": {"answer": _NULLABLE_STR, "summary": _NULLABLE_STR, "response": _NULLABLE_STR},
                "required": ["answer", "summary", "response"],
            },
            "counts": {
                "type": "object",
                "properties": {k: {"type": "integer", "minimum": 0} for k in ("added", "changed", "removed")},
                "required": ["added", "changed", "removed"],
            },
            "complete": {"type": "boolean", "description": "false when the bounds left something out"},
            "left_out": {
                "type": "object",
                "properties": {
                    "changes": {"type": "integer", "minimum": 0},
                    "files": {"type": "array", "items": {"type": "string"}},
                    "texts": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["changes", "files", "texts"],
            },
        },
        "required": ["records", "files", "said", "counts", "complete", "left_out"],
    },
    "CloseRequest": {
        "type": "object",
        "properties": {"session_id": {"type": "string", "minLength": 1}},
        "required": ["session_id"],
    },
    "CloseResponse": {
        "type": "object",
        "properties": {
            "session_id": {"type": "string"},
            "closed": {"const": True},
        },
        "required": ["session_id", "closed"],
    },
    "ReferenceRequest": {
        "type": "object",
        "description": "Exactly one of the two fields.",
        "properties": {
            "instruction": {"type": "string", "minLength": 1, "maxLength": 200000,
                            "description": "Text holding a task's instruction, e.g. a harness's user messages."},
            "session_id": {"type": "string", "minLength": 1},
        },
        "additionalProperties": False,
    },
    "ReferenceResponse": {
        "type": "object",
        "properties": {
            "session_id": {"type": "string", "description": "The matching live session (the newest of them)."},
            "task_id": {"type": "string"},
            "instruction": {"type": "string", "description": "The task's instruction, as seeded."},
            "exposure": {"type": "string", "enum": ["mcp", "cli", "http"]},
            "matches": {"type": "integer", "minimum": 1, "description": "Live sessions of that instruction."},
            "solution": {"type": "array", "items": {"$ref": _REF + "PlayStep"}},
            "negative_control": {
                "type": ["object", "null"],
                "properties": {
                    "name": {"type": "string"},
                    "steps": {"type": "array", "items": {"$ref": _REF + "PlayStep"}},
                },
                "required": ["name", "steps"],
            },
        },
        "required": ["session_id", "task_id", "instruction", "exposure", "matches", "solution", "negative_control"],
    },
    "PlayStep": {
        "type": "object",
        "properties": {
            "tool": {"type": "string", "description": "'<app>.<action>' or 'complete_task'."},
            "args": {"type": "object"},
            "save": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "required": ["tool", "args", "save"],
    },
    "RenewResponse": {
        "type": "object",
        "properties": {
            "session_id": {"type": "string"},
            "expires_at": {
                "type": ["number", "null"],
                "description": "When the lease now runs out, Unix seconds (null: the server gives no leases).",
            },
            "lease_s": {"type": "number", "minimum": 0, "description": "The lease, seconds (session_lease_s)."},
        },
        "required": ["session_id", "expires_at", "lease_s"],
    },
    "TaskList": {
        "type": "object",
        "properties": {
            "tasks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "task_id": {"type": "string"},
                        "apps": {"type": "array", "items": {"type": "string"}},
                        "exposure": {"type": "string", "enum": ["mcp", "cli", "http"]},
                    },
                    "required": ["task_id", "apps", "exposure"],
                },
            }
        },
        "required": ["tasks"],
    },
    "Health": {"type": "object", "properties": {"ok": {"const": True}}, "required": ["ok"]},
}


def _task_row_schemas() -> dict[str, Any]:
    """The task row's JSON Schema (``Task`` and the models it uses), as components."""
    schema = Task.model_json_schema(ref_template=_REF + "{model}")
    defs = schema.pop("$defs", {})
    schema["properties"]["apps"]["items"]["enum"] = list(REGISTRY.apps)
    return {**defs, "Task": schema}


def _seed_request(task_ids: list[str] | None) -> dict[str, Any]:
    task_id: dict[str, Any] = {"type": "string", "description": "A task the server knows (GET /tasks)."}
    if task_ids:
        task_id["enum"] = task_ids
    options = {
        "exposure": {"type": "string", "enum": ["mcp", "cli", "http"], "description": "Default: the task's."},
        "sandbox": {"type": "boolean", "description": "Lend a sandbox (default: for cli and http)."},
        "block_internet": {
            "type": "boolean",
            "description": "Keep the sandbox off the internet (default false; needs the opensandbox provider with "
            "sandbox_block_internet on, else 400).",
        },
    }
    return {
        "oneOf": [
            {
                "type": "object",
                "properties": {"task_id": task_id, **options},
                "required": ["task_id"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {"task": {"$ref": _REF + "Task"}, **options},
                "required": ["task"],
                "additionalProperties": False,
            },
        ]
    }


def _responses(ok: str, description: str, errors: Iterable[str], links: dict[str, Any] | None = None) -> dict[str, Any]:
    answers: dict[str, Any] = {
        "200": {
            "description": description,
            "content": {"application/json": {"schema": {"$ref": _REF + ok}}},
            **({"links": links} if links else {}),
        }
    }
    for code in errors:
        answers[code] = {
            "description": _ERROR_TEXT[code],
            "content": {"application/json": {"schema": {"$ref": _REF + "Error"}}},
        }
    return answers


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


_BY_SESSION = "$response.body#/session_id"
_SEED_LINKS = {
    "TaskState": {"operationId": "task_state", "parameters": {"session_id": _BY_SESSION}},
    "Verify": {"operationId": "verify", "requestBody": {"session_id": _BY_SESSION}},
    "Close": {"operationId": "close_session", "requestBody": {"session_id": _BY_SESSION}},
    "Renew": {"operationId": "renew_session", "requestBody": {"session_id": _BY_SESSION}},
}


def control_openapi_document(task_ids: Iterable[str] | None = None, server_url: str = "") -> dict[str, Any]:
    """The control plane's OpenAPI 3.1 document.

    Args:
        task_ids: Ids ``/seed_session`` accepts as ``task_id`` (listed as an enum), or None to leave it open.
        server_url: Absolute base URL of the server; omitted when empty.

    Returns:
        The document as a JSON-able dict.
    """
    ids = list(task_ids) if task_ids is not None else None
    paths: dict[str, Any] = {
        "/seed_session": {
            "post": {
                "operationId": "seed_session",
                "summary": "Build a world from a task and open a session on it.",
                "requestBody": _body(_seed_request(ids)),
                "responses": _responses("SeedResponse", "The new session.", ["400", "403", "413", "503"], _SEED_LINKS),
            }
        },
        "/task_state": {
            "get": {
                "operationId": "task_state",
                "summary": "The state the session's last whole call left.",
                "parameters": [
                    {
                        "name": "session_id",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "minLength": 1},
                    },
                    {
                        "name": "renew",
                        "in": "query",
                        "required": False,
                        "description": "false: look without renewing the session's lease (default true).",
                        "schema": {"type": "string", "enum": ["true", "false"], "default": "true"},
                    },
                ],
                "responses": _responses("TaskState", "The session's state.", ["400", "403", "404"]),
            }
        },
        "/verify": {
            "post": {
                "operationId": "verify",
                "summary": "Grade the session's final world; every later ask (before or after close) gets that answer.",
                "requestBody": _body({"$ref": _REF + "VerifyRequest"}),
                "responses": _responses(
                    "VerifyResponse", "The reward and its checks.", ["400", "403", "404", "409", "413"]
                ),
            }
        },
        "/close_session": {
            "post": {
                "operationId": "close_session",
                "summary": "Release the session's world and sandbox; the same answer on every retry.",
                "requestBody": _body({"$ref": _REF + "CloseRequest"}),
                "responses": _responses("CloseResponse", "The session is closed.", ["400", "403", "404", "413"]),
            }
        },
        "/renew_session": {
            "post": {
                "operationId": "renew_session",
                "summary": "Extend the session's lease (session_lease_s from now); any call and /task_state do too. "
                "A session whose lease runs out is closed as abandoned: /verify then answers a masked body.",
                "requestBody": _body({"$ref": _REF + "CloseRequest"}),
                "responses": _responses("RenewResponse", "The new expiry.", ["400", "403", "404", "409", "413"]),
            }
        },
        "/tasks": {
            "get": {
                "operationId": "list_tasks",
                "summary": "The tasks this server can seed.",
                "responses": _responses("TaskList", "Every known task.", ["403"]),
            }
        },
        "/reference_solution": {
            "post": {
                "operationId": "reference_solution",
                "summary": "A live session's task and its reference and wrong plays, for a scripted model's dry runs.",
                "requestBody": _body({"$ref": _REF + "ReferenceRequest"}),
                "responses": _responses("ReferenceResponse", "The session's plays.", ["400", "403", "404", "413"]),
            }
        },
        "/health": {
            "get": {
                "operationId": "health",
                "summary": "Liveness (open to every peer).",
                "responses": _responses("Health", "The server is up.", []),
            }
        },
    }
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "Control plane",
            "version": "1.0.0",
            "description": "Seed, inspect, verify and close sessions. Only peers in trusted_networks may call it.",
        },
        "paths": paths,
        "components": {"schemas": {**_SCHEMAS, **_task_row_schemas()}},
    }
    if server_url:
        doc["servers"] = [{"url": server_url}]
    return doc


def control_openapi_route(gateway: Gateway) -> Callable[[Request], Awaitable[Response]]:
    """The ``GET /openapi.json`` handler (wrap it in the trusted-network guard)."""

    async def openapi(request: Request) -> Response:
        server = gateway.settings.public_url or str(request.base_url)
        return JSONResponse(control_openapi_document(gateway.tasks, server.rstrip("/")))

    return openapi
