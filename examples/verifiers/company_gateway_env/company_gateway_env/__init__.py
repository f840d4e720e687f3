"""A verifiers taskset over a running company-gateway (taskset id ``company-gateway-env``).

Each rollout seeds its own gateway session (task ``setup``), the model's tools are that session's tools served
through a verifiers toolset over MCP, and the reward is ``/verify``'s (task ``finalize`` verifies and closes the
session). A session the gateway masks fails the rollout (an error on the trace, never a 0.0).
"""

from company_gateway_env.taskset import (
    CompanyGatewayConfig,
    CompanyGatewayEnv,
    CompanyGatewayTask,
    CompanyGatewayTaskConfig,
    CompanyGatewayTaskset,
    CompanyTaskData,
)

__all__ = [
    "CompanyGatewayConfig",
    "CompanyGatewayEnv",
    "CompanyGatewayTask",
    "CompanyGatewayTaskConfig",
    "CompanyGatewayTaskset",
    "CompanyTaskData",
]
