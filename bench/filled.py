"""A session that fills its world to its text quota, then searches it: the slowest search it can then make.

``python -m bench.filled``: in process, one session sends 49,000-character mails until
``session_max_written_chars`` refuses the next, then runs the two worst 32-term Gmail searches
over everything it stored; prints the sends, each search's time, and the longest the event loop
waited meanwhile (such a session's calls run in a worker thread) as JSON.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
import sys
import time
from typing import Any

from gateway import Gateway, Settings
from gateway.control.core import SWITCH_INTERVAL_S, QuotaExceeded
from gateway.control.rows import load_builtin_tasks

QUERIES = ["in:anywhere " + " ".join(f"-zz{n}" for n in range(31)), " ".join(["zzzq"] * 32)]


async def filled_session() -> dict[str, Any]:
    """The session's sends, the characters it wrote, and each search's time (ms)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)  # as the served app sets it
    gw = Gateway(Settings(seed_slice_s=0, sandbox_provider="none"), load_builtin_tasks())
    info = await gw.seed({"task_id": "mc-tailspin-travel-filter", "exposure": "http"}, "http://127.0.0.1:1/")
    session = gw.get_session(info["session_id"])
    rnd = random.Random(1)
    sends = 0
    while True:
        body = "".join(rnd.choice(string.ascii_lowercase + " ") for _ in range(49_000))
        args = {"to": ["owen.bell@northwind.example"], "subject": f"s{sends}", "body": body}
        try:
            await gw.call(session, "company_gmail_send_message", args, surface="http")
        except QuotaExceeded:
            break
        sends += 1
    searches, held = {}, {}
    for query in QUERIES:
        stop = asyncio.Event()
        ticker = asyncio.create_task(_longest_wait(stop))
        await asyncio.sleep(0.002)  # the ticker is asleep before the call starts
        started = time.perf_counter()
        await gw.call(session, "company_gmail_search_messages", {"query": query}, surface="http")
        searches[query[:40]] = round((time.perf_counter() - started) * 1000, 1)
        stop.set()
        held[query[:40]] = round(await ticker * 1000, 1)
    return {"sends": sends, "written_chars": session.written_chars, "search_ms": searches, "loop_held_ms": held}


async def _longest_wait(stop: asyncio.Event) -> float:
    """The longest the event loop took to wake a 1 ms sleep past its time (s), until ``stop`` is set."""
    longest = 0.0
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.001)
        longest = max(longest, time.perf_counter() - started - 0.001)
    return longest


if __name__ == "__main__":
    print(json.dumps(asyncio.run(filled_session()), indent=2))
