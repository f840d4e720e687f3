"""An OpenEnv environment over a running company-gateway: one episode is one gateway session.

Run the server with ``company-gateway-openenv --gateway-url URL``; drive it with OpenEnv's clients
(``MCPToolClient``, ``GenericEnvClient``) or TRL's ``GRPOTrainer`` (``environment_factory``).
"""

from company_gateway_openenv.environment import END_EPISODE, CompanyGatewayEnvironment, GatewayConfig, GatewayEnvState

__all__ = ["END_EPISODE", "CompanyGatewayEnvironment", "GatewayConfig", "GatewayEnvState"]
