"""The ``company-gateway`` command: serve, tasks, tools, demo, rollout, cluster, harbor-export, gym-export.

``main`` parses and dispatches (:mod:`gateway.runners.cli.main`); each command is a module of its own here.
"""

from gateway.runners.cli.main import main

__all__ = ["main"]
