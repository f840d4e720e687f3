"""The docker provider's container labels: who owns a container, its spec's labels, when it was made and expires.

A restarted gateway finds what a crash left by these labels (``list_owned``, ``reap``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from sandbox.base import WORKSPACE, Sandbox, SandboxSpec

__all__ = ["OWNER_LABEL", "check_labels", "container_labels", "owned_sandboxes"]

OWNER_LABEL = "company-gateway.owner"
"""The container label holding the provider's owner; ``list_owned`` filters on it."""

_RESERVED = "company-gateway."  # the prefix of every label the provider sets itself
_LABELS_LABEL = "company-gateway.labels"  # JSON of the spec's labels (image labels are merged in otherwise)
_CREATED_LABEL = "company-gateway.created-at"  # Unix seconds
_EXPIRES_LABEL = "company-gateway.expires-at"  # Unix seconds, when the spec has a ttl_s


def check_labels(labels: Iterable[str]) -> None:
    """Refuse label keys the provider keeps for itself (``company-gateway.*``)."""
    if any(key.startswith(_RESERVED) for key in labels):
        raise ValueError("label keys starting with 'company-gateway.' are the provider's own; rename them")


def container_labels(spec: SandboxSpec, owner: str, now: float) -> dict[str, str]:
    """The labels of a container created at ``now`` (Unix seconds) for ``owner`` from ``spec``."""
    labels = {
        **spec.labels,
        OWNER_LABEL: owner,
        _LABELS_LABEL: json.dumps(spec.labels, sort_keys=True),
        _CREATED_LABEL: f"{now:.3f}",
    }
    if spec.ttl_s is not None:
        labels[_EXPIRES_LABEL] = f"{now + spec.ttl_s:.3f}"
    return labels


def owned_sandboxes(containers: Iterable[Mapping[str, Any]], owner: str, provider: str) -> list[Sandbox]:
    """A ``Sandbox`` for each listed container labelled with ``owner``, with the labels its spec gave.

    ``private`` holds ``created_at`` and ``expires_at`` (Unix seconds, ``None`` without a ``ttl_s``).
    """
    sandboxes = []
    for item in containers:
        labels = item.get("Labels") or {}
        if labels.get(OWNER_LABEL) != owner:
            continue
        try:
            spec_labels = json.loads(labels.get(_LABELS_LABEL, "{}"))
        except ValueError:
            spec_labels = {}
        sandboxes.append(
            Sandbox(
                id=item["Id"],
                provider=provider,
                workspace=WORKSPACE,
                labels=spec_labels,
                private={
                    "created_at": _float(labels.get(_CREATED_LABEL)),
                    "expires_at": _float(labels.get(_EXPIRES_LABEL)),
                },
            )
        )
    return sandboxes


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
