"""Keeping a session's lease while an episode runs: ``POST /renew_session`` every third of the lease.

A gateway closes a session nobody touched for ``session_lease_s`` (the seed answers it as ``lease_s``) as
abandoned. A model turn can take longer than that, so a runner renews in the background while its episode
runs, and closes the session on every way out; if the runner itself dies, the lease frees what it held.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import httpx

__all__ = ["renew_every", "renewing"]

logger = logging.getLogger(__name__)


def renew_every(lease_s: object) -> float | None:
    """Seconds between renewals for a seed's ``lease_s`` (a third of it), or None: no lease, nothing to renew."""
    if isinstance(lease_s, bool) or not isinstance(lease_s, int | float) or lease_s <= 0:
        return None
    return float(lease_s) / 3


@contextlib.asynccontextmanager
async def renewing(control: httpx.AsyncClient, session_id: str, lease_s: object) -> AsyncIterator[None]:
    """Renew ``session_id``'s lease every third of ``lease_s`` seconds while the block runs.

    A failed renewal is logged and tried again at the next turn (the episode's own calls renew too).

    Args:
        control: Client of the gateway's control plane (``base_url`` set to the gateway).
        session_id: The session to keep.
        lease_s: The seed's ``lease_s`` (0 or missing: nothing is renewed).
    """
    every = renew_every(lease_s)
    if every is None:
        yield
        return

    async def renew() -> None:
        while True:
            await asyncio.sleep(every)
            try:
                answer = await control.post("/renew_session", json={"session_id": session_id})
            except httpx.HTTPError as exc:
                logger.warning("renew session %s: %s: %s", session_id, type(exc).__name__, exc)
                continue
            if answer.status_code in (404, 409):  # closed or forgotten: nothing left to keep
                return
            if answer.status_code >= 400:
                logger.warning("renew session %s: %d %s", session_id, answer.status_code, answer.text[:200])

    task = asyncio.create_task(renew(), name=f"renew-{session_id}")
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
