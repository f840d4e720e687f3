"""``company-gateway model``: a scripted model server for dry runs of any harness or framework.

It speaks OpenAI (Responses, Chat Completions), Anthropic Messages and Gemini, and plays each session's
reference solution (``oracle``), nothing (``noop``) or a wrong play (``wrong``), learning the session from the
instruction in each request through the gateway's control plane (``POST /reference_solution``).

Modules: :mod:`.plans` (where the plays come from, and the policies), :mod:`.script` (the next step of a
conversation), :mod:`.wires` (the wire formats), :mod:`.server` (the routes and serving).
"""

from gateway.runners.model.plans import (
    POLICIES,
    GatewayReferences,
    Reference,
    ReferenceSource,
    ScriptError,
    TaskReferences,
    steps_for,
)
from gateway.runners.model.script import FINAL_TEXT, FINISH_COMMAND, Call, Turn, decode_output, next_reply
from gateway.runners.model.server import ScriptedModel, serve_model

__all__ = [
    "FINAL_TEXT",
    "FINISH_COMMAND",
    "POLICIES",
    "Call",
    "GatewayReferences",
    "Reference",
    "ReferenceSource",
    "ScriptError",
    "ScriptedModel",
    "TaskReferences",
    "Turn",
    "decode_output",
    "next_reply",
    "serve_model",
    "steps_for",
]
