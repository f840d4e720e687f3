"""Runners: the command line, the demo and its policies, and the rollout of a model through tasks."""

__all__: list[str] = []
