"""``company-gateway cluster``: serve N gateway replicas on Ray behind a seed router."""

from __future__ import annotations

import argparse
import logging
import sys

__all__ = ["run"]

def run(args: argparse.Namespace) -> int:
    """``cluster``: N replicas on Ray behind a seed router, until stopped."""
    from gateway.cluster.replicas import serve_cluster
    from gateway.settings import Settings

    if args.replicas < 1:
        print(f"company-gateway cluster: --replicas must be 1 or more, not {args.replicas}", file=sys.stderr)
        return 2
    overrides = {k: v for k, v in vars(args).items() if k in Settings.model_fields and v is not None}
    settings = Settings(**overrides)
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        serve_cluster(args.replicas, settings, address=args.address, drain_s=args.drain_timeout,
                      replica_host=args.replica_host, announce=lambda line: print(line, flush=True))  # fmt: skip
    except ImportError as exc:
        print(f"company-gateway cluster: {exc}", file=sys.stderr)
        return 2
    return 0
