"""TRL ``GRPOTrainer`` glue: an ``environment_factory`` class whose tools are the gateway session's tools.

TRL exposes every public method of the factory's class as a tool (its name, its typed signature and the ``Args:`` of
its docstring make the schema) and calls ``reset(**row)`` before each rollout and ``get_reward()`` after it. This
module builds such a class from the gateway's tool list: each method forwards to the OpenEnv server
(``company-gateway-openenv``) with OpenEnv's own client, ``reset`` starts an episode for the row's ``task_id``, and
``get_reward`` ends it (verify and close) and returns ``/verify``'s reward, or ``None`` for a masked episode (TRL
leaves a ``None`` out of the mean: masked, never 0). No TRL import here: the class is plain Python.

    Env = environment_class("http://127.0.0.1:8010", tools)     # tools: [{"name", "description", "inputSchema"}]
    GRPOTrainer(..., environment_factory=Env, reward_funcs=[checks_passed])
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.mcp_client import MCPToolClient

from company_gateway_openenv.environment import END_EPISODE

__all__ = ["checks_passed", "environment_class"]

_PY_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}


class _GatewayEpisodes:
    """The base of the generated class: one OpenEnv client, one episode at a time."""

    env_url = ""

    def __init__(self) -> None:
        self.client = MCPToolClient(base_url=self.env_url).sync()
        self.client.connect()
        self.done = True
        self.reward: float | None = None
        self.mask_sample = False
        self.checks: list[dict[str, Any]] = []

    def reset(self, **row: Any) -> str | None:
        """Start the episode of ``row["task_id"]`` (the prompt already holds its instruction)."""
        self.client.reset(task_id=row["task_id"])
        self.done, self.reward, self.mask_sample, self.checks = False, None, False, []
        return None

    def get_reward(self) -> float | None:
        """End the episode if the model did not (verify, close): the gateway's reward, None when masked."""
        if not self.done:
            self._take(self.client.step(CallToolAction(tool_name=END_EPISODE, arguments={"response": ""})))
        return None if self.mask_sample else self.reward

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self.done:
            raise ValueError("The task is over.")
        result = self.client.step(CallToolAction(tool_name=name, arguments=arguments))
        self._take(result)
        observation = result.observation
        if observation.error is not None:
            raise ValueError(observation.error.message)
        content = (observation.result or {}).get("content") or []
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))

    def _take(self, result: Any) -> None:
        if result.done:
            metadata = result.observation.metadata or {}
            self.done, self.reward = True, result.reward
            self.mask_sample = bool(metadata.get("mask_sample"))
            self.checks = list(metadata.get("checks") or [])


def environment_class(env_url: str, tools: list[dict[str, Any]]) -> type:
    """A class for ``environment_factory`` with one method per tool in ``tools`` (the gateway's MCP listing).

    Args:
        env_url: The OpenEnv server's base URL (``company-gateway-openenv``).
        tools: ``[{"name", "description", "inputSchema"}]``, e.g. ``MCPToolClient.list_tools()`` as dicts.

    Returns:
        A class whose instances TRL resets, calls and rewards (see the module docstring).
    """
    methods: dict[str, Any] = {"env_url": env_url}
    for spec in tools:
        methods[spec["name"]] = _tool_method(spec)
    return type("CompanyGatewayEnv", (_GatewayEpisodes,), methods)


def _tool_method(spec: dict[str, Any]) -> Any:
    """A method named after the tool, with a typed keyword signature and a docstring TRL reads into its schema."""
    name = spec["name"]
    schema = spec.get("inputSchema") or spec.get("input_schema") or {}
    properties: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])

    def method(self: _GatewayEpisodes, **arguments: Any) -> str:
        return self._call(name, {k: v for k, v in arguments.items() if v is not None})

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {"return": str}
    lines = [_one_line(spec.get("description") or name), "", "Args:"]
    for key, prop in sorted(properties.items(), key=lambda kv: kv[0] not in required):
        kind = _py_type(prop)
        optional = key not in required
        annotations[key] = kind | None if optional else kind
        default = None if optional else inspect.Parameter.empty
        parameters.append(inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=default,
                                            annotation=annotations[key]))  # fmt: skip
        lines.append(f"    {key}: {_one_line(prop.get('description') or key)}")
    if not properties:
        lines = lines[:1]
    method.__name__ = method.__qualname__ = name
    method.__doc__ = "\n".join([*lines, "", "Returns:", "    The result, as JSON text."])
    method.__annotations__ = annotations
    method.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    return method


def _py_type(prop: dict[str, Any]) -> Any:
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "array":
        return list[_PY_TYPES.get((prop.get("items") or {}).get("type"), str)]
    return _PY_TYPES.get(kind, str)


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def checks_passed(environments: list[Any], **kwargs: Any) -> list[float | None]:
    """A reward function for logging: the share of the gateway's checks that held (None when masked or unknown)."""
    shares: list[float | None] = []
    for env in environments:
        env.get_reward()  # ends an episode the model left open (TRL asks the reward functions before get_reward)
        checks = getattr(env, "checks", None) or []
        masked = getattr(env, "mask_sample", False)
        shares.append(None if masked or not checks else sum(bool(c.get("passed")) for c in checks) / len(checks))
    return shares
