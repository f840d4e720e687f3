"""Benchmarks of the gateway: ``python -m bench`` (``--quick`` for a short smoke run).

Each part starts the servers it measures in their own processes and drives them
from other processes, so that the load generator is never the bottleneck.
"""

__all__: list[str] = []
