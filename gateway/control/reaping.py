"""What is left when a session or a server ends: abandoned sessions' answers and the reaping rule.

A sandbox is labelled at creation (:func:`gateway.control.workspace.lend_sandbox`) with its session, its
gateway's incarnation (a random id per run unless ``incarnation`` is set) and its expiry (creation time plus
``sandbox_ttl_s``, Unix seconds). Several gateways may share one engine and one owner label; at start a
gateway reaps only what no running gateway can still be using: its owner's sandboxes whose expiry has
passed, that carry its own incarnation (none can exist at start), or that carry the incarnation of a run on
this host that has ended (killed: :mod:`gateway.control.runmarks`). A live sandbox of another gateway is left
alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import Any

from gateway.control.workspace import destroy_quietly
from sandbox import Provider, Sandbox

__all__ = ["ABANDONED", "abandoned_result", "destroy_all", "reap_leftovers", "reapable"]

logger = logging.getLogger(__name__)

#: ``failure_kind`` of a session closed because its lease ran out.
ABANDONED = "abandoned"


def reapable(sandbox: Sandbox, incarnation: str, now: float, ended: Collection[str] = ()) -> bool:
    """Whether a gateway of run ``incarnation`` may destroy ``sandbox`` (listed under its owner) at ``now``.

    Args:
        sandbox: As :meth:`sandbox.Provider.list_owned` returns it, with the labels it was created with.
        incarnation: This gateway's run id.
        now: Unix seconds.
        ended: Incarnations of runs known to have ended (:func:`gateway.control.runmarks.ended_runs`).

    Returns:
        True when the sandbox carries this incarnation or an ended one, or its ``expires`` label (Unix seconds)
        has passed. A sandbox without a readable expiry (``"never"``, or from a version that wrote none) is kept.
    """
    labels = sandbox.labels
    if labels.get("incarnation") == incarnation or labels.get("incarnation") in ended:
        return True
    try:
        expires = float(labels.get("expires", "never"))
    except ValueError:
        return False
    return expires <= now


async def reap_leftovers(provider: Provider, held: set[str], incarnation: str, session_of: Callable[[Sandbox], str],
                         ended: Collection[str] = ()) -> int:  # fmt: skip
    """Destroy the owner's sandboxes that :func:`reapable` allows and no live session holds; returns how many.

    Raises:
        ProviderUnavailable: the provider could not list its sandboxes.
    """
    now = time.time()
    owned = await provider.list_owned()
    leftovers = [sb for sb in owned if sb.id not in held and reapable(sb, incarnation, now, ended)]
    gate = asyncio.Semaphore(64)

    async def destroy(sb: Sandbox) -> None:
        async with gate:
            await destroy_quietly(provider, sb, session_of(sb))

    await asyncio.gather(*(destroy(sb) for sb in leftovers))
    kept = len(owned) - len(leftovers) - len(held & {sb.id for sb in owned})
    if leftovers or kept:
        logger.warning("reaped %d sandbox(es), expired or of ended runs; left %d of other live gateways "
                       "(or without an expiry)",
                       len(leftovers), kept)  # fmt: skip
    return len(leftovers)


async def destroy_all(items: Iterable[Any], release: Callable[[Any], Awaitable[None]]) -> int:
    """Run ``release`` on every item, 64 at a time; returns how many."""
    gate = asyncio.Semaphore(64)
    items = list(items)

    async def one(item: Any) -> None:
        async with gate:
            await release(item)

    await asyncio.gather(*(one(i) for i in items))
    return len(items)


def abandoned_result(session_id: str, lease_s: float, facts: dict[str, Any], version: str,
                     tool_calls: list[dict[str, Any]]) -> dict[str, Any]:  # fmt: skip
    """The ``/verify`` answer of a session closed because its lease ran out: masked, the same every time.

    Shaped as every ``/verify`` answer (``reward`` 0.0 as other masked answers, no checks, no change set).
    """
    return {
        "session_id": session_id,
        "reward": 0.0,
        "checks": [],
        "mask_sample": True,
        "failure_kind": ABANDONED,
        "failure_reason": f"no call, /task_state or /renew_session for {lease_s:g} s (session_lease_s); "
        "the session was closed and its world and sandbox dropped",
        "grader_version": version,
        "task": facts,
        "tool_calls": list(tool_calls),
        "changes": None,
    }
