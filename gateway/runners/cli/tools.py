"""``company-gateway tools``: list every generated tool."""

from __future__ import annotations

import argparse
import json

__all__ = ["run"]

def run(args: argparse.Namespace) -> int:
    """``tools``: every generated tool, a line each or (``--json``) a JSON array."""
    from tools import COMPLETE_TASK, REGISTRY

    actions = [*REGISTRY.actions(), COMPLETE_TASK]
    if args.json:
        rows = [
            {"name": a.tool_name, "app": a.app or None, "read_only": a.read_only, "description": a.description,
             "input_schema": a.input_schema}
            for a in actions
        ]  # fmt: skip
        print(json.dumps(rows, indent=2))
        return 0
    for a in actions:
        print(f"{a.tool_name:48} {'read' if a.read_only else 'write':5} {a.summary}")
    print(f"{len(actions)} tools over {len(REGISTRY.apps)} apps")
    return 0
