"""Loop lag: another session's latency while the gateway builds companies and refuses heavy rows.

``python -m bench.loop_lag [SECONDS]``: one gateway in its own process, kept to 2 built companies
(``GATEWAY_COMPANY_CACHE_SIZE=2``, so every seed below evicts one and builds another); the victim session
loops a cheap read (``company_directory_get_person``) from this process and its p50/p99 is taken

- idle;
- beside seeds of inline rows that cycle through all 12 companies, each session closed at once (every seed
  builds a company: the work that once ran on the event loop for 1.4-4.4 s), from a process of its own;
- beside seeds of inline rows whose document spec is a large workbook with one bad field (refused: the
  spec was once built on the loop before the row was checked), from a process of its own;
- on a second gateway lending local sandboxes (``python -m bench.serve gateway-files``), beside seeds of
  inline rows that each get a sandbox, with an empty workspace and then with :data:`WORKSPACE_FILES` files
  in it, each session closed at once (its sandbox destroyed).

Prints one JSON object: each window's ``{"calls", "failed", "p50_ms", "p99_ms", "max_ms"}``, how the seeds were
answered, and the ratios to the idle window just before (the target: p50 within 2x, p99 within 3x).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections import Counter
from multiprocessing import get_context
from typing import Any

import httpx

from bench.common import READ_TASK
from bench.hostile import TASK_ROW, _seed_row, _victim
from bench.procs import Server, server_processes

__all__ = ["COMPANIES", "WORKSPACE_FILES", "run"]

#: Every company of the catalogue, in the order the seeds cycle through them.
COMPANIES = ("default", *(f"gen-{n}" for n in range(1, 12)))
#: A workbook of 21,000 cells: large enough that building it on the loop would show, and its row still under
#: ``max_seed_bytes`` (256 KiB), so that the spec itself is checked and refused (400), not the body (413).
_BIG_SHEET = [[f"r{r}c{c}" for c in range(30)] for r in range(700)]
#: Files in each sandboxed row's workspace (small ones, in 30 folders: what a seed's file writing costs).
WORKSPACE_FILES = 3000


def _rows(kind: str, i: int) -> dict[str, Any]:
    if kind == "company_builds":
        fixture = COMPANIES[i % len(COMPANIES)]
        return {"task": {**TASK_ROW, "id": f"bench-lag-{i}", "apps": ["directory"], "world": {"fixture": fixture}}}
    if kind.startswith("sandboxed"):
        files = WORKSPACE_FILES if kind.endswith("files") else 0
        workspace = {f"d{n // 100}/f{n}.txt": "twenty characters ok" for n in range(files)}
        row = {**TASK_ROW, "id": f"bench-lag-{i}", "exposure": "cli", "sandbox": True, "workspace": workspace}
        return {"task": row}
    spec = {"kind": "xlsx", "sheets": {"Sheet1": _BIG_SHEET}, "bogus": True}
    return {"task": {**TASK_ROW, "id": f"bench-lag-{i}", "documents": {"blob_big": spec}}}


def _seeds(url: str, kind: str, stop: Any, out: Any) -> None:
    """Seed (and close) rows of ``kind`` one after another until ``stop`` is set; put the statuses on ``out``."""

    async def main() -> dict[str, int]:
        seen: Counter[str] = Counter()
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            out.put("ready")
            i = 0
            while not stop.is_set():
                r = await http.post("/seed_session", json=_rows(kind, i))
                seen[str(r.status_code)] += 1
                if r.status_code == 200:
                    await http.post("/close_session", json={"session_id": r.json()["session_id"]})
                i += 1
        return dict(seen)

    out.put(asyncio.run(main()))


def _beside(server: Server, victim: str, kind: str, seconds: float) -> dict[str, Any]:
    ctx = get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    proc = ctx.Process(target=_seeds, args=(server.url, kind, stop, out))
    proc.start()
    try:
        out.get(timeout=60)
        measured = asyncio.run(_victim(server.url, victim, seconds))
    finally:
        stop.set()
        answered = out.get(timeout=300)
        proc.join(30)
    return {**measured, "seed_answers": answered}


def run(server: Server, seconds: float, files_server: Server | None = None) -> dict[str, Any]:
    """The victim's p50/p99 idle and beside each kind of seed (see the module docstring); ratios to idle.

    ``files_server``: a gateway lending local sandboxes, for the sandboxed seeds (left out without one).
    """

    async def token(where: Server) -> str:
        async with httpx.AsyncClient(base_url=where.url, timeout=60) as http:
            return await _seed_row(http, {"task_id": READ_TASK})

    kinds = [("company_builds", server), ("refused_documents", server)]
    if files_server is not None:
        kinds += [("sandboxed_seeds", files_server), ("sandboxed_seeds_with_files", files_server)]
    victims: dict[str, str] = {}
    for _, where in kinds:
        if where.url not in victims:
            victims[where.url] = asyncio.run(token(where))
            asyncio.run(_victim(where.url, victims[where.url], 0.5))  # warm the connection path and caches
    windows: dict[str, Any] = {}
    ratios: dict[str, Any] = {}
    for kind, server in kinds:
        victim = victims[server.url]
        idle = asyncio.run(_victim(server.url, victim, seconds))
        beside = _beside(server, victim, kind, seconds)
        windows[kind] = {"idle": idle, "beside": beside}
        ratios[kind] = {
            "p50": round(beside["p50_ms"] / idle["p50_ms"], 2),
            "p99": round(beside["p99_ms"] / idle["p99_ms"], 2),
        }
    return {"load_average_at_end": os.getloadavg(), **windows, "ratios_to_idle": ratios}


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    os.environ["GATEWAY_COMPANY_CACHE_SIZE"] = "2"
    with server_processes("gateway", "gateway-files") as (gw, files):
        print(json.dumps(run(gw, secs, files), indent=1))
