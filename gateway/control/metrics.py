"""Prometheus metrics of one gateway (its own registry: no process globals)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["Metrics"]

#: Bucket edges in seconds for waits and builds (1 ms to 5 min).
_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)


class Metrics:
    """The gateway's figures, exported at ``GET /metrics`` in the Prometheus text format."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.sessions_live = Gauge("gateway_sessions_live", "Sessions holding a world.", registry=r)
        self.seeds_queued = Gauge("gateway_seeds_queued", "Seeds waiting for admission.", registry=r)
        self.admission_wait = Histogram(
            "gateway_admission_wait_seconds", "Time seeds waited for a session slot.", buckets=_SECONDS, registry=r
        )
        self.seed_wait = Histogram(
            "gateway_seed_wait_seconds", "Time seeds waited for their build turn.", buckets=_SECONDS, registry=r
        )
        self.seed_build = Histogram(
            "gateway_seed_build_seconds", "Time to build a session's world.", buckets=_SECONDS, registry=r
        )
        self.tool_call = Histogram(
            "gateway_tool_call_seconds", "Time of one tool call, by app.", ["app"], buckets=_SECONDS, registry=r
        )
        self.sandbox_failures = Counter(
            "gateway_sandbox_failures", "Sandbox provider failures, by step (create, destroy).", ["step"], registry=r
        )
        self.abandoned = Counter(
            "gateway_abandoned_sessions",
            "Sessions closed because their lease ran out (no call, task_state or renew_session within the lease).",
            registry=r,
        )
        self.cpu_share_wait = Counter(
            "gateway_cpu_share_wait_seconds",
            "Seconds tool calls waited for their session's CPU share (session_cpu_share).",
            registry=r,
        )
        self.masked = Counter("gateway_masked_sessions", "Sessions whose reward was masked, by kind.", ["kind"],
                              registry=r)  # fmt: skip

    def render(self) -> bytes:
        """The current figures in the Prometheus text exposition format."""
        return generate_latest(self.registry)
