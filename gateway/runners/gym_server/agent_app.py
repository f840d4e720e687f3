"""A NeMo Gym agent: Gym's simple agent, except that a failed model call masks the rollout instead of losing it.

Written into ``responses_api_agents/company_gateway_agent/app.py`` by ``company-gateway gym-export``; it runs in
Gym's venv and imports ``nemo_gym`` and Gym's ``simple_agent`` only. Gym 0.7.0's simple agent raises when a model
call fails (a model that cannot be reached, or one that does not speak the Responses API that Gym's model servers
send): ``gym eval run`` then gets a 500, writes no row, and the rollout's gateway session stays open. Here the
episode ends instead with an empty response whose ``metadata`` names the failure
(``company_gateway_failure``: ``model_unreachable``, ``model_api``, ``model_error`` or ``episode_timeout``, and
``company_gateway_failure_reason``); the resources server's ``/verify`` then closes the gateway session without
grading it and answers a masked row (``mask_sample: true``, ``failure_kind: company_gateway:<kind>``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from fastapi import Body, Request, Response
from nemo_gym.openai_utils import NeMoGymResponse, NeMoGymResponseCreateParamsNonStreaming
from pydantic import Field
from responses_api_agents.simple_agent.app import SimpleAgent, SimpleAgentConfig

LOG = logging.getLogger(__name__)

#: Words in a failed model call's error that say the model could not be reached, or spoke another API.
_UNREACHABLE = ("connect", "refused", "unreachable", "name or service not known", "timed out", "timeout")
_WRONG_API = ("404", "405", "not found", "method not allowed", "validation error", "validationerror")


def failure_of(exc: BaseException) -> tuple[str, str]:
    """``(kind, reason)`` of a failed model call: ``model_unreachable``, ``model_api`` or ``model_error``."""
    content = getattr(exc, "response_content", None)
    text = content.decode("utf-8", "replace") if isinstance(content, bytes) else str(content or "")
    reason = f"{type(exc).__name__}: {exc} {text}".strip()
    lowered = reason.lower()
    if any(word in lowered for word in _UNREACHABLE):
        return "model_unreachable", reason[:500]
    if any(word in lowered for word in _WRONG_API):
        return "model_api", reason[:500]
    return "model_error", reason[:500]


class CompanyGatewayAgentConfig(SimpleAgentConfig):
    """Gym's simple agent's config, and ``episode_timeout_s``: the longest one episode may take (seconds).

    Gym 0.7.0's model server retries a model it cannot connect to without end, so an unreachable model shows
    here only as an episode that never ends: past ``episode_timeout_s`` it ends as ``episode_timeout``.
    """

    episode_timeout_s: float = Field(default=3600.0, gt=0)


class CompanyGatewayAgent(SimpleAgent):
    """Gym's simple agent; a failed episode becomes an empty response that names the failure (see the module)."""

    config: CompanyGatewayAgentConfig

    async def responses(  # type: ignore[override]
        self, request: Request, response: Response, body: NeMoGymResponseCreateParamsNonStreaming = Body()  # noqa: B008
    ) -> NeMoGymResponse:
        """The simple agent's episode; on a failure, an empty response whose ``metadata`` says why."""
        try:
            return await asyncio.wait_for(super().responses(request, response, body), self.config.episode_timeout_s)
        except Exception as exc:  # the episode's failure becomes a masked row, never a lost one
            kind, reason = failure_of(exc)
            if isinstance(exc, TimeoutError):
                kind = "episode_timeout"
                reason = (f"the episode did not end within episode_timeout_s={self.config.episode_timeout_s:g} s "
                          "(a model that cannot be reached stalls Gym's model server, which retries it without end)")
            LOG.error("company_gateway_agent: the episode failed (%s): %s", kind, reason)
            for key, value in request.cookies.items():  # the resources server's session, for the verify that follows
                response.set_cookie(key, value)
            failed: dict[str, Any] = {
                "id": f"resp_failed_{int(time.time() * 1000)}", "object": "response", "created_at": int(time.time()),
                "model": str(getattr(body, "model", None) or ""), "output": [], "parallel_tool_calls": True,
                "tool_choice": "auto", "tools": [], "status": "failed",
                "metadata": {"company_gateway_failure": kind, "company_gateway_failure_reason": reason},
            }  # fmt: skip
            return NeMoGymResponse.model_validate(failed)


if __name__ == "__main__":
    CompanyGatewayAgent.run_webserver()
