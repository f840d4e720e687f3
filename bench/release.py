"""``python -m bench.release [--sessions N] [--wait S] [--in-flight K]``: does RSS come back after sessions end?

For each of ``memory_trim_interval_s`` 0 (no trim) and 5 (the default), a fresh gateway process
(``python -m bench.serve gateway-files``: local sandboxes) serves ``N`` sessions of
:data:`TASK`, ``K`` at a time. Each writes a ~300 KB text file into its workspace (the host folder
of its local sandbox), uploads it to Drive, reads its text back, downloads it, searches it, and
fetches a mail attachment (a PDF); all stay live until the last is done, then all are closed.
RSS (VmRSS) is read before (after one warm-up session), at the peak (sampled every 0.1 s), just
after the last close, and ``S`` seconds later. Prints one JSON line per setting and a table.

Before tool calls had a worker pool of their own (``gateway.control.offload``), ``K`` of 6 or more on a
2-core machine made every file call wait 30 s and fail; the figures in docs/performance.md use ``K`` = 4.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.procs import rss_bytes, server_processes

__all__ = ["TASK", "run"]

#: A hand-written Drive and Gmail task with a sandbox (its mail has a PDF attachment).
TASK = "drive2-save-fabrikam-invoice"
MIB = 2**20


def _text(i: int) -> bytes:
    return "".join(f"row {n} of file {i},{'x' * 60},word{i}\n" for n in range(4000)).encode()  # ~330 KB


async def _session(http: httpx.AsyncClient, root: Path, i: int) -> str:
    r = await http.post("/seed_session", json={"task_id": TASK, "exposure": "http"})
    r.raise_for_status()
    seed = r.json()
    folder = root / seed["sandbox"]["id"] / "workspace" / "up"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"big{i}.csv").write_bytes(_text(i))
    api, auth = seed["company_api_url"], {"Authorization": f"Bearer {seed['token']}"}

    async def call(path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = await http.post(f"{api}/{path}", json=body, headers=auth)
        if answer.status_code != 200:
            raise RuntimeError(f"{path}: {answer.status_code} {answer.text[:200]}")
        return dict(answer.json())

    file_id = (await call("drive/upload_file", {"path": f"up/big{i}.csv"}))["id"]
    await call("drive/read_file", {"file_id": file_id})
    await call("drive/download_file", {"file_id": file_id})
    await call("drive/search_files", {"query": f"word{i}"})
    await call("gmail/get_attachment", {"message_id": "msg_0102", "attachment_id": "att_0017"})
    return str(seed["session_id"])


async def _sessions(url: str, root: Path, n: int, in_flight: int) -> list[str]:
    gate = asyncio.Semaphore(in_flight)
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:

        async def one(i: int) -> str:
            async with gate:
                return await _session(http, root, i)

        return list(await asyncio.gather(*(one(i) for i in range(n))))


async def _close(url: str, ids: list[str]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        for sid in ids:
            (await http.post("/close_session", json={"session_id": sid})).raise_for_status()


def run(trim_interval_s: float, sessions: int, wait_s: float, in_flight: int) -> dict[str, Any]:
    """One gateway process with that ``memory_trim_interval_s``; RSS in MiB before, at peak, closed, waited."""
    with tempfile.TemporaryDirectory(prefix="bench-release-") as tmp:
        root = Path(tmp)
        os.environ["GATEWAY_SANDBOX_ROOT"] = str(root)
        os.environ["GATEWAY_MEMORY_TRIM_INTERVAL_S"] = str(trim_interval_s)
        with server_processes("gateway-files") as (gw,):
            asyncio.run(_close(gw.url, asyncio.run(_sessions(gw.url, root, 1, 1))))  # warm every path
            time.sleep(max(2.0, trim_interval_s + 1))
            before = rss_bytes(gw.pid)
            peak, done = [before], threading.Event()

            def sample() -> None:
                while not done.wait(0.1):
                    peak.append(rss_bytes(gw.pid))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            started = time.perf_counter()
            ids = asyncio.run(_sessions(gw.url, root, sessions, in_flight))
            asyncio.run(_close(gw.url, ids))
            seconds = time.perf_counter() - started
            done.set()
            sampler.join()
            closed = rss_bytes(gw.pid)
            time.sleep(wait_s)
            waited = rss_bytes(gw.pid)
    return {
        "memory_trim_interval_s": trim_interval_s,
        "sessions": sessions,
        "in_flight": in_flight,
        "seconds": round(seconds, 1),
        "rss_mib": {
            "before": round(before / MIB, 1),
            "peak": round(max(peak + [closed]) / MIB, 1),
            "closed": round(closed / MIB, 1),
            f"after_{wait_s:g}s": round(waited / MIB, 1),
        },
        "kept_after_wait_mib": round((waited - before) / MIB, 1),
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.release", description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--wait", type=float, default=30.0, help="seconds after the last close to read RSS again")
    parser.add_argument("--in-flight", type=int, default=4)
    parser.add_argument("--intervals", default="0,5", help="memory_trim_interval_s values to compare")
    args = parser.parse_args()
    results = []
    for interval in (float(v) for v in args.intervals.split(",")):
        results.append(run(interval, args.sessions, args.wait, args.in_flight))
        print(json.dumps(results[-1]), flush=True)
    print(f"| memory_trim_interval_s | before | peak | just closed | {args.wait:g} s later | kept |")
    print("|---|---|---|---|---|---|")
    for r in results:
        m = r["rss_mib"]
        later = m[f"after_{args.wait:g}s"]
        print(f"| {r['memory_trim_interval_s']:g} | {m['before']} | {m['peak']} | {m['closed']} | {later} | "
              f"{r['kept_after_wait_mib']:+.1f} MiB |")  # fmt: skip


if __name__ == "__main__":
    main()
