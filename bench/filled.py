"""A session that fills its world to its text quota, then searches it: the slowest search it can then make.

``python -m bench.filled``: in process, one session sends 49,000-character mails until
``session_max_written_chars`` refuses the next, then runs the two worst 32-term Gmail searches
over everything it stored; prints the sends and each search's time as JSON.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
import time
from typing import Any

from gateway import Gateway, Settings
from gateway.control.core import QuotaExceeded
from gateway.control.tasks import load_builtin_tasks

QUERIES = ["in:anywhere " + " ".join(f"-zz{n}" for n in range(31)), " ".join(["zzzq"] * 32)]


async def _filled() -> dict[str, Any]:
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
    searches = {}
    for query in QUERIES:
        started = time.perf_counter()
        await gw.call(session, "company_gmail_search_messages", {"query": query}, surface="http")
        searches[query[:40]] = round((time.perf_counter() - started) * 1000, 1)
    return {"sends": sends, "written_chars": session.written_chars, "search_ms": searches}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_filled()), indent=2))
